package ui

import (
	"strings"

	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/ui/render"
)

// finishPage is what the finish page adds below its text: the review of the round and the
// learner's 08-report.md as last read, and its keys (a: the first section to look at again, N: a
// fresh lab).
type finishPage struct {
	report reportMsg
	keys   finishKeys
}

type finishKeys struct{ Again, NewLab binding }

func newFinishPage() finishPage {
	var f finishPage
	f.keys.Again = newBinding("a", "help.again", "", "", "a")
	f.keys.NewLab = newBinding("N", "help.newlab", "", "", "N")
	return f
}

// markdown is the review below the finish page's text: a table of the sections with state,
// checks, hints used and the last check's time, then the learner's 08-report.md as it is.
func (f finishPage) markdown(c common) string {
	var b strings.Builder
	if summary := finishSummary(c); summary.Key != "" {
		// A plain paragraph: strong text the breaker sets over lines is drawn "****" at each
		// break in the colourless style (glamour marks every line of it).
		b.WriteString("\n\n" + summary.In(c.lang))
	}
	review := makeReview(c)
	b.WriteString("\n\n" + render.ReviewList(review, c.eng.Lesson, c.lang))
	if _, ok := firstToLookAgain(review); ok {
		b.WriteString("\n" + c.t("ui.finish.jump") + "\n")
	}
	b.WriteString("\n## " + c.t("ui.finish.report") + "\n\n")
	switch {
	case !f.report.present:
		b.WriteString(c.t("ui.finish.no_report") + "\n")
	case f.report.problem.Key != "":
		b.WriteString(f.report.problem.In(c.lang) + "\n")
	default:
		b.WriteString("```markdown\n" + strings.TrimRight(f.report.text, "\n") + "\n```\n")
	}
	return b.String()
}

// makeReview is the round's review from the current results and the saved progress.
func makeReview(c common) progress.Review {
	states := map[string]check.Status{}
	for id, r := range c.results {
		states[id] = r.Status
	}
	return progress.MakeReview(c.eng.Lesson.SectionIDs(), states, c.progress)
}

// reviewNext is the first section the review says needs another look.
func reviewNext(c common) (string, bool) { return firstToLookAgain(makeReview(c)) }

func firstToLookAgain(r progress.Review) (string, bool) {
	for _, row := range r.Sections {
		if row.Again {
			return row.ID, true
		}
	}
	return "", false
}

// finishSummary says what is true now: no section passed, some (naming the rest), or all. It is
// empty until the first check of every section has arrived.
func finishSummary(c common) i18n.Msg {
	if len(c.results) == 0 {
		return i18n.Msg{}
	}
	var left []string
	for i, id := range c.eng.Lesson.SectionIDs() {
		if r, ok := c.results[id]; !ok || r.Status != check.Pass {
			left = append(left, itoa(i+1))
		}
	}
	total := len(c.eng.Lesson.Sections)
	passed := total - len(left)
	switch passed {
	case 0:
		return i18n.M("ui.finish.none", "total", itoa(total))
	case total:
		return i18n.M("ui.finish.all", "total", itoa(total))
	}
	return i18n.M("ui.finish.some", "total", itoa(total), "passed", itoa(passed), "left", i18n.ListOf(c.lang, left))
}

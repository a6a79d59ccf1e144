package ui

import (
	"strings"

	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/ui/common"
	"ist2-boot/ui/keys"
	"ist2-boot/ui/render"
)

// finishPage is what the finish page adds below its text: the review of the round and the
// learner's 08-report.md as last read, and its keys (a: the first section to look at again, N: a
// fresh lab).
type finishPage struct {
	report reportMsg
	keys   finishKeys
}

type finishKeys struct{ Again, NewLab keys.Binding }

func newFinishPage() finishPage {
	var f finishPage
	f.keys.Again = keys.New("a", "help.again", "", "", "a")
	f.keys.NewLab = keys.New("N", "help.newlab", "", "", "N")
	return f
}

// markdown is the review below the finish page's text: a table of the sections with state,
// checks, hints used and the last check's time, then the learner's 08-report.md as it is.
func (f finishPage) markdown(c common.Common) string {
	var b strings.Builder
	if summary := finishSummary(c); summary.Key != "" {
		// A plain paragraph: strong text the breaker sets over lines is drawn "****" at each
		// break in the colourless style (glamour marks every line of it).
		b.WriteString("\n\n" + summary.In(c.Lang))
	}
	review := makeReview(c)
	b.WriteString("\n\n" + render.ReviewList(review, c.Eng.Lesson, c.Lang))
	if _, ok := firstToLookAgain(review); ok {
		b.WriteString("\n" + c.T("ui.finish.jump") + "\n")
	}
	b.WriteString("\n## " + c.T("ui.finish.report") + "\n\n")
	switch {
	case !f.report.present:
		b.WriteString(c.T("ui.finish.no_report") + "\n")
	case f.report.problem.Key != "":
		b.WriteString(f.report.problem.In(c.Lang) + "\n")
	default:
		b.WriteString("```markdown\n" + strings.TrimRight(f.report.text, "\n") + "\n```\n")
	}
	return b.String()
}

// makeReview is the round's review from the current results and the saved progress.
func makeReview(c common.Common) progress.Review {
	states := map[string]check.Status{}
	for id, r := range c.Results {
		states[id] = r.Status
	}
	return progress.MakeReview(c.Eng.Lesson.SectionIDs(), states, c.Progress)
}

// reviewNext is the first section the review says needs another look.
func reviewNext(c common.Common) (string, bool) { return firstToLookAgain(makeReview(c)) }

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
func finishSummary(c common.Common) i18n.Msg {
	if len(c.Results) == 0 {
		return i18n.Msg{}
	}
	var left []string
	for i, id := range c.Eng.Lesson.SectionIDs() {
		if r, ok := c.Results[id]; !ok || r.Status != check.Pass {
			left = append(left, itoa(i+1))
		}
	}
	total := len(c.Eng.Lesson.Sections)
	passed := total - len(left)
	switch passed {
	case 0:
		return i18n.M("ui.finish.none", "total", itoa(total))
	case total:
		return i18n.M("ui.finish.all", "total", itoa(total))
	}
	return i18n.M("ui.finish.some", "total", itoa(total), "passed", itoa(passed), "left", i18n.ListOf(c.Lang, left))
}

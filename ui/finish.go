package ui

import (
	"strings"

	"ist2-boot/steps/progress"

	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/ui/render"
)

// finishMarkdown is the review below the finish page's text: a table of the sections with state,
// checks, hints used and the last check's time, then the learner's 08-report.md as it is.
func (m Model) finishMarkdown() string {
	t := func(k string) string { return i18n.T(m.lang, k, nil) }
	var b strings.Builder
	if summary := m.finishSummary(); summary.Key != "" {
		b.WriteString("\n\n**" + summary.In(m.lang) + "**")
	}
	review := m.review()
	b.WriteString("\n\n" + render.ReviewList(review, m.eng.Lesson, m.lang))
	if _, ok := firstToLookAgain(review); ok {
		b.WriteString("\n" + t("ui.finish.jump") + "\n")
	}
	b.WriteString("\n## " + t("ui.finish.report") + "\n\n")
	switch {
	case !m.report.present:
		b.WriteString(t("ui.finish.no_report") + "\n")
	case m.report.problem.Key != "":
		b.WriteString(m.report.problem.In(m.lang) + "\n")
	default:
		b.WriteString("```markdown\n" + strings.TrimRight(m.report.text, "\n") + "\n```\n")
	}
	return b.String()
}

// review is the round's review from the current results and the saved progress.
func (m Model) review() progress.Review {
	states := map[string]check.Status{}
	for id, r := range m.results {
		states[id] = r.Status
	}
	return progress.MakeReview(m.eng.Lesson.SectionIDs(), states, m.progress)
}

// reviewNext is the first section the review says needs another look.
func (m Model) reviewNext() (string, bool) { return firstToLookAgain(m.review()) }

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
func (m Model) finishSummary() i18n.Msg {
	if len(m.results) == 0 {
		return i18n.Msg{}
	}
	var left []string
	for i, id := range m.eng.Lesson.SectionIDs() {
		if r, ok := m.results[id]; !ok || r.Status != check.Pass {
			left = append(left, itoa(i+1))
		}
	}
	total := len(m.eng.Lesson.Sections)
	passed := total - len(left)
	switch passed {
	case 0:
		return i18n.M("ui.finish.none", "total", itoa(total))
	case total:
		return i18n.M("ui.finish.all", "total", itoa(total))
	}
	return i18n.M("ui.finish.some", "total", itoa(total), "passed", itoa(passed), "left", strings.Join(left, ", "))
}

package ui

import (
	"fmt"
	"strings"

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
	b.WriteString("\n\n| " + strings.Join([]string{t("ui.finish.section"), t("ui.finish.state"), t("ui.finish.attempts"), t("ui.finish.hints"), t("ui.finish.last")}, " | ") + " |\n")
	b.WriteString("|---|---|---|---|---|\n")
	for i, id := range m.eng.Lesson.SectionIDs() {
		state, attempts, hints, last := "·", "0", "0", "—"
		if r, ok := m.results[id]; ok {
			state = render.Glyphs[r.Status] + " " + t("ui.state."+string(r.Status))
		}
		if m.progress != nil {
			if sp := m.progress.Sections[id]; sp != nil {
				attempts, hints = itoa(sp.Attempts), itoa(sp.HintsUsed)
				if !sp.LastCheck.IsZero() {
					last = sp.LastCheck.Local().Format("2006-01-02 15:04")
				}
			}
		}
		fmt.Fprintf(&b, "| %d. %s | %s | %s | %s | %s |\n", i+1, id, state, attempts, hints, last)
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

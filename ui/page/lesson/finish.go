package lesson

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/ui/common"
	"ist2-boot/ui/render"
)

// finishMarkdown is the review below the finish page's text: a table of the sections with state,
// checks, hints used and the last check's time, then the learner's report as it is.
func (f Page) finishMarkdown(c common.Common) string {
	var b strings.Builder
	if summary := finishSummary(c); summary.Key != "" {
		// A plain paragraph: strong text the breaker sets over lines is drawn "****" at each
		// break in the colourless style (glamour marks every line of it).
		b.WriteString("\n\n" + summary.In(c.Lang))
	}
	review := Review(c)
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

// Review is the round's review from the current results and the saved progress.
func Review(c common.Common) progress.Review {
	states := map[string]check.SectionResult{}
	for id, r := range c.Results {
		states[id] = r
	}
	return progress.MakeReview(c.Eng.Lesson.SectionIDs(), states, c.Progress)
}

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
			left = append(left, strconv.Itoa(i+1))
		}
	}
	total := len(c.Eng.Lesson.Sections)
	passed := total - len(left)
	switch passed {
	case 0:
		return i18n.M("ui.finish.none", "total", strconv.Itoa(total))
	case total:
		return i18n.M("ui.finish.all", "total", strconv.Itoa(total))
	}
	// The steps as the tools page names them: 「3·4·5단계」, 「第 3、4、5 步」 (ko r17 L13).
	steps := i18n.M("doctor.step_numbers", "numbers", strings.Join(left, c.T("doctor.number_sep"))).In(c.Lang)
	return i18n.M("ui.finish.some", "total", strconv.Itoa(total), "passed", strconv.Itoa(passed), "left", steps)
}

// reportMsg is the learner's report as read for the finish page (id).
type reportMsg struct {
	id      string
	text    string
	present bool
	problem i18n.Msg
}

// Page implements page.Msg: the report goes to the finish page.
func (r reportMsg) Page() string { return r.id }

// reportCmd reads the learner's report for the finish page.
func reportCmd(eng *common.Engine, id, file string) tea.Cmd {
	return func() tea.Msg {
		text, present, problem := check.ReadLearnerFile(eng.Env, file)
		return reportMsg{id: id, text: text, present: present, problem: problem}
	}
}

// reportFile is the file the lesson judges as the learner's report (check: report).
func reportFile(l *steps.Lesson) string {
	for _, s := range l.Sections {
		for _, f := range s.Files {
			if f.Check == "report" {
				return f.Name
			}
		}
	}
	return ""
}

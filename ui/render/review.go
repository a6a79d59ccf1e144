package render

import (
	"fmt"
	"strings"
	"time"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
)

// ReviewMarkdown is the review as a Markdown page in lang.
func ReviewMarkdown(r progress.Review, l *steps.Lesson, lang i18n.Lang) string {
	t := func(k string, args ...string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(args); i += 2 {
			m[args[i]] = args[i+1]
		}
		return i18n.T(lang, k, m)
	}
	var b strings.Builder
	b.WriteString("# " + t("review.title") + "\n\n" + t("review.again") + "\n\n")
	b.WriteString("| " + strings.Join([]string{t("ui.finish.section"), t("ui.finish.state"), t("ui.finish.attempts"), t("ui.finish.hints"), t("review.time"), t("review.first_time")}, " | ") + " |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, row := range r.Sections {
		title := row.ID
		if sec, ok := l.Section(row.ID); ok {
			title = sec.Title[lang]
		}
		state := "·"
		if row.Status != "" {
			state = t("ui.state." + string(row.Status))
		}
		took := "—"
		if row.Seconds > 0 {
			took = (time.Duration(row.Seconds) * time.Second).String()
		}
		first := t("review.no")
		if row.FirstTime {
			first = t("review.yes")
		}
		mark := ""
		if row.Again {
			mark = "▸ "
		}
		fmt.Fprintf(&b, "| %s%s | %s | %d | %d | %s | %s |\n", mark, title, state, row.Attempts, row.Hints, took, first)
	}
	b.WriteString("\n" + t("review.drills", "done", fmt.Sprint(r.Drills.Done), "right", fmt.Sprint(r.Drills.Right)) + "\n")
	return b.String()
}

package render

import (
	"fmt"
	"slices"
	"strings"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
)

// ReviewMarkdown is the review as a Markdown page in lang.
func ReviewMarkdown(r progress.Review, l *steps.Lesson, lang i18n.Lang) string {
	t := i18n.Sayer(lang)
	var b strings.Builder
	b.WriteString("# " + t("review.title") + "\n\n" + t("review.again") + "\n\n")
	b.WriteString("| " + strings.Join([]string{t("ui.finish.section"), t("ui.finish.state"), t("ui.finish.attempts"), t("ui.finish.hints"), t("review.time"), t("review.first_time")}, " | ") + " |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	ids := l.SectionIDs()
	for _, row := range r.Sections {
		// Numbered as the tutorial's list numbers its steps (zh r14 L26, ja L30).
		title := fmt.Sprintf("%d. %s", slices.Index(ids, row.ID)+1, sectionTitle(l, row.ID, lang))
		state := t(row.StepKey())
		took := t("review.none")
		if row.Seconds > 0 {
			took = i18n.Duration(lang, row.Seconds)
		}
		first := firstTime(row, t)
		mark := ""
		if row.Again {
			mark = "▸ "
		}
		fmt.Fprintf(&b, "| %s%s | %s | %d | %d | %s | %s |\n", mark, title, state, row.Attempts, row.Hints, took, first)
	}
	b.WriteString("\n" + drillsLine(r, t) + "\n")
	b.WriteString(earlierRounds(r, t))
	return b.String()
}

// drillsLine is the drill record, or that none was done yet (not "0 of 0": zh r14 L26, ko L16).
func drillsLine(r progress.Review, t func(string, ...string) string) string {
	if r.Drills.Done == 0 {
		return t("review.drills_none")
	}
	return t("review.drills", "done", fmt.Sprint(r.Drills.Done), "right", fmt.Sprint(r.Drills.Right))
}

// firstTime is the "passed first time" cell: yes or no for a passed section (checked by hand or
// after a run: zh r14 L26, ja L30), none for one not passed — or passing now with no pass on
// record (files written and never checked): no failure is known, so none is claimed (zh r16 M4).
func firstTime(row progress.ReviewRow, t func(string, ...string) string) string {
	switch {
	case row.Status != check.Pass || !row.Recorded:
		return t("review.none")
	case row.FirstTime:
		return t("review.yes")
	}
	return t("review.no")
}

// ReviewList is the review for the tutorial's page: one list item a section — its number and
// title, then on a line of their own its state and counts as words — so that nothing is cut to a table cell's width and
// every line is set by the same line breaker as the page (a table stays for the exported report).
func ReviewList(r progress.Review, l *steps.Lesson, lang i18n.Lang) string {
	t := i18n.Sayer(lang)
	ids := l.SectionIDs()
	var b strings.Builder
	b.WriteString("# " + t("review.title") + "\n\n" + t("review.again") + "\n\n")
	for _, row := range r.Sections {
		title := sectionTitle(l, row.ID, lang)
		// The state in words, marked by its glyph as the page list marks it ("not yet" is ○, no
		// longer the separator's "·": zh B6, zh r20 L10).
		status := row.Status
		if status == "" {
			status = check.Missing
		}
		state := Glyphs[status] + "\u00a0" + t(row.StepKey())
		took := t("review.none")
		if row.Seconds > 0 {
			// One unit on the line, as a number goes with its counter ("1 分 0 秒").
			took = strings.ReplaceAll(i18n.Duration(lang, row.Seconds), " ", "\u00a0")
		}
		mark := ""
		if row.Again {
			mark = "▸ "
		}
		n := slices.Index(ids, row.ID) + 1
		// The title on its line, the facts on the next (a hard break), each fact kept whole.
		// Each fact as "label: value" in the language (「一次通过：是」, 「실패 없이 통과: 예」: ko r8
		// KO-07, zh ZH-08, ja L13), kept whole.
		fact := func(label, value string) string { return whole(t("review.fact", "label", t(label), "value", value)) }
		fmt.Fprintf(&b, "- %s%d.\u00a0%s\\\n  %s · %s · %s · %s · %s\n", mark, n, title, whole(state),
			fact("ui.finish.attempts", fmt.Sprint(row.Attempts)), fact("ui.finish.hints", fmt.Sprint(row.Hints)), fact("review.time", took), fact("review.first_time", firstTime(row, t)))
	}
	b.WriteString("\n" + drillsLine(r, t) + "\n")
	b.WriteString(earlierRounds(r, t))
	return b.String()
}

// earlierRounds is a line for each earlier round: when it ended, how many sections had passed.
func earlierRounds(r progress.Review, t func(string, ...string) string) string {
	if len(r.Earlier) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n## " + t("review.earlier") + "\n\n")
	for _, e := range r.Earlier {
		b.WriteString("- " + t("review.earlier_round", "ended", e.Ended.Local().Format("2006-01-02 15:04"), "passed", fmt.Sprint(e.Passed), "total", fmt.Sprint(e.Total)) + "\n")
	}
	return b.String()
}

// sectionTitle is a section's title in lang, or its id for a section this lesson no longer has
// (a round recorded by an older lesson).
func sectionTitle(l *steps.Lesson, id string, lang i18n.Lang) string {
	if sec, ok := l.Section(id); ok {
		return sec.Title[lang]
	}
	return id
}

// whole joins a fact's words with no-break spaces: a label of several words (통과까지 걸린 시간)
// is one fact, broken before or after, never inside.
// Chinese and Japanese words have no spaces to join, so their characters are joined by word
// joiners (「通过用⏎时」 was a break: zh r8), which RenderMarkdown takes out after setting.
func whole(s string) string {
	runes := []rune(strings.ReplaceAll(s, " ", "\u00a0"))
	var b strings.Builder
	for i, r := range runes {
		if i > 0 && r != '\u00a0' && runes[i-1] != '\u00a0' {
			b.WriteRune(wordJoiner)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// wordJoiner (U+2060) forbids a break on either side (UAX #14 LB11) and takes no cell.
const wordJoiner = '\u2060'

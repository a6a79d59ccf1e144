package render

import (
	"fmt"
	"strconv"
	"strings"

	"ist2-boot/steps/drill"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
)

// DrillPage is the drill page as markdown in lang: what the operator sees, the question of the
// round's stage, and the verdicts so far with their evidence; file is where the fix is made,
// record the drill record (nil: not shown).
func DrillPage(r *drill.Round, lang i18n.Lang, file string, record *progress.DrillRecord) string {
	t := i18n.Sayer(lang)
	var b strings.Builder
	b.WriteString("# " + t("drill.title") + "\n\n")
	d := r.Drill
	b.WriteString(t("drill.intro", "seed", fmt.Sprint(d.Seed)) + "\n\n")
	if first, rest, empty := SeenSplit(d); empty {
		b.WriteString("```\n" + first + "```\n\n" + t("drill.state_none") + "\n\n```\n" + rest + "```\n\n")
	} else {
		b.WriteString("```\n" + first + "```\n\n")
	}
	verdict := func(v drill.Verdict) {
		word := VerdictWord(v, lang)
		// The verdict's word stands alone: the explanation after it is a paragraph the line
		// breaker sets (emphasis inside a paragraph is set by glamour alone).
		b.WriteString("**" + word + "**\n\n" + v.Why.In(lang) + "\n\n")
	}
	if r.Stage == drill.AskClass {
		b.WriteString(t("drill.ask_class_keys") + "\n\n")
		for i, c := range drill.ClassChoices { // as many as the drills have classes
			fmt.Fprintf(&b, "%d. %s\n", i+1, t(c.Key))
		}
		return b.String()
	}
	verdict(r.Class)
	if lines := d.AdminLines(); lines != nil {
		b.WriteString("```\n$ " + d.Evidence.AdminCmd + "\n" + strings.Join(lines, "\n") + "\n```\n\n")
	} else { // no answer: our note of why is prose, set as the page's, not program output (ja M16)
		b.WriteString("```\n$ " + d.Evidence.AdminCmd + "\n```\n\n" + t("drill.admin_none") + "\n\n")
	}
	if d.Evidence.Started {
		b.WriteString(t("drill.here") + "\n\n```\n" + strings.Join(d.HereLines(), "\n") + "\n```\n\n")
	}
	if r.Stage == drill.AskField {
		ask := "drill.ask_field_keys"
		if d.Class == drill.ConfigRejected { // the where of a refused push is its types
			ask = "drill.ask_pushed_keys"
		}
		b.WriteString(t(ask) + "\n\n")
		for i, choice := range d.FieldChoices() {
			fmt.Fprintf(&b, "%d. `%s`", i+1, choice)
			if d.Class == drill.ConfigRejected && strings.Contains(choice, "+") { // said in words too (ja r11 L9)
				b.WriteString(t("drill.both_choice"))
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	verdict(r.Field)
	if r.Stage == drill.Done { // nothing in the file to fix: the next drill is all there is
		sep := " " // Chinese and Japanese set no space after a full stop (zh r7 L8)
		if lang != i18n.Korean {
			sep = ""
		}
		b.WriteString(t("drill.fix_none") + sep + t("drill.next_keys") + "\n\n")
	} else {
		b.WriteString(t("drill.ask_fix_keys", "file", file) + "\n\n")
	}
	if r.Fix != nil {
		verdict(*r.Fix)
	}
	if record != nil {
		b.WriteString(t("drill.score", "right", fmt.Sprint(record.Right), "done", fmt.Sprint(record.Done)) + "\n")
	}
	return b.String()
}

// SeenSplit is the transcript in two where the Last State command printed nothing (a proxy never
// restarted: kubectl describe has no Last State): up to that command, and the rest, so that a note
// saying so stands right under it (zh r20 L23). empty says it did; otherwise rest is "".
func SeenSplit(d *drill.Drill) (first, rest string, empty bool) {
	var b strings.Builder
	for i, s := range d.Seen() {
		if i > 0 && !(empty && b.Len() == 0) {
			b.WriteString("\n")
		}
		b.WriteString("$ " + s.Cmd + "\n")
		for _, l := range s.Lines {
			b.WriteString(l + "\n")
		}
		if s.Cmd == d.Evidence.StateCmd && len(s.Lines) == 0 && !empty {
			first, empty = b.String(), true
			b.Reset()
		}
	}
	if !empty {
		return b.String(), "", false
	}
	return first, b.String(), true
}

// VerdictMarks start every verdict's line (VerdictWord), and no other line of the drill page.
var VerdictMarks = []string{"✓ ", "✗ "}

// VerdictWord is a drill verdict's lead: right or wrong for an answer, fixed or not yet for the
// learner's fixed file (ja M7: a file is not 「不正解」, it is not fixed yet).
func VerdictWord(v drill.Verdict, lang i18n.Lang) string {
	switch {
	case v.Fix && v.Right:
		return "✓ " + i18n.T(lang, "drill.fixed", nil)
	case v.Fix:
		return "✗ " + i18n.T(lang, "drill.not_fixed", nil)
	case v.Right:
		return "✓ " + i18n.T(lang, "drill.right", nil)
	}
	if v.Answer != "" {
		// Two sentences as the language runs them on: a space after Korean's full stop, none after 。 (ja r8 M4).
		// The class by its number and its name, as the key help names it, not the question's
		// whole choice in quotes (ko r23 L14).
		number := 0
		for i, c := range drill.ClassChoices {
			if c.Key == v.Answer {
				number = i + 1
			}
		}
		right := i18n.T(lang, "drill.right_answer", map[string]string{"number": strconv.Itoa(number), "answer": i18n.T(lang, v.Answer+".short", nil)})
		return "✗ " + i18n.T(lang, "sentences.two", map[string]string{"a": i18n.T(lang, "drill.wrong", nil), "b": right})
	}
	return "✗ " + i18n.T(lang, "drill.wrong", nil)
}

package render

import (
	"strings"

	xansi "github.com/charmbracelet/x/ansi"
)

// Wrap sets text into lines of at most width display cells, breaking where a typesetter would:
// between Chinese and Japanese characters (UAX #14, with kinsoku), at spaces in Korean and Latin
// text, never inside a path, flag, URL, version or `code span` that fits on a line (the span's
// backticks are not printed). "\n" ends a paragraph.
// Styles (SGR sequences) carry over a break: each line is closed and the next reopened.
func Wrap(text string, width int) string {
	return strings.Join(WrapLines(text, width, 0), "\n")
}

// WrapLines is Wrap with a hanging indent: the lines a paragraph continues on start hang cells
// further right (under the text after a bullet or a state glyph), and are that much narrower.
func WrapLines(text string, width, hang int) []string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		out = append(out, wrapParagraph(para, width, hang, false)...)
	}
	return out
}

// WrapTitle is WrapLines for a title (a step's, in check's and run's heads): it breaks between
// phrases where one fits, as a page's heading does — 「突き⏎合わせる」 parted a word (ja r25 M2).
func WrapTitle(text string, width int) []string { return wrapParagraph(text, width, 0, true) }

func wrapParagraph(para string, width, hang int, phrased bool) []string {
	para, us := spanUnits(para)
	if xansi.StringWidth(para) <= width || len(us) == 0 {
		return []string{strings.ReplaceAll(para, nbsp, " ")}
	}
	if hang > width/2 {
		hang = 0
	}
	pad := strings.Repeat(" ", hang)
	var out []string
	active := "" // the SGR sequences in force where a line starts
	tiers := breakTiers(us)
	longParticleWords(us, tiers, width-hang)
	if phrased {
		keepPhrases(us, tiers)
	}
	// A paragraph's last line is never a character or two alone (zh M8: 「…的结⏎果：」).
	set := balanced(us, tiers, fill(us, tiers, width, width-hang, 0), room{first: width, rest: width - hang})
	for n, r := range set {
		// A no-break space only kept words together (「받은\u00a0설정\u00a0거절」): a reader copies a space.
		line := active + strings.ReplaceAll(strings.TrimRight(emit(us[r[0]:r[1]]), " "), nbsp, " ")
		if n > 0 {
			line = pad + line
		}
		for _, u := range us[r[0]:r[1]] {
			active = sgrAfter(active, u.pre+u.post)
		}
		if active != "" {
			line += "\x1b[m"
		}
		out = append(out, line)
	}
	return out
}

// Unmarked is s as it prints where nothing sets it: its code spans without their backticks.
func Unmarked(s string) string {
	if strings.Count(s, "`") < 2 {
		return s
	}
	var b strings.Builder
	for i, para := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		plain, _ := spanUnits(para)
		b.WriteString(plain)
	}
	return b.String()
}

// spanUnits reads para's code spans as Markdown writes them (`go install …`): a command in a
// message is one word, broken only if it is longer than a line, and then at its spaces before
// its slashes (zh B3, ja T5: 「用 brew⏎install envoy」). The backticks are not printed; para is
// returned without them. A lone backtick is text.
func spanUnits(para string) (string, []unit) {
	parts := strings.Split(para, "`")
	if len(parts) < 3 {
		return para, textUnits(para)
	}
	if len(parts)%2 == 0 { // an odd backtick out: the last one is text
		parts[len(parts)-2] += "`" + parts[len(parts)-1]
		parts = parts[:len(parts)-1]
	}
	var us []unit
	for i, part := range parts {
		pu := textUnits(part)
		for j := range pu {
			pu[j].code = i%2 == 1 && !pu[j].space
			if i%2 == 1 && pu[j].space {
				pu[j].space, pu[j].code = false, true // a space inside a command: not a break between words
			}
		}
		us = append(us, pu...)
	}
	return strings.Join(parts, ""), us
}

// sgrAfter is the styling in force after seqs, starting from active: a reset clears it, any
// other SGR sequence adds to it.
func sgrAfter(active, seqs string) string {
	state := byte(0)
	for len(seqs) > 0 {
		seq, _, n, newState := xansi.DecodeSequence(seqs, state, nil)
		state, seqs = newState, seqs[n:]
		if !strings.HasPrefix(seq, "\x1b[") || !strings.HasSuffix(seq, "m") {
			continue
		}
		if seq == "\x1b[m" || seq == "\x1b[0m" {
			active = ""
		} else {
			active += seq
		}
	}
	return active
}

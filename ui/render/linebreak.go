package render

import (
	"strings"

	xansi "github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
)

// unit is one grapheme cluster to be set, with the bytes written for it: pre (zero-width bytes
// before it: escape sequences, a code span's opening backticks), the grapheme itself, and post
// (its closing backticks). A break at a space drops the space but never its pre or post.
type unit struct {
	pre, text, post string
	w               int
	space           bool // an ASCII or ideographic space: where most breaks are, dropped at one
	code            bool // inside an inline code span: one word, never broken if it fits
	hard            bool // a hard line break (Markdown's backslash at a line's end): the line ends here
}

// tier is how good a break before a unit is. Lines break at the last fitting break of the best
// tier: a line-breaking opportunity if one fits, else (in a path, flag or code span longer than
// the line) after a slash, else after other punctuation, else anywhere that breaks no kinsoku
// rule, else anywhere.
type tier uint8

const (
	tierBreak    tier = iota // an opportunity: UAX #14 with the rules below on top
	tierKana                 // inside a katakana word, two letters each side: taken over the word's start if that loses more than kanaSlack
	tierPhrase               // an opportunity inside a phrase, where phrases are kept (headings)
	tierGlue                 // a space or a Korean word boundary kept (a particle, a counter): broken only before a word is cut
	tierPipe                 // inside a code span longer than a line: before a pipe ("node ⏎| {id…}"),
	tierSpace                // else after its space (a command's words: "go install ⏎istio.io/…"),
	tierSlash                // else after '/' or a code span's space,
	tierPunct                // else after '.', '-', '=', ',', '&' or '@' (between a name's parts),
	tierUnder                // else after '_' (inside a name: ads_⏎config only if nothing else fits),
	tierParticle             // else before a Korean particle written on to code (path⏎에 only if the path has no break),
	tierSafe                 // inside it, anywhere no kinsoku rule forbids
	tierAny                  // anywhere between graphemes
	tierNone                 // not a boundary (the first unit)
)

// breakTiers gives, for each unit, the tier of a break before it.
func breakTiers(us []unit) []tier {
	tiers := make([]tier, len(us))
	if len(us) == 0 {
		return tiers
	}
	var text strings.Builder
	for _, u := range us {
		text.WriteString(u.text)
	}
	// UAX #14 opportunities, one per unit boundary (units are grapheme clusters of text).
	canBreak := make([]bool, len(us)+1)
	state, rest, i := -1, text.String(), 0
	for len(rest) > 0 && i < len(us) {
		var cluster string
		var boundaries int
		cluster, rest, boundaries, state = uniseg.StepString(rest, state)
		i += countUnits(us[i:], cluster)
		canBreak[i] = boundaries&uniseg.MaskLine != uniseg.LineDontBreak
	}
	tiers[0] = tierNone
	for i := 1; i < len(us); i++ {
		prev, next := us[i-1], us[i]
		switch {
		case kinsokuForbids(prev, next):
			tiers[i] = tierAny
		case prev.code && next.code, wordChar(prev) && wordChar(next):
			// Inside one code span, path, flag, URL or version: broken only if it is longer
			// than a line, and then at a space or a slash before other punctuation.
			tiers[i] = insideWord(prev, next)
			if afterCommandEnd(us, i) {
				tiers[i] = tierPipe // a shell line parts between its commands: "…; ⏎echo", "|| ⏎rc=$?" (zh r7 M13)
			}
		case wordChar(prev) && isHangul(next.text):
			// One Korean word (어절) of code or Latin and Hangul — `pilot-agent`가, Envoy를:
			// a particle never starts a line alone (Korean breaks between words, at spaces);
			// longParticleWords lowers it where the code is longer than a line.
			tiers[i] = tierGlue
		case isHangul(prev.text) && (next.text == "(" || next.text == "（"):
			// 「입니다(드릴」 is one 어절: a parenthesis holds on to the word before it (ko r23 M2).
			tiers[i] = tierSafe
		case canBreak[i] || prev.space && !next.space || wideMeetsWord(prev, next) || quoteInCJK(us, i):
			// After a space, and between Chinese or Japanese and a Latin word or code span, a
			// word may start a line: UAX #14 keeps "/path" and "--flag" to what precedes them
			// (LB13, LB21), which in this lesson is a space or a CJK character.
			tiers[i] = tierBreak
			if glued(us, i) {
				tiers[i] = tierGlue
			}
			if isHangul(prev.text) && isHangul(next.text) {
				tiers[i] = tierSafe // between a word's letters: only where the word has no better place (ko r7 M10)
			}
		case isHangul(prev.text) && isHangul(next.text):
			tiers[i] = tierSafe // inside a Korean word: only if the word is longer than a line, and no bracket or code part gives a place
		default:
			tiers[i] = tierSafe
		}
	}
	keepLabels(us, tiers)
	keepShortQuotes(us, tiers)
	keepShortParens(us, tiers)
	proseSpans(us, tiers)
	katakanaWords(us, tiers)
	return tiers
}

// longParticleWords: where a Korean word of code and a particle written on to it is wider than a
// line (width cells), the code is broken at its own slashes and dots before the particle is
// parted from it (a particle alone at a line's start: ko review H2); where it fits, the whole
// 어절 moves to the next line instead.
func longParticleWords(us []unit, tiers []tier, width int) {
	for i := 1; i < len(us); i++ {
		if tiers[i] != tierGlue || !wordChar(us[i-1]) || !isHangul(us[i].text) {
			continue
		}
		word := 0 // the whole 어절, from the space before it to the space after it
		for j := i - 1; j >= 0 && !us[j].space; j-- {
			word += us[j].w
		}
		for j := i; j < len(us) && !us[j].space; j++ {
			word += us[j].w
		}
		if word > width {
			tiers[i] = tierParticle
		}
	}
}

// insideWord is the tier of a break inside a word between prev and next.
func insideWord(prev, next unit) tier {
	switch {
	case next.code && next.text == " ":
		return tierSafe // a line does not start with a code span's space
	case prev.text == " " && next.text == "|":
		return tierPipe
	case prev.text == " " && prev.code:
		return tierSpace
	case prev.text == "/" || prev.text == " ":
		return tierSlash
	case prev.text == "_":
		return tierUnder
	case len(prev.text) == 1 && strings.ContainsAny(prev.text, "-.=,&@|:;"):
		return tierPunct
	}
	return tierSafe
}

// countUnits is how many units the grapheme cluster spans (one, unless split otherwise).
func countUnits(us []unit, cluster string) int {
	n, got := 0, 0
	for n < len(us) && got < len(cluster) {
		got += len(us[n].text)
		n++
	}
	return max(n, 1)
}

// fill sets the units into lines: the first at most first cells wide, the others at most rest
// (plus overhang for a hanging comma or full stop), each breaking at the last fitting break of
// the best tier (greedy, as a typesetter sets CJK: no line ends while the next character would
// still fit). It returns each line's [start, end).
func fill(us []unit, tiers []tier, first, rest, overhang int) [][2]int {
	var lines [][2]int
	start, limit := skipSpaces(us, 0), max(first, 1)
	for start < len(us) {
		var best [tierNone]int
		for t := range best {
			best[t] = -1
		}
		w, trailing := 0, 0 // width of us[start:i], and of its trailing spaces
		i := start
		for ; i < len(us); i++ {
			if us[i].hard && i > start {
				break
			}
			fits := w-trailing <= limit || i > start && hangs(us[i-1], overhang) && w-trailing-us[i-1].w <= limit
			if i > start && fits && tiers[i] < tierNone {
				best[tiers[i]] = i
			}
			w += us[i].w
			if us[i].space {
				trailing += us[i].w
			} else {
				trailing = 0
			}
			if w-trailing > limit && !(hangs(us[i], overhang) && w-trailing-us[i].w <= limit) {
				break
			}
		}
		if i == len(us) {
			lines = append(lines, [2]int{start, len(us)})
			break
		}
		if us[i].hard && w-trailing <= limit {
			lines = append(lines, [2]int{start, i})
			start, limit = skipSpaces(us, i+1), max(rest, 1)
			continue
		}
		end := best[tierBreak]
		if kana := best[tierKana]; kana > start && (end <= start || kana > end && width(us[end:kana]) > kanaSlack) {
			end = kana // a katakana word parted where it leaves two letters each side (ja r14 M8)
		}
		for t := tierPhrase; end <= start && t <= tierGlue; t++ {
			end = best[t]
		}
		if end <= start {
			end = cutInside(us, tiers, best, start, limit)
		} else if cut := cutInside(us, tiers, best, start, limit); wordWidth(us, tiers, end, overhang) > rest && cut > end && (width(us[end:cut]) >= minPiece || tiers[cut] == tierPipe) &&
			!(tiers[cut] > tierSpace && firstPieceWidth(us, tiers, end) <= rest) && tiers[cut] <= tierSlash &&
			!(tiers[cut] != tierPipe && pipeFits(us, tiers, end, cut, rest)) {
			// What follows the break is longer than any line and will be cut anyway: fill this
			// line up to a cut inside it, if that puts a fair piece of it here — unless the cut
			// would part a name at a dot while the word, started on the next line, parts at its
			// pipe or between its commands ("select(.projected.⏎sources[]": zh r7 M13). A shell
			// line's first command, however short, ends this line ("…：rc=0; ⏎envoy …": zh r14 M1).
			// A name cut only at its dots starts a line of its own, so the reader finds it whole
			// from its first part ("clusters[0].⏎name" after prose: ko r16 M7). Nor is a clause
			// cut whose whole, up to its "; ", fits the next line ("cds updates: 0 successful,⏎1
			// rejected;": zh r20 M2).
			end = cut
		}
		for t := tierUnder; end <= start && t < tierNone; t++ {
			end = best[t]
		}
		if end < 0 { // one grapheme wider than the line: it goes alone
			end = max(i, start+1)
		}
		lines = append(lines, [2]int{start, end})
		start, limit = skipSpaces(us, end), max(rest, 1)
	}
	return lines
}

// hangRoom is how far past a line's end a comma or full stop may hang (burasagari): a Chinese or
// Japanese line that would otherwise break before its closing 、 or 。 keeps it, hanging one
// character into the margin, rather than move a character down (oikomi is what the line did).
const hangRoom = 2

// hangs: u may hang past the line's end, overhang cells being free there.
func hangs(u unit, overhang int) bool {
	return u.text != "" && u.w <= overhang && strings.Contains("、。，．", u.text)
}

// minPiece is the least of a long word worth starting at the end of a line.
const minPiece = 8

// cutInside is where a word longer than a line is cut: before its last fitting pipe if that fills
// half the line or the command after it fits a line whole, else after a command's last fitting
// space if the rest of it fits a line, else after its last fitting slash or space, unless that
// leaves more than half the line empty and other punctuation fits further on.
func cutInside(us []unit, tiers []tier, best [tierNone]int, start, limit int) int {
	if pipe := best[tierPipe]; pipe > start && (width(us[start:pipe]) >= limit/2 || commandWidth(us, tiers, pipe) <= limit) {
		return pipe
	}
	if space := best[tierSpace]; space > start && spanWidth(us, space) <= limit {
		return space // what follows the command's last fitting space fits a line whole
	}
	slash, punct := max(best[tierSlash], best[tierPipe], best[tierSpace]), best[tierPunct]
	if slash > start && (punct <= slash || width(us[start:slash]) >= limit/2) {
		return slash
	}
	return max(slash, punct)
}

// pipeFits: the code span started at end has, after cut, a pipe-tier break ("; ", " | "), and
// the span from its start up to there fits a line of rest cells.
func pipeFits(us []unit, tiers []tier, end, cut, rest int) bool {
	start := skipSpaces(us, end)
	for j := cut + 1; j < len(us) && us[j].code; j++ {
		if tiers[j] == tierPipe {
			return width(us[start:j]) <= rest
		}
	}
	return false
}

// commandWidth is the width from i to the code span's next pipe or command break, or its end: one
// shell command, which a line should hold whole ("> 05-typo.txt ⏎2>&1" parts a redirection).
func commandWidth(us []unit, tiers []tier, i int) int {
	w := us[i].w
	for j := i + 1; j < len(us) && us[j].code && tiers[j] != tierPipe; j++ {
		w += us[j].w
	}
	return w
}

// spanWidth is the width of the code span from i to its end.
func spanWidth(us []unit, i int) int {
	w := 0
	for ; i < len(us) && us[i].code; i++ {
		w += us[i].w
	}
	return w
}

func width(us []unit) int {
	w := 0
	for _, u := range us {
		w += u.w
	}
	return w
}

// wordWidth is the width from i to the next space or break of tierGlue or better (or the end),
// less a comma or full stop that may hang past the line's end.
func wordWidth(us []unit, tiers []tier, i, overhang int) int {
	w, j := us[i].w, i+1
	for ; j < len(us) && tiers[j] > tierGlue && !us[j].space; j++ {
		w += us[j].w
	}
	if hangs(us[j-1], overhang) {
		w -= us[j-1].w
	}
	return w
}

// firstPieceWidth is the width from i to the word's first cut of tierSpace or better (a pipe, a
// command's space), or to its end: what a line that starts with the word must hold.
func firstPieceWidth(us []unit, tiers []tier, i int) int {
	w := us[i].w
	for j := i + 1; j < len(us) && tiers[j] > tierSpace && !us[j].space; j++ {
		w += us[j].w
	}
	return w
}

// afterCommandEnd: the break before us[i] follows a space that follows a command's end in a
// shell line (";", "&&", "||").
func afterCommandEnd(us []unit, i int) bool {
	if i < 2 || us[i-1].text != " " || !us[i-2].code {
		return false
	}
	if us[i-2].text == ";" {
		return true
	}
	return i >= 3 && (us[i-3].text+us[i-2].text == "&&" || us[i-3].text+us[i-2].text == "||")
}

func skipSpaces(us []unit, i int) int {
	for i < len(us) && us[i].space && us[i].pre == "" && us[i].post == "" {
		i++
	}
	return i
}

// emit writes one line's units: the spaces it ends with are dropped (their pre and post kept).
func emit(us []unit) string {
	end := len(us)
	for end > 0 && us[end-1].space {
		end--
	}
	var b strings.Builder
	for i, u := range us {
		b.WriteString(u.pre)
		if i < end {
			b.WriteString(u.text)
		}
		b.WriteString(u.post)
	}
	return b.String()
}

// textUnits splits text (which may carry escape sequences) into units; the sequences ride, zero
// wide, before the grapheme that follows them.
func textUnits(s string) []unit {
	var us []unit
	var pre strings.Builder
	state := byte(0)
	for len(s) > 0 {
		seq, width, n, newState := xansi.DecodeSequence(s, state, nil)
		state = newState
		if len(seq) > 2 && seq[0] == 0x1b && seq[1] != '[' && seq[1] != ']' {
			// A string sequence (DCS, SOS, PM, APC) would swallow the text after it, which
			// terminals and cell counting show: only its introducer is a sequence here.
			seq, width, n, state = seq[:2], 0, 2, 0
		}
		s = s[n:]
		switch {
		case seq == "\t":
			us = append(us, unit{pre: pre.String(), text: "    ", w: 4, space: true})
		case seq[0] == 0x1b || (len(seq) == 1 && (seq[0] < 0x20 || seq[0] == 0x7f)):
			pre.WriteString(seq)
			continue
		default:
			us = append(us, unit{pre: pre.String(), text: seq, w: width, space: seq == " " || seq == "\u3000"})
		}
		pre.Reset()
	}
	if pre.Len() > 0 {
		if len(us) > 0 {
			us[len(us)-1].post += pre.String()
		} else {
			us = append(us, unit{pre: pre.String()})
		}
	}
	return us
}

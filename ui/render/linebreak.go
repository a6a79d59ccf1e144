package render

import (
	"strings"
	"unicode"

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
}

// tier is how good a break before a unit is. Lines break at the last fitting break of the best
// tier: a line-breaking opportunity if one fits, else (in a path, flag or code span longer than
// the line) after a slash, else after other punctuation, else anywhere that breaks no kinsoku
// rule, else anywhere.
type tier uint8

const (
	tierBreak tier = iota // an opportunity: UAX #14 with the rules below on top
	tierGlue              // a space or a Korean word boundary kept (a particle, a counter): broken only before a word is cut
	tierPipe              // inside a code span longer than a line: before a pipe ("node ⏎| {id…}"),
	tierSlash             // else after '/' or a code span's space,
	tierPunct             // else after '.', '-', '=', ',', '&' or '@' (between a name's parts),
	tierUnder             // else after '_' (inside a name: ads_⏎config only if nothing else fits),
	tierSafe              // inside it, anywhere no kinsoku rule forbids
	tierAny               // anywhere between graphemes
	tierNone              // not a boundary (the first unit)
)

// noStart are the characters a line must not start with (kinsoku shori, 避头尾): closing brackets
// and quotes, sentence and clause marks, small kana, the prolonged sound mark and iteration marks.
const noStart = ")]}>,.:;!?%" + "）］｝〕〉》」』】〙〗〟’”｠»、。，．：；！？・…‥ー―～" +
	"ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ々〻ゝゞヽヾ"

// noEnd are the characters a line must not end with: opening brackets and quotes.
const noEnd = "([{<" + "（［｛〔〈《「『【〘〖〝‘“｟«"

// particles are the Korean particles that follow a code span or a Latin word after a space, as
// this lesson writes them (`Envoy` 를): the space before one is not a break, so a particle never
// starts a line alone.
var particles = []string{"에서", "으로", "까지", "부터", "처럼", "보다", "에게", "이라", "라는", "이나", "이다", "입니",
	"과", "와", "가", "이", "은", "는", "을", "를", "의", "에", "로", "도", "만", "나", "란", "랑"}

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
		case canBreak[i] || prev.space && !next.space || wideMeetsWord(prev, next) || quoteInCJK(us, i):
			// After a space, and between Chinese or Japanese and a Latin word or code span, a
			// word may start a line: UAX #14 keeps "/path" and "--flag" to what precedes them
			// (LB13, LB21), which in this lesson is a space or a CJK character.
			tiers[i] = tierBreak
			if glued(us, i) {
				tiers[i] = tierGlue
			}
		case isHangul(prev.text) && isHangul(next.text):
			tiers[i] = tierGlue // inside a Korean word: only if the word is longer than a line
		default:
			tiers[i] = tierSafe
		}
	}
	keepLabels(us, tiers)
	return tiers
}

// keepLabels keeps a label whole where it is kept with its number ("ステップ 3", "步骤 3", "約 30",
// "チェック回数\u00a02"): the breaks inside the label's word are glue too, so the line breaks
// before the label rather than inside it.
func keepLabels(us []unit, tiers []tier) {
	for i := 1; i < len(us); i++ {
		numbered := tiers[i] == tierGlue && us[i-1].space && isDigits(us[i].text)
		if !numbered && us[i].text != "\u00a0" {
			continue
		}
		b := i - 1
		for b > 0 && us[b].space {
			b--
		}
		if !labelChar(us[b]) {
			continue
		}
		k, kana := b, isKatakana(us[b])
		for k > 0 && labelChar(us[k-1]) && b-k+1 < maxLabel {
			k--
			kana = kana || isKatakana(us[k])
		}
		if !kana { // a Han label is a word or two (約, 第, 步骤): the text before it is prose
			k = max(k, b-maxHanLabel+1)
		}
		for j := k + 1; j <= b; j++ {
			if tiers[j] == tierBreak {
				tiers[j] = tierGlue
			}
		}
	}
}

// counted: the number starting at us[i] counts something — it is followed by a space, a CJK
// character or the end, not by ')' or '.' (a list's "2)" or "2." after a word is not its number).
func counted(us []unit, i int) bool {
	for i < len(us) && isDigits(us[i].text) {
		i++
	}
	return i == len(us) || us[i].space || isCJK(us[i].text) || us[i].text == "・"
}

// maxLabel is the longest label kept whole with its number (ステップ, トラストドメイン);
// maxHanLabel the longest one in Han characters (步骤, 約).
const (
	maxLabel    = 8
	maxHanLabel = 2
)

func isKatakana(u unit) bool {
	r, ok := firstRune(u.text)
	return ok && (unicode.Is(unicode.Katakana, r) || r == 'ー')
}

// labelChar: a character of a label word — Katakana (and its prolonged sound mark) or Han.
func labelChar(u unit) bool {
	r, ok := firstRune(u.text)
	return ok && !u.code && (unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Han, r) || r == 'ー')
}

// insideWord is the tier of a break inside a word between prev and next.
func insideWord(prev, next unit) tier {
	switch {
	case next.code && next.text == " ":
		return tierSafe // a line does not start with a code span's space
	case prev.text == " " && next.text == "|":
		return tierPipe
	case prev.text == "/" || prev.text == " ":
		return tierSlash
	case prev.text == "_":
		return tierUnder
	case len(prev.text) == 1 && strings.ContainsAny(prev.text, "-.=,&@|:;"):
		return tierPunct
	}
	return tierSafe
}

// countUnits is how many units the grapheme cluster spans (one, unless the text was split
// differently when the units were made).
func countUnits(us []unit, cluster string) int {
	n, got := 0, 0
	for n < len(us) && got < len(cluster) {
		got += len(us[n].text)
		n++
	}
	return max(n, 1)
}

// kinsokuForbids: next may not start a line, or prev may not end one. ASCII punctuation that
// starts a token (after a space, or a code span's first: ":15021", ".trustDomain") may start a
// line; one that ends a token may end one.
func kinsokuForbids(prev, next unit) bool {
	first, _ := firstRune(next.text)
	last := lastRune(prev.text)
	tokenStarts := prev.space || next.code && !prev.code
	tokenEnds := next.space || prev.code && !next.code
	if strings.ContainsRune(noStart, first) && !(first <= unicode.MaxASCII && tokenStarts) {
		return true
	}
	return strings.ContainsRune(noEnd, last) && !(last <= unicode.MaxASCII && tokenEnds)
}

// glued: the rules this lesson's typesetting adds to UAX #14 — a break before us[i] that UAX #14
// allows but a reader would not want.
func glued(us []unit, i int) bool {
	prev, next := us[i-1], us[i]
	switch {
	case !prev.space && !next.space && (isHangul(prev.text) || isHangul(next.text)):
		// Korean breaks between words (at spaces), never inside one: keep-all.
		return true
	case !prev.space && next.text == "目" && strings.Contains("番行回個件枚度", prev.text):
		return true // "1 番目": an ordinal's counter is one word
	case prev.space:
		before := i - 1
		for before > 0 && us[before].space {
			before--
		}
		if us[before].space {
			return false
		}
		b := us[before]
		// "2 つ", "1 行": a number stays with its counter; "ステップ 3", "約 30", "第 4": a label
		// with its number.
		if isDigits(b.text) && isCJK(next.text) || labelChar(b) && isDigits(next.text) && counted(us, i) {
			return true
		}
		// "`Envoy` 를": a particle stays with the word before it.
		if !isHangul(b.text) && isHangul(next.text) && startsWithParticle(us[i:]) {
			return true
		}
	}
	return false
}

// quoteInCJK: a break after a closing or before an opening curly quote in Chinese or Japanese
// text. UAX #14 (LB19, as uniseg implements it) never breaks beside one, as quotes may open or
// close in Latin text; in CJK text ” closes and “ opens, as （ and ） do.
func quoteInCJK(us []unit, i int) bool {
	prev, next := us[i-1], us[i]
	cjk := func(j int) bool { return j >= 0 && j < len(us) && us[j].w == 2 && !isHangul(us[j].text) }
	return (prev.text == "”" || prev.text == "’") && cjk(i) || (next.text == "“" || next.text == "‘") && cjk(i-1)
}

// wideMeetsWord: a Chinese or Japanese character (or full-width mark) next to a Latin word or
// code span.
func wideMeetsWord(prev, next unit) bool {
	wide := func(u unit) bool { return u.w == 2 && !u.code && !isHangul(u.text) }
	return wide(prev) && wordChar(next) || wordChar(prev) && wide(next)
}

// wordChar: part of a run of printable ASCII (a path, flag, URL, version or Latin word) or of a
// code span.
func wordChar(u unit) bool {
	if u.space || u.text == "" {
		return false
	}
	if u.code {
		return true
	}
	for _, r := range u.text {
		if r > unicode.MaxASCII || !unicode.IsGraphic(r) || r == ' ' {
			return false
		}
	}
	return true
}

func startsWithParticle(us []unit) bool {
	var word strings.Builder
	for _, u := range us {
		if u.space || !isHangul(u.text) || word.Len() > 12 {
			break
		}
		word.WriteString(u.text)
	}
	for _, p := range particles {
		if strings.HasPrefix(word.String(), p) {
			return true
		}
	}
	return false
}

func firstRune(s string) (rune, bool) {
	for _, r := range s {
		return r, true
	}
	return 0, false
}

func lastRune(s string) rune {
	r := rune(0)
	for _, c := range s {
		r = c
	}
	return r
}

func isHangul(s string) bool {
	r, ok := firstRune(s)
	return ok && unicode.Is(unicode.Hangul, r)
}

func isCJK(s string) bool {
	r, ok := firstRune(s)
	return ok && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r))
}

func isDigits(s string) bool {
	r, ok := firstRune(s)
	return ok && r >= '0' && r <= '9'
}

// fill sets the units into lines: the first at most first cells wide, the others at most rest
// (plus overhang for a hanging comma or full stop),
// each breaking at the last fitting break of the best tier (greedy, as a typesetter sets CJK:
// no line ends while the next character would still fit). It returns each line's [start, end).
func fill(us []unit, tiers []tier, first, rest, overhang int) [][2]int {
	var lines [][2]int
	start, limit := skipSpaces(us, 0), max(first, 1)
	for start < len(us) {
		best := [tierNone]int{-1, -1, -1, -1, -1, -1, -1, -1}
		w, trailing := 0, 0 // width of us[start:i], and of its trailing spaces
		i := start
		for ; i < len(us); i++ {
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
		end := best[tierBreak]
		if end <= start {
			end = best[tierGlue]
		}
		if end <= start {
			end = cutInside(us, best, start, limit)
		} else if cut := cutInside(us, best, start, limit); wordWidth(us, tiers, end, overhang) > rest && cut > end && width(us[end:cut]) >= minPiece {
			// What follows the break is longer than any line and will be cut anyway: fill this
			// line up to a cut inside it, if that puts a fair piece of it here.
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
// half the line, else after its last fitting slash or space, unless that leaves more than half the
// line empty and other punctuation fits further on.
func cutInside(us []unit, best [tierNone]int, start, limit int) int {
	if pipe := best[tierPipe]; pipe > start && width(us[start:pipe]) >= limit/2 {
		return pipe
	}
	slash, punct := max(best[tierSlash], best[tierPipe]), best[tierPunct]
	if slash > start && (punct <= slash || width(us[start:slash]) >= limit/2) {
		return slash
	}
	return max(slash, punct)
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

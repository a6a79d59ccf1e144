package render

import (
	"regexp"
	"strings"
	"unicode"

	xansi "github.com/charmbracelet/x/ansi"
)

// headingTexts are source's headings and titles (a list item's first line, ended by a hard
// break), without their marks and backticks: set between phrases, and a title's last line ends
// where it is written to.
func headingTexts(source string) []string {
	var hs []string
	for _, l := range strings.Split(source, "\n") {
		if h := strings.TrimLeft(l, "#"); len(h) < len(l) && strings.HasPrefix(h, " ") {
			hs = append(hs, strings.TrimSpace(strings.ReplaceAll(h, "`", "")))
		} else if title, ok := strings.CutSuffix(l, "\\"); ok {
			hs = append(hs, unmark(strings.ReplaceAll(title, "`", "")))
		}
	}
	return hs
}

// unmark is a line without its heading or list marks and no-break spaces.
func unmark(s string) string {
	s = strings.TrimLeft(strings.ReplaceAll(s, "\u00a0", " "), "#-•▸ ")
	if n := strings.IndexByte(s, '.'); n > 0 && isDigits(s[:n]) {
		s = s[n+1:]
	}
	return strings.TrimSpace(s)
}

// inHeading: body and next are two lines of one of the headings or titles.
func inHeading(headings []string, body, next string) bool {
	body, next = unmark(body), unmark(next)
	for _, h := range headings {
		if strings.Contains(h, body+" "+next) || strings.Contains(h, body+next) {
			return true
		}
	}
	return false
}

// endsTitle: body is the last line of a title (a hard break follows it).
func endsTitle(titles []string, body string) bool {
	body = unmark(body)
	for _, h := range titles {
		if body != "" && strings.HasSuffix(h, body) {
			return true
		}
	}
	return false
}

// phraseBreak: a heading line ending in last may be followed by one starting next — at a space
// or punctuation, or after kana before a kanji, katakana or Latin word (Japanese phrases).
func phraseBreak(last rune, next string) bool {
	first, _ := firstRune(next)
	wide := func(r rune) bool { return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) }
	if !wide(last) || !wide(first) {
		return true
	}
	return unicode.Is(unicode.Hiragana, last) && !unicode.Is(unicode.Hiragana, first)
}

// onePhrase: line holds no break between phrases (a run of Han characters longer than a line).
func onePhrase(line string) bool {
	rs := []rune(line)
	for i := 1; i < len(rs); i++ {
		if phraseBreak(rs[i-1], string(rs[i:])) {
			return false
		}
	}
	return true
}

// joinedWidth is the width of the words no-break spaces join at the start of next, as the source
// (joined: its text with its no-break spaces) writes them: rendered, they are plain spaces.
func joinedWidth(joined []rune, next string) int {
	head := []rune(next)
	if len(head) > 12 {
		head = head[:12]
	}
	plain := strings.ReplaceAll(string(joined), "\u00a0", " ")
	at := strings.Index(plain, string(head))
	if at < 0 {
		return 0
	}
	start := len([]rune(plain[:at]))
	end := start
	for end < len(joined) && joined[end] != ' ' {
		end++
	}
	if !strings.ContainsRune(string(joined[start:end]), '\u00a0') {
		return 0
	}
	w := xansi.StringWidth(string(joined[start:end]))
	// A separator that may not start a line goes with the unit before it (" ·").
	if rest := string(joined[end:]); strings.HasPrefix(rest, " ·") {
		w += 2
	}
	return w
}

var asciiSpace = regexp.MustCompile(`[ \t\r\n]+`)

package i18n

import (
	"strings"
	"unicode"
)

// closeUpWide drops, in Chinese and Japanese text, the half-width space a template puts around a
// placeholder when the value on that side is itself Chinese or Japanese: the space is for a code
// value or a Latin word (「今は 15016」), not for a worded one (「今は なし」: ja r21 M1).
func closeUpWide(s string, values map[string]string) string {
	for k, v := range values {
		if v == "" {
			continue
		}
		ph := "{" + k + "}"
		first, last := []rune(v)[0], []rune(v)[len([]rune(v))-1]
		if wide(first) {
			s = closeBefore(s, ph)
		}
		if wide(last) {
			s = closeAfter(s, ph)
		}
	}
	return s
}

// closeBefore removes the space in "<wide> {ph}".
func closeBefore(s, ph string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, " "+ph)
		if i < 0 {
			return b.String() + s
		}
		before := []rune(s[:i])
		if len(before) > 0 && wide(before[len(before)-1]) {
			b.WriteString(s[:i])
		} else {
			b.WriteString(s[:i+1])
		}
		b.WriteString(ph)
		s = s[i+1+len(ph):]
	}
}

// closeAfter removes the space in "{ph} <wide>".
func closeAfter(s, ph string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, ph+" ")
		if i < 0 {
			return b.String() + s
		}
		after := []rune(s[i+len(ph)+1:])
		b.WriteString(s[:i+len(ph)])
		if len(after) == 0 || !wide(after[0]) {
			b.WriteString(" ")
		}
		s = s[i+len(ph)+1:]
	}
}

// wide: a Han, kana or full-width punctuation character, around which Chinese and Japanese set
// no space.
func wide(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) ||
		(r >= 0x3000 && r <= 0x303f) || (r >= 0xff01 && r <= 0xff60)
}

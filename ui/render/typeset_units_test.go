package render

import (
	"regexp"
	"strings"
	"unicode"

	xansi "github.com/charmbracelet/x/ansi"
)

// The units the typeset check knows the breaker keeps whole, and the blocks it balances.

// blockEnd is the last line of the block line i is in: the line before a blank line, a new item
// or a heading.
func blockEnd(lines []string, i int) int {
	for i+1 < len(lines) {
		next := strings.Trim(lines[i+1], " \u00a0")
		if next == "" || startsItem(next) {
			break
		}
		i++
	}
	return i
}

// runt: line i ends a block of two lines or more and is a Chinese, Japanese or Korean character
// or two (with the marks kinsoku keeps with them) alone.
func runt(lines []string, i int) bool {
	t := strings.Trim(lines[i], " \u00a0")
	if i == 0 || strings.Trim(lines[i-1], " \u00a0") == "" || startsItem(t) || blockEnd(lines, i) != i {
		return false
	}
	return t != "" && xansi.StringWidth(t) <= runtLast && (isCJK(t) || isHangul(t)) && canGive(lines[i-1])
}

// canGive: a line has a break a typesetter could move to give the next line more: between two
// Chinese or Japanese characters, or at a space between two Korean words (a line holding only a
// long name and what is glued to it has none).
func canGive(line string) bool {
	rs := []rune(strings.Trim(line, " \u00a0"))
	for i := 1; i < len(rs); i++ {
		cjk := func(r rune) bool { return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) }
		if cjk(rs[i-1]) && cjk(rs[i]) || i+1 < len(rs) && rs[i] == ' ' && unicode.Is(unicode.Hangul, rs[i-1]) && unicode.Is(unicode.Hangul, rs[i+1]) {
			return true
		}
	}
	return false
}

// balancedBlocks marks the line before a block's last one where that last line is short: the
// breaker may have ended it early to give the last line more than a character or two.
func balancedBlocks(lines []string) []bool {
	marks := make([]bool, len(lines))
	for i := 0; i < len(lines); i++ {
		end := blockEnd(lines, i)
		if last := strings.Trim(lines[end], " \u00a0"); end > i && xansi.StringWidth(last) <= 4*shortLast {
			marks[end-1] = true
		}
		i = end
	}
	return marks
}

// labelWithNumber is the width of a label kept whole with its number at the start of s
// ("ステップ 4 を…": "ステップ 4 を"), 0 when s does not start with one.
func labelWithNumber(s string) int {
	return max(xansi.StringWidth(labelNumber.FindString(s)), xansi.StringWidth(ordinal.FindString(s)))
}

var (
	// The unit after the number is one character, or one of the breaker's two-character units;
	// numbers listed with 、 go with the label (「ステップ 4、5」).
	labelNumber = regexp.MustCompile(`^(([\p{Katakana}\p{Han}ー]{0,7}[\p{Katakana}ー][\p{Katakana}\p{Han}ー]{0,7}|[第约約每毎共全各近]|[最至][长長大多少小高低]|大[约約]) \d+(、\d+)*( ?(` + strings.Join(twoCharUnits, "|") + `|[\p{Han}\p{Hiragana}\p{Katakana}・]))?|[\p{Katakana}\p{Han}\p{Hiragana}ー]{1,8}\x{a0}\S+)`)
	// ordinal is an ordinal's counter ("行目", kept whole) and the marks that may not start a line.
	ordinal = regexp.MustCompile(`^[番行回個件枚度]目[）」』】〕、。，．：；！？]*`)
)

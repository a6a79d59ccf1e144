package render

import (
	"strings"
	"testing"
	"unicode"
)

// kanaNeed is the room a line ending with prev must have had to take more of the katakana word
// next starts with (0: next does not start with one): a break inside the word leaves two letters
// each side and starts no line with a mark kinsoku forbids; a word started on the next line whole
// is parted only where keeping it whole lost more than kanaSlack cells.
func kanaNeed(prev, next string) int {
	tail := trailingKana(strings.TrimRight(prev, " \u00a0"))
	head := leadingKana(next)
	if len(head) == 0 {
		return 0
	}
	word := append(append([]rune{}, tail...), head...)
	for k := len(tail) + 1; k <= len(word)-2; k++ {
		if k < 2 || strings.ContainsRune(noStart, word[k]) {
			continue
		}
		moved := 2 * (k - len(tail)) // katakana are two cells wide
		if len(tail) == 0 && moved <= kanaSlack {
			continue // a word kept whole for so little is kept whole
		}
		return moved
	}
	whole := 2 * len(head) // and a mark that may not start a line goes with it
	if rest := []rune(next)[len(head):]; len(rest) > 0 && strings.ContainsRune(noStart, rest[0]) {
		whole += 2
	}
	return whole
}

func isKana(r rune) bool { return unicode.Is(unicode.Katakana, r) && r != '・' || r == 'ー' }

func leadingKana(s string) []rune {
	var run []rune
	for _, r := range s {
		if !isKana(r) {
			break
		}
		run = append(run, r)
	}
	return run
}

func trailingKana(s string) []rune {
	rs := []rune(s)
	i := len(rs)
	for i > 0 && isKana(rs[i-1]) {
		i--
	}
	return rs[i:]
}

// ja r14 M8: a katakana word is not parted to leave one letter alone (「バージョ⏎ン」, 「ディレクト⏎リ」),
// and is kept whole where that costs a few cells.
func TestKatakanaWordsKeepTwoLetters(t *testing.T) {
	for _, text := range []string{
		"最初のバージョンが ACK されたら、Envoy が拒否するバージョンを送る",
		"（デフォルト：作業ディレクトリの practice.yaml、なければ bootstrap.yaml）",
		"envoy がインストールされていません。ブートストラップファイルを確かめます。",
		"↑↓ で最初のステップに移る（ホイールも可）",
	} {
		for width := 10; width < 2*len([]rune(text)); width++ {
			lines := WrapLines(text, width, 0)
			for i := 0; i+1 < len(lines); i++ {
				tail, head := trailingKana(strings.TrimSpace(lines[i])), leadingKana(strings.TrimSpace(lines[i+1]))
				if len(tail) > 0 && len(head) > 0 && (len(tail) < 2 || len(head) < 2) {
					t.Errorf("%q at %d: %q / %q", text, width, lines[i], lines[i+1])
				}
			}
		}
	}
}

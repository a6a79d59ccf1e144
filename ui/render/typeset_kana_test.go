package render

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"ist2-boot/content"
)

// kanaNeed is the room a line ending with prev must have had to take more of the katakana word
// next starts with (0: next does not start with one): a word is parted only between the parts of
// a compound (kanaBoundaries), starting no line with a mark kinsoku forbids; a word started on
// the next line whole is parted only where keeping it whole lost more than kanaSlack cells.
func kanaNeed(prev, next string) int {
	tail := trailingKana(strings.TrimRight(prev, " \u00a0"))
	head := leadingKana(next)
	if len(head) == 0 {
		return 0
	}
	word := append(append([]rune{}, tail...), head...)
	parts := kanaBoundaries(word)
	for k := len(tail) + 1; k <= len(word)-2; k++ {
		if !parts[k] || strings.ContainsRune(noStart, word[k]) {
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
		kanaParted(text, 10, func(width int, tail, head []rune) {
			if len(tail) < 2 || len(head) < 2 {
				t.Errorf("%q at %d: %s / %s", text, width, string(tail), string(head))
			}
		})
	}
}

// ja r17 M3: a katakana compound is parted only between its loanwords (「ネイティブ⏎サイドカー」),
// and a word of eight letters or fewer never (「ブートス⏎トラップ」).
func TestKatakanaCompoundsPartBetweenTheirWords(t *testing.T) {
	allowed := map[string]bool{"ネイティブ|サイドカー": true, "サービス|アカウントトークン": true, "サービスアカウント|トークン": true, "サイドカー|コンテナ": true, "エントリー|ポイント": true}
	for _, text := range []string{
		"従来型とネイティブサイドカーでは表示が違います。",
		"投影されたサービスアカウントトークンを使います。",
		"サイドカーコンテナのエントリーポイントです。",
		"まずブートストラップを書き、レスポンスボディを読みます。",
	} {
		// From the width that holds the longest word (13 letters) on a line: a word is parted
		// by choice there, never because it must be.
		kanaParted(text, 26, func(width int, tail, head []rune) {
			if word := string(tail) + "|" + string(head); !allowed[word] {
				t.Errorf("%q at %d: parted %s", text, width, word)
			}
		})
	}
}

// Every katakana compound longer than kanaWhole in the Japanese content is made of kanaParts, so
// the breaker knows where it may part it; a new word is added to kanaParts.
func TestKatakanaCompoundsAreKnown(t *testing.T) {
	long := regexp.MustCompile(`[ァ-ヺー]{9,}`)
	for name, text := range japaneseContent(t) {
		for _, w := range long.FindAllString(text, -1) {
			word := []rune(w)
			parts := kanaBoundaries(word)
			found := false
			for _, p := range parts {
				found = found || p
			}
			if !found {
				t.Errorf("%s: %s is not made of kanaParts", name, w)
			}
		}
	}
}

// japaneseContent is every text of the lesson a Japanese reader sees: the pages, and the catalogs
// (whose other languages hold no katakana).
func japaneseContent(t *testing.T) map[string]string {
	texts := map[string]string{}
	err := fs.WalkDir(content.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasPrefix(path, "ja/") || strings.HasSuffix(path, ".yaml")) {
			return err
		}
		b, err := fs.ReadFile(content.FS, path)
		texts[path] = string(b)
		return err
	})
	if err != nil || len(texts) < 5 {
		t.Fatalf("%v: %d texts", err, len(texts))
	}
	return texts
}

// kanaParted calls parted for each katakana word text is parted inside, set at every width from
// the one given to one that holds it on a line: the width, and the letters each side.
func kanaParted(text string, from int, parted func(width int, tail, head []rune)) {
	for width := from; width < 2*len([]rune(text)); width++ {
		lines := WrapLines(text, width, 0)
		for i := 0; i+1 < len(lines); i++ {
			tail, head := trailingKana(strings.TrimSpace(lines[i])), leadingKana(strings.TrimSpace(lines[i+1]))
			if len(tail) > 0 && len(head) > 0 {
				parted(width, tail, head)
			}
		}
	}
}

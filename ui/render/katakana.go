package render

import "unicode"

// kanaSlack is how many cells a line may end short to keep a katakana word whole: a Japanese
// reader stumbles on 「バージョ⏎ン」, but a line ending seven cells early reads as a gap.
const kanaSlack = 6

// kanaWhole is the longest katakana word never parted (in letters): 「ブートス⏎トラップ」 reads as
// a broken word wherever it is cut (ja r17 M3).
const kanaWhole = 8

// katakanaWords lowers the breaks inside each katakana word (a run of katakana and ー) that UAX #14
// allows anywhere. A longer word is a compound of the lesson's loanwords, parted only between
// them — 「ネイティブ⏎サイドカー」, never 「ネイティ⏎ブサイドカー」 — at tierKana (taken only if
// keeping the word whole would lose more than kanaSlack); anywhere else only as a word longer than
// a line is (tierSafe), and one letter alone only where nothing else fits (tierAny).
func katakanaWords(us []unit, tiers []tier) {
	for a := 0; a < len(us); {
		if !katakanaUnit(us[a]) {
			a++
			continue
		}
		b := a + 1
		for b < len(us) && katakanaUnit(us[b]) {
			b++
		}
		word := make([]rune, 0, b-a)
		for _, u := range us[a:b] {
			r, _ := firstRune(u.text)
			word = append(word, r)
		}
		parts := kanaBoundaries(word)
		for i := a + 1; i < b; i++ {
			if tiers[i] != tierBreak {
				continue
			}
			switch {
			case parts[i-a]:
				tiers[i] = tierKana
			case i-a >= 2 && b-i >= 2:
				tiers[i] = tierSafe
			default: // one letter alone (「バージョ⏎ン」) only where nothing else fits
				tiers[i] = tierAny
			}
		}
		a = b
	}
}

// kanaBoundaries marks where a katakana word may be parted: between two of kanaParts that make
// it up whole (none in a word of kanaWhole letters or fewer, or one not made of them), leaving
// two letters each side.
func kanaBoundaries(word []rune) []bool {
	n := len(word)
	at := make([]bool, n+1)
	if n <= kanaWhole {
		return at
	}
	// from[i]: word[:i] is a run of parts; to[i]: word[i:] is.
	from, to := make([]bool, n+1), make([]bool, n+1)
	from[0], to[n] = true, true
	for i := 0; i < n; i++ {
		for _, p := range kanaParts {
			if from[i] && hasRunesAt(word, i, p) {
				from[i+len(p)] = true
			}
		}
	}
	for i := n - 1; i >= 0; i-- {
		for _, p := range kanaParts {
			if i+len(p) <= n && to[i+len(p)] && hasRunesAt(word, i, p) {
				to[i] = true
			}
		}
	}
	for i := 2; i <= n-2; i++ {
		at[i] = from[i] && to[i]
	}
	return at
}

func hasRunesAt(word []rune, i int, part []rune) bool {
	if i+len(part) > len(word) {
		return false
	}
	for k, r := range part {
		if word[i+k] != r {
			return false
		}
	}
	return true
}

// kanaParts are the loanwords the lesson's long katakana compounds are made of (a test reads
// every compound in the Japanese content and fails on one these do not make up).
var kanaParts = runesOf(
	"アカウント", "アドレス", "アプリケーション", "オーバーロード", "オプション", "クラスター",
	"コネクション", "コマンドライン", "コンテナ", "コントロール", "サイドカー", "サービス",
	"サンドボックス", "シンボリック", "セット", "ソケット", "チェーン", "ツール", "ディスクリプター",
	"ディレクトリ", "テンプレート", "トークン", "ネイティブ", "ネットワーク", "ハッシュ",
	"バックアップ", "パッケージ", "ファイル", "フィルター", "フラグ", "ブートストラップ", "プレーン",
	"プロトコル", "ボディ", "ポイント", "マネージャー", "モード", "ランタイム", "リスナー", "リンク",
	"ループバック", "レイヤー", "レスポンス", "ローカル", "ログ", "エントリー",
)

func runesOf(words ...string) [][]rune {
	out := make([][]rune, len(words))
	for i, w := range words {
		out[i] = []rune(w)
	}
	return out
}

// katakanaUnit: a katakana letter or the prolonged sound mark, outside code.
func katakanaUnit(u unit) bool {
	r, ok := firstRune(u.text)
	return ok && !u.code && !u.space && (unicode.Is(unicode.Katakana, r) && r != '・' || r == 'ー')
}

package render

import (
	"strings"
	"testing"
	"unicode/utf8"

	xansi "github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
)

// Whatever the text and width, Wrap loses nothing but the spaces it breaks at and the backticks
// of code spans, and no line is wider than the width unless it holds a single character wider
// than that.
func FuzzWrap(f *testing.F) {
	for _, s := range []string{
		"注入結果から `pilot-agent` が受け取る引数と環境変数を読み取り、istiod につなぐ。",
		"了解 bootstrap 是由什么生成的，以及 /root/.local/share/ist2-boot/work/04-validate.txt 里写了什么。",
		"`Envoy` 를 띄우고, istiod 로 가는 xDS 연결을 대신 맺는다.",
		"\x1b[1mbold\x1b[m 「括弧」（かっこ）ー…、。 --flag=v1.2.3 https://example.com/a/b",
		"",
	} {
		f.Add(s, 20)
	}
	f.Fuzz(func(t *testing.T, s string, width int) {
		// Wrap is given text and the SGR styles we add; a program's own escapes are removed first.
		if !utf8.ValidString(s) || strings.ContainsAny(s, "\n\r\t") || width < 1 || width > 300 ||
			strings.Count(s, "\x1b") != strings.Count(s, "\x1b[") {
			t.Skip()
		}
		lines := WrapLines(s, width, 2)
		for _, l := range lines {
			visible := strings.Map(func(r rune) rune {
				if r < 0x20 || r == 0x7f {
					return -1
				}
				return r
			}, xansi.Strip(l))
			if w := xansi.StringWidth(l); w > width && uniseg.GraphemeClusterCount(strings.TrimSpace(visible)) > 1 {
				t.Fatalf("line %q is %d cells, width %d", l, w, width)
			}
		}
		squeeze := func(s string) string { return strings.Join(strings.Fields(xansi.Strip(s)), "") }
		if got, want := squeeze(strings.Join(lines, " ")), squeeze(Unmarked(s)); got != want {
			t.Fatalf("text changed:\n got %q\nwant %q", got, want)
		}
	})
}

// A parenthesis after Hangul is part of its 어절: 「입니다(드릴」 is not parted, the line breaks at
// a space before it (ko r23 M2).
func TestKoreanParenthesisStaysWithItsWord(t *testing.T) {
	text := "고장 난 필드는 `static_resources.clusters[0].load_ssignment`입니다(드릴 파일의 39번 줄). 사이드카의 Envoy는 모르는 키를 무시합니다."
	for w := 40; w <= 80; w++ {
		for _, l := range WrapLines(text, w, 0) {
			if strings.HasSuffix(l, "입니다") {
				t.Errorf("width %d: %q ends before its parenthesis", w, l)
			}
		}
	}
}

// A short label before a full-width colon is kept whole: 「使う⏎ステップ：」 and 「需要⏎它的步骤：」
// parted the tools page's label (ja r23 L7, zh r23 L10).
func TestALabelBeforeAColonStaysWhole(t *testing.T) {
	for _, text := range []string{
		"✓ istioctl · istio.io/istio v0.0.0-20260827124520-eed52ebb66ad · 使うステップ：1、2、3、4、5、7 と追加演習",
		"✓ istioctl · istio.io/istio v0.0.0-20260827124520-eed52ebb66ad · 需要它的步骤：第 1、2、3、4、5、7 步和进阶练习",
	} {
		for w := 40; w <= 100; w++ {
			joined := strings.Join(WrapLines(text, w, 0), "\n")
			if !strings.Contains(joined, "使うステップ：") && !strings.Contains(joined, "需要它的步骤：") {
				t.Errorf("width %d: the label parted:\n%s", w, joined)
			}
		}
	}
}

// A short Korean parenthetical and 「약 30초」, 「둘 다」 stay whole (ko r25 M1).
func TestKoreanShortParenthesesStayWhole(t *testing.T) {
	for _, text := range []string{
		"세 번째면 거절된 응답이 CDS인지 LDS인지(또는 둘 다인지) 고릅니다. 답마다 근거와 함께 판정합니다.",
		"Envoy는 설정 없이 LIVE가 됩니다(시작 후 약 30초). 이때부터 15021이 연결을 받습니다.",
		"이 부트스트랩은 실제 사이드카의 것을 일부러 단순화했습니다(일부러 단순화한 것). 둘 다라면 CDS+LDS를 입력하세요.",
	} {
		for w := 40; w <= 80; w++ { // narrower, the 어절 with its parenthetical is wider than a line
			joined := strings.Join(WrapLines(text, w, 0), "\n")
			for _, whole := range []string{"(또는 둘 다인지)", "(시작 후 약 30초)", "(일부러 단순화한 것)", "둘 다라면"} {
				if strings.Contains(text, whole) && !strings.Contains(joined, whole) {
					t.Errorf("width %d: %q parted:\n%s", w, whole, joined)
				}
			}
		}
	}
}

// A quoted message does not part before its last word when that is a number: 「exit status⏎1 を」
// read as a count (ja r26 M2).
func TestAMessageKeepsItsLastNumber(t *testing.T) {
	text := "Envoy が終了コード 1 で終わると、親プロセスの pilot-agent が `Envoy exited with error: exit status 1` を記録し、自身は終了コード 0 で終わります。"
	for w := 30; w <= 100; w++ {
		for _, l := range WrapLines(text, w, 0) {
			if strings.HasPrefix(l, "1 を") {
				t.Errorf("width %d: the number parted: %q", w, WrapLines(text, w, 0))
			}
		}
	}
}

package render

import (
	"fmt"
	"strings"
	"testing"

	"ist2-boot/content"
	"ist2-boot/steps"
	"ist2-boot/steps/i18n"

	xansi "github.com/charmbracelet/x/ansi"
)

func lesson(t testing.TB) *steps.Lesson {
	t.Helper()
	l, err := steps.LoadLesson(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

var labEnv = &steps.Env{WorkDir: "/root/ist2-boot", Fixtures: "/opt/lab/fixtures/istio", Mesh: "/opt/istio/mesh-config.yaml"}

// Every page, in every language and style, fits the width it was rendered for, measured in
// display cells (a Hangul, Han or kana character is two), and a folded command stays indented
// as code.
func TestRenderedPagesFitTheirWidth(t *testing.T) {
	l := lesson(t)
	for _, width := range []int{40, 60, 80, 120} {
		for _, style := range []Style{Dark, Light, Plain} {
			for _, id := range l.PageIDs() {
				for _, lang := range i18n.Langs {
					md, err := l.Prose(id, lang, labEnv)
					if err != nil {
						t.Fatal(err)
					}
					out, err := RenderMarkdown(md, width, style)
					if err != nil {
						t.Fatal(err)
					}
					lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
					for i, line := range lines {
						if w := xansi.StringWidth(line); w > width {
							t.Errorf("%s %s width %d style %d: line %d is %d cells: %q", id, lang, width, style, i+1, w, xansi.Strip(line))
						}
						prev := xansi.Strip(lines[max(i-1, 0)])
						if cur := xansi.Strip(line); i > 0 && strings.HasPrefix(prev, "    ") && strings.TrimSpace(prev) != "" && strings.TrimSpace(cur) != "" && !strings.HasPrefix(cur, "    ") && !strings.HasPrefix(cur, "  #") && !strings.HasPrefix(cur, "  •") {
							t.Errorf("%s %s width %d: code continues flush left: %q", id, lang, width, cur)
						}
					}
				}
			}
		}
	}
}

// glamour v2 wraps Chinese and Japanese prose, which has no spaces to break at.
func TestCJKProseIsWrapped(t *testing.T) {
	l := lesson(t)
	for _, lang := range []i18n.Lang{i18n.Chinese, i18n.Japanese} {
		md, _ := l.Prose("ready", lang, labEnv)
		out, err := RenderMarkdown(md, 40, Plain)
		if err != nil {
			t.Fatal(err)
		}
		full, _ := RenderMarkdown(md, 200, Plain)
		if strings.Count(out, "\n") < strings.Count(full, "\n")+10 {
			t.Errorf("%s: 40 columns gave %d lines, 200 gave %d", lang, strings.Count(out, "\n"), strings.Count(full, "\n"))
		}
	}
}

func TestFoldWords(t *testing.T) {
	got := foldWords("  alpha beta gamma-delta-epsilon-zeta", 14)
	want := []string{"  alpha beta", "  ↪ gamma-de", "  ↪ lta-epsi", "  ↪ lon-zeta"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q", got)
	}
	if got := foldWords("한국어 문장을 접는다", 8); xansi.StringWidth(got[0]) > 8 || len(got) < 2 {
		t.Errorf("wide runes: %q", got)
	}
}

// BenchmarkRenderSection renders each section in each language at 80 and 120 columns: the cost a
// cache miss puts on a tea.Cmd.
func BenchmarkRenderSection(b *testing.B) {
	l := lesson(b)
	for _, width := range []int{80, 120} {
		for _, lang := range i18n.Langs {
			for _, id := range l.SectionIDs() {
				md, _ := l.Prose(id, lang, labEnv)
				b.Run(fmt.Sprintf("%s-%s-%d", id, lang, width), func(b *testing.B) {
					for b.Loop() {
						if _, err := RenderMarkdown(md, width, Dark); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// A code span in a colour style is marked by its colours, not by padding cells: beside
// full-width punctuation it touches the mark, beside a CJK character there is the source's one
// space, and a line that starts with code starts at the margin (zh B1, ja T6).
func TestCodeSpansHaveNoPadding(t *testing.T) {
	md := "配置文件（`--injectConfigFile`、`--valuesFile`），交给 `pilot-agent` 处理。\n"
	for _, style := range []Style{Dark, Light} {
		out, err := RenderMarkdown(md, 80, style)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.TrimSpace(strings.ReplaceAll(xansi.Strip(out), "\u00a0", " "))
		if want := "配置文件（--injectConfigFile、--valuesFile），交给 pilot-agent 处理。"; got != want {
			t.Errorf("style %d:\n got %q\nwant %q", style, got, want)
		}
	}
}

// ja M17: a link in plain output (a file, a pipe) is its text, no OSC 8 escape around it.
func TestPlainOutputHasNoHyperlinks(t *testing.T) {
	out, err := RenderMarkdown("See the advice in https://www.envoyproxy.io/docs/envoy/latest/ now.\n", 80, Plain)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "\x1b]8") || !strings.Contains(out, "https://www.envoyproxy.io/docs/envoy/latest/") {
		t.Errorf("%q", out)
	}
}

// A code block printed without a terminal keeps its backslashes: `show ready | cat` prints the
// reference command's filter as it runs, ^control_plane\.connected_state$ (zh round 2, M1).
func TestPlainCodeBlocksKeepBackslashes(t *testing.T) {
	l := lesson(t)
	for _, id := range l.PageIDs() {
		md, err := l.Prose(id, i18n.Korean, labEnv)
		if err != nil {
			t.Fatal(err)
		}
		in := strings.Count(md, `\.`)
		if in == 0 {
			continue
		}
		out, err := RenderMarkdown(md, 200, Plain)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(out, `\.`); got < in {
			t.Errorf("%s: %d backslash-dots in the page, %d printed", id, in, got)
		}
	}
}

// In colour a heading is marked by colour and weight, not by Markdown's "## " (zh r7 L27).
func TestColouredHeadingsHaveNoHashes(t *testing.T) {
	for _, style := range []Style{Dark, Light} {
		out, err := RenderMarkdown("# 标题\n\n## 任务\n\n正文。\n", 60, style)
		if err != nil {
			t.Fatal(err)
		}
		if plain := xansi.Strip(out); strings.Contains(plain, "## ") || !strings.Contains(plain, "任务") {
			t.Errorf("style %d:\n%s", style, plain)
		}
	}
}

package output

import (
	"strconv"
	"strings"
	"testing"

	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/i18n"
	"ist2-boot/steps/run"
	"ist2-boot/ui/common"
	"ist2-boot/ui/render"
)

// chatty is a pane 40 cells wide holding n lines of a run, each longer than a row.
func chatty(n int) (Pane, common.Common) {
	c := common.Common{Lang: i18n.Korean, Styles: render.NewStyles(true, true), Width: 100, Height: 30}
	o := New()
	o.SetSize(40, 10)
	var items []Item
	for i := range n {
		items = append(items, Run(run.Line{Kind: run.Output, Text: "line " + strconv.Itoa(i) + " of a chatty command that writes more than one row of text at this width, so it wraps"}))
	}
	o.Show("args", items)
	o.Refresh(c, "", "")
	return o, c
}

// A tick redraws the output pane without wrapping its items again: each keeps its lines for the
// language, width and styles they were made for, and only a change of those wraps anew.
func TestOutputIsWrappedOncePerItem(t *testing.T) {
	o, c := chatty(3)
	first := o.items[0].wrapped
	if first == nil || len(first.lines) < 2 {
		t.Fatalf("not wrapped: %+v", first)
	}
	o.Refresh(c, "", "")
	if o.items[0].wrapped != first {
		t.Error("wrapped again on a redraw with nothing changed")
	}
	c.Lang = i18n.Chinese
	o.Refresh(c, "", "")
	if o.items[0].wrapped == first || o.items[0].wrapped.lang != c.Lang {
		t.Error("not wrapped anew for the new language")
	}
}

// BenchmarkOutputTick is one redraw of a full output pane (MaxItems lines), as each tick of a run
// does.
func BenchmarkOutputTick(b *testing.B) {
	o, c := chatty(MaxItems)
	b.ResetTimer()
	for range b.N {
		o.Refresh(c, "", "")
	}
}

// The hostile report's H2: the pane keeps a bounded tail of what a run printed, by bytes as well
// as by lines, and says what it dropped.
func TestOutputPaneKeepsABoundedTail(t *testing.T) {
	o := New()
	long := strings.Repeat("x", 64<<10)
	for range 300 {
		o.Append([]Item{Run(run.Line{Kind: run.Output, Text: long})})
	}
	size := 0
	for _, it := range o.items {
		size += len(it.line.Text)
	}
	if size > MaxBytes || o.items[0].msg.Key != "ui.lines_dropped" {
		t.Errorf("kept %d bytes in %d items; first %+v", size, len(o.items), o.items[0].msg)
	}
}

// A program's escape sequences and control characters never reach the screen; the text stays.
func TestRunLinesArePrintable(t *testing.T) {
	it := Run(run.Line{Kind: run.Output, Text: "\x1b[2J\x1b[31mred\x1b[0m\tend\a"})
	if it.Text() != "red end" {
		t.Errorf("%q", it.Text())
	}
}

// An echoed comment longer than the pane goes on as a comment (ja r11 L13).
func TestAWrappedCommentStaysAComment(t *testing.T) {
	c := common.Common{Lang: i18n.Japanese, Styles: render.NewStyles(true, true), Width: 40, Height: 20}
	it := Run(run.Line{Kind: run.Command, Text: "# ADS が指す静的クラスターのエンドポイントだけをサーバーのアドレスに変えたコピーを作ります。"})
	lines := it.render(c, 30)
	if len(lines) < 2 {
		t.Fatalf("not wrapped: %q", lines)
	}
	for i, l := range lines {
		l = xansi.Strip(l)
		if want := map[bool]string{true: "$ # ", false: "  # "}[i == 0]; !strings.HasPrefix(l, want) {
			t.Errorf("line %d %q does not start with %q", i, l, want)
		}
	}
}

package ui

import (
	"strings"
	"testing"

	"ist2-boot/steps/run"
)

// outputModel is a tutorial at 100×30 whose output pane holds n lines of a run.
func outputModel(t testing.TB, n int) Model {
	m := sized(t, testEngine(t), 100, 30)
	m.out.items = nil
	for i := range n {
		m.out.items = append(m.out.items, outItem{line: run.Line{Kind: run.Output, Text: "line " + itoa(i) + " of a chatty command that writes more than one row of text at this width, so it wraps"}})
	}
	m.refreshOutput()
	return m
}

// A tick redraws the output pane without wrapping its items again: each keeps its lines for the
// language, width and styles they were made for, and only a change of those wraps anew.
func TestOutputIsWrappedOncePerItem(t *testing.T) {
	m := outputModel(t, 3)
	first := m.out.items[0].wrapped
	if first == nil || len(first.lines) < 2 {
		t.Fatalf("not wrapped: %+v", first)
	}
	m.refreshOutput()
	if m.out.items[0].wrapped != first {
		t.Error("wrapped again on a redraw with nothing changed")
	}
	m = press(t, m, "l")
	if m.out.items[0].wrapped == first || m.out.items[0].wrapped.lang != m.Lang {
		t.Error("not wrapped anew for the new language")
	}
}

// BenchmarkOutputTick is one redraw of a full output pane (maxOutputItems lines), as each tick of
// a run does.
func BenchmarkOutputTick(b *testing.B) {
	m := outputModel(b, maxOutputItems)
	b.ResetTimer()
	for range b.N {
		m.refreshOutput()
	}
}

// The hostile report's H2: the pane keeps a bounded tail of what a run printed, by bytes as well
// as by lines, and says what it dropped.
func TestOutputPaneKeepsABoundedTail(t *testing.T) {
	o := newOutputPane()
	long := strings.Repeat("x", 64<<10)
	for range 300 {
		o.appendItems([]outItem{{line: run.Line{Kind: run.Output, Text: long}}})
	}
	size := 0
	for _, it := range o.items {
		size += len(it.line.Text)
	}
	if size > maxOutputBytes || o.items[0].msg.Key != "ui.lines_dropped" {
		t.Errorf("kept %d bytes in %d items; first %+v", size, len(o.items), o.items[0].msg)
	}
}

package run

import (
	"io"
	"runtime"
	"strings"
	"testing"
)

// The hostile report's H2: one 50 MB line is kept as its first 64 KiB and a note of the cut, and
// reading it does not hold the line in memory.
func TestALongLineIsCut(t *testing.T) {
	const size = 50 << 20
	r := io.MultiReader(strings.NewReader("before\n"), io.LimitReader(endless('x'), size), strings.NewReader("\nafter\n"))
	var lines []Line
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	streamLines(r, func(l Line) { lines = append(lines, l) })
	runtime.ReadMemStats(&after)
	if len(lines) != 4 || lines[0].Text != "before" || lines[3].Text != "after" {
		t.Fatalf("%d lines: %v", len(lines), lines[0])
	}
	if n := len(lines[1].Text); n > maxLine+len("…") || !strings.HasSuffix(lines[1].Text, "…") {
		t.Errorf("the long line kept %d bytes", n)
	}
	if m := lines[2].Msg; m.Key != "run.line_cut" || m.Args["bytes"] == "" {
		t.Errorf("no note of the cut: %+v", m)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("reading the line allocated %d MB", grew>>20)
	}
}

type endless byte

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(e)
	}
	return len(p), nil
}

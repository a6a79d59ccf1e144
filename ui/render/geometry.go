package render

import (
	"strings"
	"sync"

	"charm.land/glamour/v2"
	xansi "github.com/charmbracelet/x/ansi"
)

// room is how many cells of text glamour sets on a block's first line and on the lines after,
// and how far right of the first line's text the later lines start (negative: further left, as
// a list item's lines go back under its bullet).
type room struct {
	first, rest int
	shift       int
}

// geometry is where glamour puts text, for one style and wrap width: learnt by rendering a probe
// once (glamour's margins, bullets and heading marks come from its style sheets, not from us).
type geometry struct {
	para, item, numbered room    // a paragraph, a bullet list's item, a numbered list's item 1–9
	heading              [7]room // by level, 1–6
	codePad              int     // cells glamour adds around an inline code span (padding in colour styles)
	margin               int     // where a paragraph starts: the document's left margin
	limit                int     // the cells of text a paragraph line holds
}

var (
	geometriesMu sync.Mutex
	geometries   = map[[2]int]geometry{}
)

// geometryFor probes glamour for style at wrap width (cached: the probe is one small render).
// A paragraph of one long word shows the room of a line: glamour must cut it where the line
// ends. A list item and each heading level, of short words, show where their text starts on the
// first line and on the next.
func geometryFor(style Style, wrap int) (geometry, error) {
	key := [2]int{int(style), wrap}
	geometriesMu.Lock()
	g, ok := geometries[key]
	geometriesMu.Unlock()
	if ok {
		return g, nil
	}
	words := strings.Repeat("x ", wrap) + "y"
	md := strings.Repeat("P", 2*wrap+8) + "\n\n- Q " + words + "\n\n1. O " + words + "\n\n"
	for level := 1; level <= 6; level++ {
		md += strings.Repeat("#", level) + " " + string(rune('R'+level-1)) + " " + words + "\n\n"
	}
	md += "`Z`\n"
	r, err := glamour.NewTermRenderer(glamour.WithStyles(style.config()), glamour.WithWordWrap(wrap), glamour.WithPreservedNewLines())
	if err != nil {
		return g, err
	}
	out, err := r.Render(md)
	if err != nil {
		return g, err
	}
	lines := strings.Split(xansi.Strip(out), "\n")
	limit, margin := 0, 0
	for _, l := range lines {
		if i := strings.Index(l, "P"); i >= 0 {
			limit, margin = strings.Count(l, "P"), xansi.StringWidth(l[:i])
			break
		}
	}
	g.para, g.margin, g.limit = room{first: limit, rest: limit}, margin, limit
	g.item = probeRoom(lines, "Q", limit, margin, 0)
	g.numbered = probeRoom(lines, "O", limit, margin, 0)
	for level := 1; level <= 6; level++ {
		// A heading's first line may close with a padding cell (colour styles): one cell is kept
		// for it there; its later lines have none.
		g.heading[level] = probeRoom(lines, string(rune('R'+level-1)), limit, margin, 1)
		g.heading[level].rest++
	}
	for _, l := range lines {
		if i := strings.Index(l, "Z"); i >= 0 {
			left := strings.TrimRight(l[:i], nbsp)
			right := strings.TrimLeft(l[i+1:], nbsp)
			g.codePad = xansi.StringWidth(l[len(left):i]) + xansi.StringWidth(l[i+1:len(l)-len(right)])
		}
	}
	geometriesMu.Lock()
	geometries[key] = g
	geometriesMu.Unlock()
	return g, nil
}

// probeRoom reads a probed block whose text starts with marker: its first line's text starts
// where the marker is; the next line's where its first "x" is.
func probeRoom(lines []string, marker string, limit, margin, reserve int) room {
	for i, l := range lines {
		at := strings.Index(l, marker+" x")
		if at < 0 || i+1 >= len(lines) {
			continue
		}
		col := xansi.StringWidth(l[:at])
		next := lines[i+1]
		col2 := xansi.StringWidth(next[:max(strings.IndexAny(next, "xy"), 0)])
		return room{first: limit - (col - margin) - reserve, rest: limit - (col2 - margin) - reserve, shift: col2 - col}
	}
	return room{}
}

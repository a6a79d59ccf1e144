package render

import (
	"strings"

	xansi "github.com/charmbracelet/x/ansi"
)

// KeyColumns sets rows of (keys, what they do) in two columns within width cells: a space, the
// keys in a column of their own (at most a third of the rest), two spaces, and each description
// wrapped beside them by the line breaker, never back to column 0.
func KeyColumns(rows [][2]string, width int) []string {
	keyW := 0
	for _, r := range rows {
		keyW = max(keyW, xansi.StringWidth(r[0]))
	}
	inner := width - 1 // the leading space
	keyW = min(keyW, inner/3)
	descW := max(inner-keyW-2, 10)
	var lines []string
	for _, r := range rows {
		keys := WrapLines(r[0], keyW, 0)
		desc := WrapLines(r[1], descW, 0)
		for i := 0; i < max(len(keys), len(desc)); i++ {
			k, d := "", ""
			if i < len(keys) {
				k = keys[i]
			}
			if i < len(desc) {
				d = desc[i]
			}
			lines = append(lines, " "+k+strings.Repeat(" ", keyW-xansi.StringWidth(k)+2)+d)
		}
	}
	return lines
}

package common

import (
	"strings"

	xansi "github.com/charmbracelet/x/ansi"
)

// Fit makes text exactly h lines of at most w cells: cut what is over, pad what is short.
func Fit(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		if xansi.StringWidth(l) > w {
			lines[i] = xansi.Truncate(l, w, "")
		}
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

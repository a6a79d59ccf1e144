package render

import (
	"strings"

	xansi "github.com/charmbracelet/x/ansi"
)

// colonLabelNeed is the room a fact's label takes at the start of next when the line before
// ends with "·": the label and its colon are kept whole (keepColonLabel).
func colonLabelNeed(body, next string) int {
	if !strings.HasSuffix(strings.TrimRight(body, " \u00a0"), "·") {
		return 0
	}
	label, _, ok := strings.Cut(next, "：")
	if !ok || len([]rune(label)) > colonLabel {
		return 0
	}
	return xansi.StringWidth(label + "：")
}

package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"ist2-boot/ui/common"
	"ist2-boot/ui/keys"
	"ist2-boot/ui/render"
)

// helpOverlay is the help screen: every keys.Binding's row, laid out for the width and language it was
// opened in, where the reader is in it, and its keys (close, scroll).
type helpOverlay struct {
	lines []string
	top   int
	keys  helpKeys
}

type helpKeys struct {
	Close  keys.Binding
	scroll keys.Scroll
}

func newHelpOverlay() helpOverlay {
	return helpOverlay{keys: helpKeys{Close: keys.New("", "", "esc/q", "keys.close", "esc", "q", "d"), scroll: keys.NewScroll()}}
}

func (k *helpKeys) enable(on bool) { keys.Enable(on, append(k.scroll.All(), &k.Close)...) }

// layout sets the rows for the current width and language: every keys.Binding's keys in a column of
// their own, its words wrapped beside them by the one line breaker (never back to column 0), so
// nothing is cut at 80×24 or 60×20: the overlay scrolls instead.
func (h helpOverlay) layout(c common.Common, rows [][2]string) helpOverlay {
	worded := make([][2]string, len(rows))
	for i, r := range rows {
		worded[i] = [2]string{r[0], c.T(r[1])}
	}
	// Inside the pane's border (two cells), less a cell of margin on the right.
	h.lines = append([]string{c.Styles.Title.Render(c.T("help.title")), ""}, render.KeyColumns(worded, c.Width-3)...)
	h.top = min(h.top, max(0, len(h.lines)-1))
	return h
}

// update moves the screen by the scroll keys; rows is how many lines the body shows.
func (h helpOverlay) update(msg tea.KeyPressMsg, bodyH int) (helpOverlay, tea.Cmd) {
	page := max(1, bodyH-3)
	switch h.keys.scroll.Move(msg) {
	case keys.LineUp:
		h.top--
	case keys.LineDown:
		h.top++
	case keys.PageUp:
		h.top -= page
	case keys.PageDown:
		h.top += page
	case keys.ToTop:
		h.top = 0
	case keys.ToBottom:
		h.top = len(h.lines)
	}
	h.top = max(0, min(h.top, len(h.lines)-(bodyH-2)))
	return h, nil
}

// view shows the laid-out help from where the reader is.
func (h helpOverlay) view(c common.Common, height int) string {
	rows := max(height-2, 1)
	lines := h.lines[min(h.top, len(h.lines)):]
	if len(lines) > rows {
		lines = lines[:rows]
	}
	inner := lipgloss.NewStyle().Width(c.Width - 2).Render(strings.Join(lines, "\n"))
	return c.Styles.FocusedPane.Width(c.Width).Height(height).Render(fit(inner, c.Width-2, height-2))
}

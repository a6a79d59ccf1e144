// Package help is the help screen: every binding's row — its keys in a column of their own, its
// words wrapped beside them — laid out for the width and language it was opened in, scrolled by
// its own keys.
package help

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"ist2-boot/ui/common"
	"ist2-boot/ui/keys"
	"ist2-boot/ui/render"
)

// Overlay is the help screen: every binding's row, laid out for the width and language it was
// opened in, where the reader is in it, and its keys (close, scroll).
type Overlay struct {
	lines []string
	top   int
	keys  helpKeys
}

type helpKeys struct {
	Close  keys.Binding
	scroll keys.Scroll
}

// New is a closed help screen.
func New() Overlay {
	return Overlay{keys: helpKeys{Close: keys.New("", "", "esc/q", "keys.close", "esc", "q", "d").In(keys.Overlays), scroll: keys.NewScroll()}}
}

func (k *helpKeys) enable(on bool) { keys.Enable(on, append(k.scroll.All(), &k.Close)...) }

// Layout sets the rows for the current width and language: every binding's keys in a column of
// their own, its words wrapped beside them by the one line breaker (never back to column 0), so
// nothing is cut at 80×24 or 60×20: the overlay scrolls instead.
func (h Overlay) Layout(c common.Common, rows [][2]string) Overlay {
	worded := make([][2]string, len(rows))
	for i, r := range rows {
		worded[i] = [2]string{KeysWritten(r[0], c.T("keys.sep")), c.T(r[1])}
	}
	// Inside the pane's border (two cells), less a cell of margin on the right.
	h.lines = append([]string{c.Styles.Title.Render(c.T("help.title")), ""}, render.KeyColumns(worded, c.Width-3)...)
	h.top = min(h.top, max(0, len(h.lines)-1))
	return h
}

// Update moves the screen by the scroll keys (bodyH is how many lines the body shows); its close
// key closes it, and says so.
func (h Overlay) Update(msg tea.KeyPressMsg, bodyH int) (next Overlay, closed bool) {
	if keys.Matches(msg, h.keys.Close) {
		return h.Reset(), true
	}
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
	return h, false
}

// View shows the laid-out help from where the reader is.
func (h Overlay) View(c common.Common, height int) string {
	rows := max(height-2, 1)
	lines := h.lines[min(h.top, len(h.lines)):]
	if len(lines) > rows {
		lines = lines[:rows]
	}
	inner := lipgloss.NewStyle().Width(c.Width - 2).Render(strings.Join(lines, "\n"))
	return c.Styles.FocusedPane.Width(c.Width).Height(height).Render(common.Fit(inner, c.Width-2, height-2))
}

// Reset puts the screen back at its top, for the next time it opens.
func (h Overlay) Reset() Overlay { h.top = 0; return h }

// Enable turns the screen's keys on while it is open, off otherwise.
func (h *Overlay) Enable(on bool) { h.keys.enable(on) }

// Close is the screen's close key (listed with the overlays' keys).
func (h *Overlay) Close() *keys.Binding { return &h.keys.Close }

// Scroll are the screen's scroll keys.
func (h *Overlay) Scroll() *keys.Scroll { return &h.keys.scroll }

// Lines are the rows as laid out, with the title first.
func (h Overlay) Lines() []string { return h.lines }

// KeysWritten is a binding's keys as the help screen writes them in the language: alternatives
// ("n / p", "D, i") joined by its key separator (「n、p」, "n/p"), as the key line joins them
// (zh r8 ZH-18, ja r8 L2), and ctrl written Ctrl+C as the pages write it (zh r7 L6, L7). "↑/↓" and "PgUp/PgDn" are one key pair each and stay.
func KeysWritten(help, sep string) string {
	alts := strings.FieldsFunc(strings.NewReplacer(" / ", "\x00", ", ", "\x00").Replace(help), func(r rune) bool { return r == 0 })
	for i, a := range alts {
		if rest, ok := strings.CutPrefix(a, "ctrl+"); ok {
			alts[i] = "Ctrl+" + strings.ToUpper(rest)
		}
	}
	return strings.Join(alts, sep)
}

package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/i18n"
	"ist2-boot/ui/render"
)

// helpPane is the help overlay's text, laid out for the width and language it was opened in, and
// where the reader is in it.
type helpPane struct {
	lines []string
	top   int
}

// layoutHelp sets the help screen for the current width and language: every binding's keys in a
// column of their own, its words wrapped beside them by the one line breaker (never back to
// column 0), so nothing is cut at 80×24 or 60×20: the overlay scrolls instead.
func (m *Model) layoutHelp() {
	rows := m.keys.helpRows()
	keyW := 0
	for _, r := range rows {
		keyW = max(keyW, xansi.StringWidth(r[0]))
	}
	inner := m.width - 4 // the pane's border and a margin
	keyW = min(keyW, inner/3)
	descW := max(inner-keyW-2, 10)
	lines := []string{m.styles.Title.Render(i18n.T(m.lang, "help.title", nil)), ""}
	for _, r := range rows {
		keys := render.WrapLines(r[0], keyW, 0)
		desc := render.WrapLines(i18n.T(m.lang, r[1], nil), descW, 0)
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
	m.help.lines = lines
	m.help.top = min(m.help.top, max(0, len(lines)-1))
}

// scrollHelp moves the help screen by the scroll keys.
func (m *Model) scrollHelp(msg tea.KeyPressMsg) {
	k, page := m.keys, max(1, m.geometry().bodyH-3)
	switch {
	case key.Matches(msg, k.Up):
		m.help.top--
	case key.Matches(msg, k.Down):
		m.help.top++
	case key.Matches(msg, k.PageUp):
		m.help.top -= page
	case key.Matches(msg, k.PageDown):
		m.help.top += page
	case key.Matches(msg, k.Top):
		m.help.top = 0
	case key.Matches(msg, k.Bottom):
		m.help.top = len(m.help.lines)
	}
	m.help.top = max(0, min(m.help.top, len(m.help.lines)-(m.geometry().bodyH-2)))
}

// helpView shows the laid-out help from where the reader is.
func (m Model) helpView(height int) string {
	rows := max(height-2, 1)
	lines := m.help.lines[min(m.help.top, len(m.help.lines)):]
	if len(lines) > rows {
		lines = lines[:rows]
	}
	inner := lipgloss.NewStyle().Width(m.width - 2).Render(strings.Join(lines, "\n"))
	return m.styles.FocusedPane.Width(m.width).Height(height).Render(fit(inner, m.width-2, height-2))
}

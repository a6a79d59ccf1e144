package ui

import (
	"strings"

	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/i18n"
	"ist2-boot/ui/render"
)

// popupPane is a question or a result too long for the status bar, laid out (in Update) as a box
// across the screen's width, above the status bar; empty when the status bar holds it.
type popupPane struct {
	lines []string
	text  string // what it was laid out from, with the width
	width int
}

// statusText is the question asked, else the latest message: what the status bar leads with.
func (m Model) statusText() string {
	switch {
	case m.confirm == confirmQuit:
		return i18n.T(m.lang, "ui.confirm_quit", nil)
	case m.confirm == confirmNewLab:
		return i18n.T(m.lang, "newlab.confirm", map[string]string{"dir": m.eng.Env.WorkDir}) + " [y/N]"
	case m.message.Key != "":
		return m.message.In(m.lang)
	}
	return ""
}

// layoutPopup puts the status text in a popup when it does not fit the status bar whole (with
// room for where the learner is), wrapped by the line breaker to the screen's width.
func (m *Model) layoutPopup() {
	text := m.statusText()
	if text == m.popup.text && m.width == m.popup.width {
		return
	}
	m.popup = popupPane{text: text, width: m.width}
	if text == "" || xansi.StringWidth(text)+xansi.StringWidth(m.where())+3 <= m.width || m.width < minWidth {
		return
	}
	inner := m.width - 4
	var lines []string
	for _, l := range render.WrapLines(text, inner, 0) {
		lines = append(lines, l+strings.Repeat(" ", max(0, inner-xansi.StringWidth(l))))
	}
	box := m.styles.FocusedPane.Width(m.width).Render(strings.Join(lines, "\n"))
	m.popup.lines = strings.Split(box, "\n")
}

// withPopup lays the popup over the bottom of the body (the status bar and key line stay).
func (m Model) withPopup(body string) string {
	if len(m.popup.lines) == 0 {
		return body
	}
	lines := strings.Split(body, "\n")
	n := min(len(m.popup.lines), len(lines))
	copy(lines[len(lines)-n:], m.popup.lines[len(m.popup.lines)-n:])
	return strings.Join(lines, "\n")
}

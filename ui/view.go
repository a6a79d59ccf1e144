package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/ui/common"
	"ist2-boot/ui/render"
)

// View implements tea.Model. It only arranges what Update prepared: no I/O, no rendering of
// markdown.
func (m Model) View() tea.View {
	v := tea.NewView(m.screen())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "ist2-boot"
	return v
}

// screen is the whole frame as text: exactly m.Height lines, none wider than m.Width.
func (m Model) screen() string {
	if m.Width == 0 || m.Height == 0 {
		return ""
	}
	if m.Width < minWidth || m.Height < minHeight {
		msg := m.T("ui.too_small", "w", itoa(m.Width), "h", itoa(m.Height), "minw", itoa(minWidth), "minh", itoa(minHeight))
		return common.Fit(render.Wrap(msg, m.Width), m.Width, m.Height)
	}
	g := m.geometry()
	var body string
	switch m.overlay {
	case overlayHelp:
		body = m.help.View(m.Common, g.bodyH)
	case overlayDiff:
		body = m.diff.Render(m.Common, g.bodyH)
	default:
		list := m.paneStyle(focusList).Width(g.listW).Height(g.listH).Render(m.nav.listView(m.Common, m.pageTitle, g))
		prose := m.paneStyle(focusProse).Width(g.rightW).Height(g.proseH).Render(m.prose.View(m.Common))
		out := m.paneStyle(focusOutput).Width(g.rightW).Height(g.outH).Render(m.out.View())
		if g.wide {
			body = lipgloss.JoinHorizontal(lipgloss.Top, list, lipgloss.JoinVertical(lipgloss.Left, prose, out))
		} else {
			body = lipgloss.JoinVertical(lipgloss.Left, list, prose, out)
		}
	}
	return common.Fit(m.status.over(common.Fit(body, m.Width, g.bodyH))+"\n"+m.statusLine()+"\n"+m.keyLine(), m.Width, m.Height)
}

func (m Model) paneStyle(f focus) lipgloss.Style {
	if m.nav.focus == f {
		return m.Styles.FocusedPane
	}
	return m.Styles.Pane
}

// statusLine: the install under way, where the learner is, mode, language, work dir, Envoy's
// pid, led by the latest message or the question (unless the popup holds it).
func (m Model) statusLine() string {
	// The work dir last: the longest, and the one a narrow line may cut.
	parts := []string{m.nav.where(m.Common), m.T("mode." + string(m.Eng.Env.Mode)), m.T("ui.lang_name"), m.Eng.Env.WorkDir}
	if pid := m.session.envoyPid; pid > 0 {
		parts = append(parts, "Envoy pid "+itoa(pid))
	}
	if install, ok := m.toolsPage.StatusPart(m.Common); ok {
		parts = append([]string{install}, parts...)
	}
	line := strings.Join(parts, " · ")
	if text := render.Unmarked(m.status.text(m.Common)); text != "" && len(m.status.popup.lines) == 0 { // else the popup holds it (code marks only hold a path together there)
		if m.status.asking() {
			line = text
		} else {
			// The separator takes the sentence's full stop: not "。 · " (zh r14 L25).
			line = strings.TrimRight(text, "。.") + " · " + line
		}
	}
	line = xansi.Truncate(line, m.Width, "…")
	return m.Styles.Status.Width(m.Width).Render(line)
}

// keyLine is the keys that fire now, with their words: whole items only, cut from the middle
// when the line is short, so that ? (all keys) and q (quit, or close) always show. On a page it
// starts with the pane the scroll keys move: named, not only shown by a border's colour.
func (m Model) keyLine() string {
	items, pinned := m.keyLineItems()
	all := len(items)
	const sep = " · "
	line := func(items []string) string { return strings.Join(append(append([]string{}, items...), pinned...), sep) }
	for len(items) > 0 && xansi.StringWidth(line(items)+sep+"…") > m.Width {
		items = items[:len(items)-1]
	}
	out := line(items)
	if len(items) < all {
		out = strings.Join(append(append(append([]string{}, items...), "…"), pinned...), sep)
	}
	return m.Styles.Dim.Render(xansi.Truncate(out, m.Width, "…"))
}

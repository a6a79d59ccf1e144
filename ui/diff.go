package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/ui/render"
)

// diffState is the diff view: the section's files that have a diff, one at a time.
type diffState struct {
	files []check.FileResult
	index int
	vp    viewport.Model
}

// openDiff opens the diff view on the open section's last check, or says why it cannot.
func (m *Model) openDiff() {
	r, checked := m.results[m.pageID()]
	if !checked || !m.isSection(m.pageID()) {
		m.overlay = overlayNone
		m.message = i18n.M("ui.check_first")
		return
	}
	var files []check.FileResult
	for _, f := range r.Files {
		if f.Diff != "" {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		m.overlay = overlayNone
		m.message = i18n.M("ui.no_diff")
		return
	}
	if m.overlay != overlayDiff || m.diff.index >= len(files) {
		m.diff.index = 0
	}
	m.overlay, m.diff.files = overlayDiff, files
	m.diff.refresh(m)
	m.diff.vp.GotoTop()
}

// refresh colours the current file's diff by line kind (+ added, - removed, @@ hunk) and wraps
// it to the view's width.
func (d *diffState) refresh(m *Model) {
	if len(d.files) == 0 {
		return
	}
	f := d.files[d.index]
	w := max(d.vp.Width(), 10)
	var lines []string
	lines = append(lines, m.styles.State[f.Status].Render(render.Glyphs[f.Status]+" "+f.File+"  "+i18n.T(m.lang, "ui.state."+string(f.Status), nil)))
	for _, l := range render.WrapLines(f.Reason.In(m.lang), w, 0) {
		lines = append(lines, l)
	}
	lines = append(lines, "")
	for _, l := range strings.Split(strings.TrimRight(f.DiffIn(m.lang), "\n"), "\n") {
		style := lipgloss.NewStyle()
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			style = m.styles.Title
		case strings.HasPrefix(l, "@@"):
			style = m.styles.DiffHunk
		case strings.HasPrefix(l, "+"):
			style = m.styles.DiffAdd
		case strings.HasPrefix(l, "-"):
			style = m.styles.DiffDel
		}
		for _, piece := range strings.Split(xansi.Hardwrap(l, w, true), "\n") {
			lines = append(lines, style.Render(piece))
		}
	}
	d.vp.SetContentLines(lines)
}

// diffKey: tab to the next file, esc (or d, q) to close, scroll keys to read.
func (m Model) diffKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch {
	case key.Matches(msg, m.keys.NextFile):
		m.diff.index = (m.diff.index + 1) % len(m.diff.files)
		m.diff.refresh(&m)
		m.diff.vp.GotoTop()
	case key.Matches(msg, m.keys.Close):
		m.overlay = overlayNone
	case key.Matches(msg, m.keys.Help):
		m.overlay = overlayHelp
		m.layoutHelp()
	case key.Matches(msg, m.keys.Lang):
		return m.switchLang()
	default:
		m.scroll(&m.diff.vp, msg)
	}
	return m, nil
}

// diffView is the diff overlay: a tab line naming the files, then the diff in a pane.
func (m Model) diffView(height int) string {
	var tabs []string
	for i, f := range m.diff.files {
		label := " " + render.Glyphs[f.Status] + " " + f.File + " "
		if i == m.diff.index {
			label = m.styles.Selected.Render(label)
		}
		tabs = append(tabs, label)
	}
	tabLine := xansi.Truncate(strings.Join(tabs, " "), m.width, "…")
	pane := m.styles.FocusedPane.Width(m.width).Height(height - 1).Render(m.diff.vp.View())
	return lipgloss.JoinVertical(lipgloss.Left, tabLine, pane)
}

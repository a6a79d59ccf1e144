package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
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

// screen is the whole frame as text: exactly m.height lines, none wider than m.width.
func (m Model) screen() string {
	if m.width == 0 || m.height == 0 {
		return ""
	}
	if m.width < minWidth || m.height < minHeight {
		msg := i18n.T(m.lang, "ui.too_small", map[string]string{
			"w": itoa(m.width), "h": itoa(m.height), "minw": itoa(minWidth), "minh": itoa(minHeight)})
		return fit(render.Wrap(msg, m.width), m.width, m.height)
	}
	g := m.geometry()
	var body string
	switch {
	case m.overlay == overlayHelp:
		body = m.helpView(g.bodyH)
	case m.overlay == overlayDiff:
		body = m.diffView(g.bodyH)
	default:
		list := m.paneStyle(focusList).Width(g.listW).Height(g.listH).Render(m.listView(g))
		prose := m.paneStyle(focusProse).Width(g.rightW).Height(g.proseH).Render(m.proseView())
		out := m.paneStyle(focusOutput).Width(g.rightW).Height(g.outH).Render(m.out.vp.View())
		if g.wide {
			body = lipgloss.JoinHorizontal(lipgloss.Top, list, lipgloss.JoinVertical(lipgloss.Left, prose, out))
		} else {
			body = lipgloss.JoinVertical(lipgloss.Left, list, prose, out)
		}
	}
	return fit(m.withPopup(fit(body, m.width, g.bodyH))+"\n"+m.statusLine()+"\n"+m.keyLine(), m.width, m.height)
}

func (m Model) paneStyle(f focus) lipgloss.Style {
	if m.focus == f {
		return m.styles.FocusedPane
	}
	return m.styles.Pane
}

// proseView is the rendered page, or a word that it is on its way.
func (m Model) proseView() string {
	if m.prose.shown.page == "" {
		return m.styles.Dim.Render(i18n.T(m.lang, "ui.rendering", nil))
	}
	return m.prose.vp.View()
}

// pageTitle is a page's title in the current language.
func (m Model) pageTitle(id string) string {
	if id == drillPage {
		return i18n.T(m.lang, "drill.title", nil)
	}
	p, _ := m.eng.Lesson.Page(id)
	return p.Title[m.lang]
}

// pageState is a page's verdict: sections from their last check, the intro and finish none.
func (m Model) pageState(id string) (check.Status, bool) {
	r, ok := m.results[id]
	return r.Status, ok
}

// listItem is one line of the list: number, glyph, state word, title; cut to width cells.
func (m Model) listItem(i, width int) string {
	id := m.pages[i]
	num := "  "
	if n := indexOf(m.eng.Lesson.SectionIDs(), id); n >= 0 {
		num = fmt.Sprintf("%d.", n+1)
	}
	line := num + "   " + m.pageTitle(id)
	style := lipgloss.NewStyle()
	if st, ok := m.pageState(id); ok {
		word := i18n.T(m.lang, "ui.state."+string(st), nil)
		line = num + " " + render.Glyphs[st] + " " + word + " · " + m.pageTitle(id)
		style = m.styles.State[st]
	}
	marker := "  "
	if i == m.page {
		marker = "▸ "
	}
	line = xansi.Truncate(marker+line, width, "…")
	if i == m.cursor && m.focus == focusList {
		return m.styles.Selected.Render(line)
	}
	if i == m.page {
		return m.styles.Title.Inherit(style).Render(line)
	}
	return style.Render(line)
}

// listView shows every page (wide) or the open one with its neighbours (stacked).
func (m Model) listView(g geometry) string {
	width := g.listW - 2
	first, last := 0, len(m.pages)-1
	if !g.wide {
		n := m.stackedListLines()
		first = max(0, min(m.cursor-n/2, len(m.pages)-n))
		last = first + n - 1
	}
	var lines []string
	for i := first; i <= last; i++ {
		lines = append(lines, m.listItem(i, width))
	}
	return strings.Join(lines, "\n")
}

// where is the learner's place: the step of the open section and how many sections are done
// (on the other pages, how many of all).
func (m Model) where() string {
	ids := m.eng.Lesson.SectionIDs()
	passed := 0
	for _, id := range ids {
		if m.results[id].Status == check.Pass {
			passed++
		}
	}
	args := map[string]string{"step": itoa(indexOf(ids, m.pageID()) + 1), "total": itoa(len(ids)), "passed": itoa(passed)}
	if m.isSection(m.pageID()) {
		return i18n.T(m.lang, "ui.where_step", args)
	}
	return i18n.T(m.lang, "ui.where_done", args)
}

// statusLine: where the learner is, mode, language, work dir, Envoy's pid, and the latest message or question.
func (m Model) statusLine() string {
	// The work dir last: the longest, and the one a narrow line may cut.
	parts := []string{m.where(), i18n.T(m.lang, "mode."+string(m.eng.Env.Mode), nil), i18n.T(m.lang, "ui.lang_name", nil), m.eng.Env.WorkDir}
	if m.envoyPid > 0 {
		parts = append(parts, "Envoy pid "+itoa(m.envoyPid))
	}
	if st := m.setup; st != nil && !st.ended {
		parts = append([]string{i18n.T(m.lang, "ui.setup_running", map[string]string{"tool": st.last.Tool, "seconds": itoa(int(time.Since(st.start).Seconds()))})}, parts...)
	}
	line := strings.Join(parts, " · ")
	if text := m.statusText(); text != "" && len(m.popup.lines) == 0 { // else the popup holds it
		if m.confirm != confirmNone {
			line = text
		} else {
			line = text + " · " + line
		}
	}
	line = xansi.Truncate(line, m.width, "…")
	return m.styles.Status.Width(m.width).Render(line)
}

// keyState is the state the keys are read in now (the same order handleKey routes them in).
func (m Model) keyState() keyState {
	switch {
	case m.confirm != confirmNone:
		return stateQuestion
	case m.overlay == overlayHelp:
		return stateHelp
	case m.overlay == overlayDiff:
		return stateDiff
	case m.view == viewTools:
		return stateTools
	case m.pageID() == drillPage && m.view == viewPage && m.drill != nil && m.drill.d != nil:
		return [...]keyState{stateDrillClass, stateDrillField, stateDrillFix, stateDrillFix}[min(m.drill.stage, 3)]
	case m.run != nil && !m.run.ended:
		return stateRunning
	}
	return stateIdle
}

// keyLineLen is how many items the key line has before any is dropped.
func (m Model) keyLineLen() int {
	items, _ := keyLineItems(m.keyState(), m.lang)
	if st := m.keyState(); st != stateQuestion && st != stateHelp && st != stateDiff {
		return len(items) + 1
	}
	return len(items)
}

// keyLine is the keys that fire now, with their words: whole items only, cut from the middle
// when the line is short, so that ? (all keys) and q (quit) always show.
func (m Model) keyLine() string {
	items, pinned := keyLineItems(m.keyState(), m.lang)
	if st := m.keyState(); st != stateQuestion && st != stateHelp && st != stateDiff {
		// Which pane the scroll keys move: named, not only shown by a border's colour.
		items = append([]string{"▸ " + i18n.T(m.lang, "ui.focus."+[...]string{"prose", "output", "list"}[m.focus], nil)}, items...)
	}
	const sep = " · "
	line := func(items []string) string { return strings.Join(append(append([]string{}, items...), pinned...), sep) }
	for len(items) > 0 && xansi.StringWidth(line(items)+sep+"…") > m.width {
		items = items[:len(items)-1]
	}
	out := line(items)
	if n := m.keyLineLen(); len(items) < n {
		out = strings.Join(append(append(append([]string{}, items...), "…"), pinned...), sep)
	}
	return m.styles.Dim.Render(xansi.Truncate(out, m.width, "…"))
}

// fit makes text exactly h lines of at most w cells: cut what is over, pad what is short.
func fit(s string, w, h int) string {
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

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

package ui

// What the results of background work (start-up, checks, renders, the watcher, the shell) do
// to the tutorial when they land as messages.

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/watch"
)

// showStates takes every section's state as judged at start; a section checked before opens
// with its last verdict in the output pane.
func (m *Model) showStates(results []check.SectionResult) {
	m.setResults(results)
	if r, ok := m.results[m.pageID()]; ok && m.progress != nil && m.progress.Sections[r.ID] != nil && len(m.out.items) == 0 {
		m.out.items = checkItems([]check.SectionResult{r})
	}
	m.refreshOutput()
}

func (m *Model) setResults(results []check.SectionResult) {
	for _, r := range results {
		m.results[r.ID] = r
	}
}

// onRendered caches a rendering and shows it if it is what the prose pane wants now.
func (m Model) onRendered(msg renderedMsg) (tea.Model, tea.Cmd) {
	delete(m.prose.pending, msg.key)
	if msg.err != nil {
		m.message = i18n.M("ui.error", "error", msg.err.Error())
		return m, nil
	}
	m.prose.remember(msg.key, msg.text)
	if msg.key == m.wantKey() {
		m.showProse(msg.key, msg.text)
	}
	return m, nil
}

func (m Model) onChecked(msg checkedMsg) (tea.Model, tea.Cmd) {
	if msg.err != nil {
		m.message = i18n.M("ui.error", "error", msg.err.Error())
		return m, nil
	}
	if msg.progress != nil {
		m.progress = msg.progress
	}
	before := m.results[msg.section].Status
	m.setResults(msg.results)
	if r, ok := m.results[msg.section]; ok && msg.section == m.pageID() && r.Status == check.Pass && before != check.Pass {
		m.message = i18n.M("ui.passed_next") // a pass says so, and what comes next
	}
	// A run's output stays: a check after it, or one the watcher causes while the pane still
	// shows that run (its own writes arrive after it ended), puts the files' states below it.
	showsRun := msg.watch && m.run != nil && m.run.section == msg.section && m.out.section == msg.section
	switch {
	case (msg.afterRun || showsRun) && msg.section == m.pageID():
		kept := m.out.items[:0:0]
		for _, it := range m.out.items {
			if !it.brief {
				kept = append(kept, it)
			}
		}
		m.out.items = kept
		for _, it := range checkItems(msg.results) {
			it.brief = true
			m.out.items = append(m.out.items, it)
		}
		m.refreshOutput()
		m.out.vp.GotoBottom()
	case msg.section == m.pageID():
		m.out.section = ""
		m.out.items = checkItems(msg.results)
		m.refreshOutput()
		m.out.vp.GotoTop()
	case m.pageID() == m.eng.Lesson.Finish.ID:
		m.refreshOutput() // its idle line is the summary of these results
	}
	if m.overlay == overlayDiff {
		m.openDiff()
	}
	return m, m.ensureProse()
}

// onWatch re-checks the open section when one of its files was written from outside (another
// terminal, an editor), unless a run of it is writing them now: its end checks it.
func (m Model) onWatch(msg watchMsg) (tea.Model, tea.Cmd) {
	if !msg.open {
		return m, nil
	}
	if nm, cmd, done := m.watchNotice(msg); done {
		return nm, cmd
	}
	next := watchNextCmd(m.watcher)
	id := m.pageID()
	sec, ok := m.eng.Lesson.Section(id)
	if !ok || m.run != nil && !m.run.ended && m.run.section == id {
		return m, next
	}
	for _, f := range sec.Files {
		if slices.Contains(msg.names, f.Name) {
			return m, tea.Batch(next, quietCheckCmd(m.eng, id, false))
		}
	}
	if slices.Contains(msg.names, watch.Overflow) { // too many to name: judge it anyway
		return m, tea.Batch(next, quietCheckCmd(m.eng, id, false))
	}
	return m, next
}

// watchNotice says when the work dir went away (files saved there are not seen until it is back)
// and when it is watched again; the open section is then judged anew.
func (m Model) watchNotice(msg watchMsg) (Model, tea.Cmd, bool) {
	switch {
	case slices.Contains(msg.names, watch.DirGone):
		m.message = i18n.M("ui.watch_gone", "dir", m.eng.Env.WorkDir)
		return m, watchNextCmd(m.watcher), true
	case slices.Contains(msg.names, watch.DirBack):
		m.message = i18n.M("ui.watch_back", "dir", m.eng.Env.WorkDir)
		cmds := []tea.Cmd{watchNextCmd(m.watcher)}
		if m.isSection(m.pageID()) {
			cmds = append(cmds, quietCheckCmd(m.eng, m.pageID(), false))
		}
		return m, tea.Batch(cmds...), true
	}
	return m, nil, false
}

func (m Model) onShellDone(msg shellDoneMsg) (tea.Model, tea.Cmd) {
	if msg.err != nil {
		m.message = i18n.M("ui.shell_failed", "error", msg.err.Error())
		return m, nil
	}
	m.message = i18n.M("ui.shell_back")
	if id := m.pageID(); m.isSection(id) {
		return m, tea.Batch(checkCmd(m.eng, id), envoyCmd(m.eng))
	}
	return m, envoyCmd(m.eng)
}

// pageID is the id of the open page.
func (m Model) pageID() string { return m.pages[m.page] }

func (m Model) isSection(id string) bool {
	_, ok := m.eng.Lesson.Section(id)
	return ok
}

// pageCmds fetches what the open page needs besides its prose (the finish page's report).
func (m Model) pageCmds() tea.Cmd {
	switch {
	case m.pageID() == m.eng.Lesson.Finish.ID:
		return reportCmd(m.eng)
	case m.pageID() == drillPage && m.drill == nil:
		var avoid []string
		if m.progress != nil {
			avoid = m.progress.Drills.Avoid()
		}
		return drillNewCmd(m.eng, avoid)
	}
	return nil
}

package ui

// What the results of background work (start-up, checks, renders, the watcher, the shell) do
// to the tutorial when they land as messages.

import (
	"slices"

	"ist2-boot/ui/page"
	"ist2-boot/ui/page/tools"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/watch"
	"ist2-boot/ui/common"
	"ist2-boot/ui/pane/output"
)

func errorMsg(err error) i18n.Msg { return i18n.M("ui.error", "error", err.Error()) }

// onResult takes the result of a piece of work the engine did.
func (m Model) onResult(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case startedMsg:
		return m.onStarted(msg)
	case statesMsg:
		if msg.err != nil {
			m.status.message = errorMsg(msg.err)
			return m, nil
		}
		m.showStates(msg.results)
		return m, m.ensureProse()
	case checkedMsg:
		return m.onChecked(msg)
	case common.SavedMsg:
		if msg.Err != nil {
			m.status.message = errorMsg(msg.Err)
		} else if msg.Progress != nil {
			m.Progress = msg.Progress
		}
		// What the page shows may depend on what was saved (the drill record, hints).
		return m, m.ensureProse()
	case newLabMsg:
		if msg.err.Key != "" {
			m.status.message = msg.err
			return m, nil
		}
		m.status.message, m.Results = msg.done, map[string]check.SectionResult{}
		m.resetPages()
		if msg.progress != nil {
			m.Progress = msg.progress
		}
		return m, tea.Batch(checkAllCmd(m.Eng), m.ensureProse())
	case tools.FoundMsg:
		m.Tools, m.toolsPage = msg.Tools, m.toolsPage.Looked(msg.Fixtures)
		return m, m.ensureProse()
	case toolsLocatedMsg:
		return m.onToolsLocated(msg)
	case watchStartedMsg:
		m.session.watcher = msg.w
		return m, watchNextCmd(msg.w)
	case watchMsg:
		return m.onWatch(msg)
	case shellDoneMsg:
		return m.onShellDone(msg)
	case envoyMsg:
		m.session.envoyPid = 0
		if msg.running {
			m.session.envoyPid = msg.pid
		}
		return m, nil
	}
	return m, nil
}

// showStates takes every section's state as judged at start; a section checked before opens
// with its last verdict in the output pane.
func (m *Model) showStates(results []check.SectionResult) {
	m.setResults(results)
	if r, ok := m.Results[m.pageID()]; ok && m.Progress != nil && m.Progress.Sections[r.ID] != nil && len(m.out.Items()) == 0 {
		m.out.Show(m.out.Section(), output.CheckItems([]check.SectionResult{r}))
	}
	m.refreshOutput()
}

// setResults records verdicts in a new map: earlier models keep theirs.
func (m *Model) setResults(results []check.SectionResult) {
	next := make(map[string]check.SectionResult, len(m.Results)+len(results))
	for id, r := range m.Results {
		next[id] = r
	}
	for _, r := range results {
		next[r.ID] = r
	}
	m.Results = next
}

// staleAfterCheck are the status messages about a check's outcome or one under way, which a new
// result of the page makes untrue.
var staleAfterCheck = []string{"ui.no_diff", "ui.no_diff_yet", "ui.shell_back", "ui.passed_next", "ui.check_first", "ui.watch_back"}

func (m Model) onChecked(msg checkedMsg) (Model, tea.Cmd) {
	if msg.err != nil {
		m.status.message = errorMsg(msg.err)
		return m, nil
	}
	if msg.progress != nil {
		m.Progress = msg.progress
	}
	before := m.Results[msg.section].Status
	m.setResults(msg.results)
	if msg.section == m.pageID() && slices.Contains(staleAfterCheck, m.status.message.Key) {
		m.status.message = i18n.Msg{} // what the last check said, or that one is coming: now old (zh r11 M4)
	}
	if r, ok := m.Results[msg.section]; ok && msg.section == m.pageID() && r.Status == check.Pass && before != check.Pass {
		m.status.message = i18n.M("ui.passed_next") // a pass says so, and what comes next
	}
	// A run's output stays: a check after it, or one the watcher causes while the pane still
	// shows that run (its own writes arrive after it ended), puts the files' states below it.
	runShown := msg.watch && m.runner.task != nil && m.runner.section == msg.section && m.out.Section() == msg.section
	restored := m.out.Section() == msg.section && m.session.runOutput[msg.section] != nil // a run kept for the page
	switch {
	case (msg.afterRun || runShown || restored) && msg.section == m.pageID():
		m.out.WithStates(msg.results)
		m.refreshOutput()
		m.out.GotoBottom()
	case msg.section == m.pageID():
		m.out.Show("", output.CheckItems(msg.results))
		m.refreshOutput()
		m.out.GotoTop()
	default:
		m.refreshOutput() // an idle line may sum these results up (the finish page's)
	}
	if m.overlay == overlayDiff {
		m.openDiff()
	}
	return m, m.ensureProse()
}

// onWatch re-checks the open section when one of its files was written from outside (another
// terminal, an editor), unless a run of it is writing them now: its end checks it.
func (m Model) onWatch(msg watchMsg) (Model, tea.Cmd) {
	if !msg.open {
		return m, nil
	}
	next := watchNextCmd(m.session.watcher)
	id := m.pageID()
	switch {
	case slices.Contains(msg.names, watch.DirGone): // files saved there are not seen until it is back
		m.status.message = i18n.M("ui.watch_gone", "dir", m.Eng.Env.WorkDir)
		return m, next
	case slices.Contains(msg.names, watch.DirBack):
		m.status.message = i18n.M("ui.watch_back", "dir", m.Eng.Env.WorkDir)
		if _, ok := m.section(); ok {
			return m, tea.Batch(next, quietCheckCmd(m.Eng, id, false))
		}
		return m, next
	}
	// Every section a saved file belongs to is judged again, the open one or not: a page opened
	// later must not show the verdict its file had before (zh r18 M4). A section being run is
	// judged at the run's end.
	cmds := []tea.Cmd{next}
	overflow := slices.Contains(msg.names, watch.Overflow) // too many to name: the open one anyway
	for _, pid := range m.Eng.Lesson.PageIDs() {
		sec, ok := m.Eng.Lesson.Section(pid)
		if !ok || m.runner.runs(pid) {
			continue
		}
		if overflow && pid == id || slices.ContainsFunc(sec.Files, func(f steps.FileSpec) bool { return slices.Contains(msg.names, f.Name) }) {
			cmds = append(cmds, quietCheckCmd(m.Eng, pid, false))
		}
	}
	return m, tea.Batch(cmds...)
}

func (m Model) onShellDone(msg shellDoneMsg) (Model, tea.Cmd) {
	if msg.err != nil {
		m.status.message = i18n.M("ui.shell_failed", "error", msg.err.Error())
		return m, nil
	}
	m.status.message = i18n.M("ui.shell_back")
	if sec, ok := m.section(); ok {
		return m, tea.Batch(checkCmd(m.Eng, sec.ID), envoyCmd(m.Eng))
	}
	return m, envoyCmd(m.Eng)
}

// onToolsLocated takes the tools as just found — keeping the versions already known of the same
// programs — re-judges every section when what is there changed, and goes on with the r that asked.
func (m Model) onToolsLocated(msg toolsLocatedMsg) (Model, tea.Cmd) {
	changed := false
	for i, t := range msg.tools {
		old := m.Tools.Get(t.Name)
		if old.Found == t.Found && old.Path == t.Path {
			msg.tools[i] = old
		} else {
			changed = true
		}
	}
	m.Tools = msg.tools
	var cmds []tea.Cmd
	if changed && m.session.started {
		cmds = append(cmds, checkAllCmd(m.Eng))
	}
	if msg.then == "run" {
		nm, cmd := m.askRun()
		return nm, tea.Batch(append(cmds, cmd)...)
	}
	return m, tea.Batch(cmds...)
}

// pageID is the id of the open page.
func (m Model) pageID() string { return m.nav.pageID() }

// resetPages forgets what every page kind drew or read (a new lab).
func (m *Model) resetPages() {
	pages := make([]page.Page, len(m.pages))
	for i, p := range m.pages {
		pages[i] = p.Reset()
	}
	m.pages = pages
}

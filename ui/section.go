package ui

// A section's actions — run its reference commands, check it, see its diff, take a hint — and
// what the root does when the runner's or the install's task reports.

import (
	"strings"

	"ist2-boot/steps/check"

	"ist2-boot/ui/page/tools"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/ui/overlay/diff"
	"ist2-boot/ui/pane/output"
)

// askRun shows the section's reference commands in the output pane and asks to confirm; a
// section that needs a missing tool says which and how to get it instead.
func (m Model) askRun() (Model, tea.Cmd) {
	sec, ok := m.section()
	if !ok {
		m.status.message = i18n.M("ui.not_a_section")
		return m, nil
	}
	var show tea.Cmd
	if m.reveal(sec.ID) { // asked for: the page shows them from now on
		show = m.ensureProse()
	}
	if m.runner.running() {
		m.status.message = i18n.M("ui.busy")
		return m, show
	}
	// A missing tool: before the first step nothing can run, so say so instead of asking; before
	// a later step, the run stops there, and the question says it will.
	var warn []output.Item
	for i, st := range sec.Steps {
		if tool := m.Tools.Missing(st.Tools); tool != "" {
			// Said before anything runs: what will happen, not what did (ko r11 M5).
			w := output.Message(i18n.M("run.will_stop_tool", "step", itoa(i+1), "tool", tool, "how", i18n.Ref("run.how_to_get")))
			if i == 0 && tool == "envoy" && st.WithoutEnvoy != "" {
				// Nothing will run and nothing is moved: the run says so and shows what the lesson
				// still has without Envoy (its model's values, the offline check), as `run` does
				// (zh r20 L24).
				m, run := m.startRun()
				return m, tea.Batch(show, run)
			}
			if i == 0 {
				w = output.Message(i18n.M("run.cannot_start_tool", "tool", tool, "how", i18n.Ref("run.how_to_get")))
				m.out.Show(m.pageID(), []output.Item{w})
				m.refreshOutput()
				return m, show
			}
			warn = append(warn, w)
			break
		}
	}
	m.out.Show(m.pageID(), append(append(output.CommandItems(sec), warn...), output.Prompt("ui.confirm_run")))
	m.status.question, m.status.message = askRun, i18n.Msg{} // "n: next page" would contradict n: cancel (zh r18 M3)
	m.refreshOutput()
	m.out.GotoBottom()
	return m, show
}

// startRun begins the confirmed run; the output pane follows it live.
func (m Model) startRun() (Model, tea.Cmd) {
	var cmd tea.Cmd
	m.runner, cmd = m.runner.start(m.Common, m.pageID())
	m.out.Show(m.pageID(), nil)
	m.refreshOutput()
	return m, cmd
}

// onRun follows the runner's task: its lines into the output pane (followed when it is at the
// bottom), its end judged quietly and, when the learner was leaving, the leaving goes on.
func (m Model) onRun(msg tea.Msg) (Model, tea.Cmd) {
	follow := m.out.AtBottom()
	var ended *runEnded
	var items []output.Item
	var cmd tea.Cmd
	m.runner, items, ended, cmd = m.runner.update(msg)
	m.out.Append(items)
	if ended == nil {
		if m.out.Section() == m.runner.section {
			m.refreshOutput()
			if follow {
				m.out.GotoBottom()
			}
		}
		return m, cmd
	}
	endedMsg := i18n.M("ui.run_ended", append([]string{"code", itoa(ended.result.ExitCode)}, i18n.ElapsedArgs("took", ended.elapsed)...)...)
	if ended.result.MissingTool != "" || ended.result.MissingInput != "" || ended.result.Cancelled || ended.result.TimedOut { // the line above says why it stopped
		endedMsg = i18n.M("ui.run_stopped")
	}
	m.out.Append([]output.Item{output.Message(endedMsg)})
	m.refreshOutput()
	m.out.GotoBottom()
	if m.status.question == askQuit { // "commands are running" is no longer true (ja r12 L32), but the
		m.status.question = askQuitIdle // learner's y or n is on its way: asked without the run (ko r16)
	}
	if m.session.quitting { // the learner quit while it ran: now it has stopped, go on leaving
		return m.leave()
	}
	return m, tea.Batch(envoyCmd(m.Eng), quietCheckCmd(m.Eng, ended.section, true))
}

// installMissing starts `setup` from the tools page; the output pane follows it.
func (m Model) installMissing() (Model, tea.Cmd) {
	if m.toolsPage.Installing() {
		m.status.message = i18n.M("ui.busy")
		return m, nil
	}
	var cmd tea.Cmd
	m.toolsPage, cmd = m.toolsPage.Install(m.Common, tools.Setup(m.Common))
	m.out.Show(tools.ID, nil)
	m.refreshOutput()
	return m, cmd
}

// onInstall follows the install: its events into the output pane; at its end the tools found,
// and every section judged again.
func (m Model) onInstall(msg tea.Msg) (Model, tea.Cmd) {
	var done *tools.Result
	var items []output.Item
	var cmd tea.Cmd
	m.toolsPage, items, done, cmd = m.toolsPage.Update(msg)
	m.out.Append(items)
	if done == nil {
		if m.out.Section() == tools.ID {
			m.refreshOutput()
			m.out.GotoBottom()
		}
		return m, cmd
	}
	if m.session.quitting { // q came while it ran: now it has stopped, go on leaving
		return m.leave()
	}
	if done.Tools != nil {
		m.Tools = done.Tools
	}
	m.status.message = i18n.M("ui.setup_done")
	var missing []string
	for _, t := range done.Tools {
		if !t.Found {
			missing = append(missing, t.Name)
		}
	}
	if len(missing) > 0 { // never "done" when something is still missing (the newcomer's L2)
		m.status.message = i18n.M("ui.setup_missing", "tools", strings.Join(missing, ", "))
	}
	if done.Err != nil {
		m.status.message = errorMsg(done.Err)
	}
	return m, tea.Batch(m.ensureProse(), checkAllCmd(m.Eng))
}

// check judges the open section (and looks the tools up again).
func (m Model) check() (Model, tea.Cmd) {
	sec, ok := m.section()
	if !ok {
		m.status.message = i18n.M("ui.not_a_section")
		return m, nil
	}
	return m, tea.Batch(checkCmd(m.Eng, sec.ID), locateToolsCmd(m.Eng, ""))
}

// openDiff opens the diff view on the open section's last check, or says why it cannot.
func (m *Model) openDiff() {
	r, checked := m.Results[m.pageID()]
	if _, ok := m.section(); !checked || !ok {
		m.overlay = overlayNone
		m.status.message = i18n.M("ui.check_first")
		return
	}
	files := diff.FilesWithDiff(r)
	if len(files) == 0 {
		// Why there is nothing to show: all as expected, or a file not there yet — "no
		// differences" read as "your files match" (zh r9 M9).
		m.overlay = overlayNone
		m.status.message = i18n.M("ui.no_diff")
		for _, f := range r.Files {
			if f.Status != check.Pass {
				m.status.message = i18n.M("ui.no_diff_yet")
			}
		}
		return
	}
	m.diff = m.diff.Open(m.Common, files, m.overlay == overlayDiff)
	m.overlay = overlayDiff
}

// nextHint reveals one more hint of the section and saves how many were used.
func (m Model) nextHint() (Model, tea.Cmd) {
	sec, ok := m.section()
	if !ok {
		m.status.message = i18n.M("ui.no_hints_here")
		return m, nil
	}
	id := sec.ID
	n := m.HintsUsed(id)
	if n >= len(sec.Hints) {
		m.status.message = i18n.M("ui.no_more_hints")
		return m, nil
	}
	m.status.message = i18n.M("ui.hint_n", "n", itoa(n+1), "total", itoa(len(sec.Hints)))
	// Show it now: progress is updated here and saved by the command.
	m.Progress = withHints(m.Progress, id, n+1)
	m.prose.ShowHint(i18n.T(m.Lang, "hints.title", nil), n+1)
	return m, tea.Batch(m.ensureProse(), m.Eng.SaveCmd(func(p *progress.Progress) {
		sp := p.Sections[id]
		if sp == nil {
			sp = &progress.SectionProgress{}
			p.Sections[id] = sp
		}
		sp.HintsUsed = max(sp.HintsUsed, n+1)
	}))
}

// withHints returns a copy of p with a section's hints used set, leaving p (shared with earlier
// models) untouched.
func withHints(p *progress.Progress, id string, n int) *progress.Progress {
	cp := &progress.Progress{Sections: map[string]*progress.SectionProgress{}}
	if p != nil {
		c := *p
		cp = &c
		cp.Sections = make(map[string]*progress.SectionProgress, len(p.Sections))
		for k, v := range p.Sections {
			vv := *v
			cp.Sections[k] = &vv
		}
	}
	sp := cp.Sections[id]
	if sp == nil {
		sp = &progress.SectionProgress{}
		cp.Sections[id] = sp
	}
	sp.HintsUsed = n
	return cp
}

// reveal marks a section's reference commands as asked for; true when they were not yet.
func (m *Model) reveal(id string) bool {
	if m.Revealed[id] {
		return false
	}
	next := make(map[string]bool, len(m.Revealed)+1) // earlier models keep theirs
	for k, v := range m.Revealed {
		next[k] = v
	}
	next[id] = true
	m.Revealed = next
	return true
}

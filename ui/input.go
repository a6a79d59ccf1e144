package ui

import (
	"slices"
	"time"

	"ist2-boot/ui/page"
	"ist2-boot/ui/page/tools"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/ui/keys"
	"ist2-boot/ui/pane/output"
)

// syncKeys enables the bindings that fire in the state the model is in now: a question takes
// only y and n; an overlay takes its own keys (and ?, and l in the diff view); on a page, the
// root's, the focused pane's, and the open page's. No two enabled bindings share a key (the
// collision test walks every state).
func (m *Model) syncKeys() {
	asking := m.status.asking()
	onPage := !asking && m.overlay == overlayNone
	helpOpen, diffOpen := !asking && m.overlay == overlayHelp, !asking && m.overlay == overlayDiff
	running := m.runner.running()
	// A page kind with keys of its own on the section actions' letters takes them while it is read.
	actions := m.kind(m.pageID()).Actions() || m.nav.view != viewPage
	k := &m.keys
	keys.Enable(asking, &k.Yes, &k.No)
	// The answers say what they do, in the question's own words (「y 実行 · n 取り消し」), not
	// yes and no (zh D1, ja U6, ko L21).
	if verbs, ok := answerVerbs[m.status.question]; ok {
		k.Yes.SetLabel(verbs[0])
		k.No.SetLabel(verbs[1])
	}
	keys.Enable(onPage, &k.Next, &k.Prev, &k.Focus, &k.Glossary, &k.Doctor, &k.Suspend)
	// On the glossary and the tools page q closes them, as it closes the help and the diff view;
	// it leaves the tutorial only from a page (ko r7 M11).
	keys.Enable(onPage && m.nav.view == viewPage, &k.Quit)
	keys.Enable(onPage && actions, &k.Run, &k.Shell, &k.Check, &k.Diff, &k.Hint)
	keys.Enable(onPage || diffOpen, &k.Lang)
	keys.Enable(onPage || diffOpen || helpOpen, &k.Help)
	keys.Enable(onPage && !running, &k.QuitCtrlC)
	keys.Enable(onPage && running, &m.runner.keys.Cancel)
	m.toolsPage.Enable(onPage && m.nav.view == viewTools)
	keys.Enable(onPage && m.nav.view == viewGlossary, &k.GlossaryClose)
	m.enablePageKeys(page.At{ID: m.pageID(), Keys: onPage, Reading: m.nav.view == viewPage, Tools: m.nav.view == viewTools})
	m.diff.Enable(diffOpen)
	m.help.Enable(helpOpen)
	keys.Enable(onPage && m.nav.focus == focusProse, m.prose.Keys().All()...)
	keys.Enable(onPage && m.nav.focus == focusOutput, m.out.Keys().All()...)
	keys.Enable(onPage && m.nav.focus == focusList, append(m.nav.keys.scroll.All(), &m.nav.keys.Open)...)
}

// handleKey routes a key to the one enabled binding it fires: the root's own, or the component's
// whose binding it is.
func (m Model) handleKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	if m.session.quitting {
		return m, nil
	}
	k := m.keys
	switch {
	case keys.Matches(msg, k.Yes, k.No):
		return m.answer(msg)
	case keys.Matches(msg, k.Help):
		if m.overlay == overlayHelp {
			m.overlay, m.help = overlayNone, m.help.Reset()
			return m, nil
		}
		m.overlay = overlayHelp
		m.help = m.help.Layout(m.Common, m.helpRows())
		return m, nil
	case keys.Matches(msg, k.Lang):
		return m.switchLang()
	case m.overlay == overlayHelp:
		var closed bool
		if m.help, closed = m.help.Update(msg, m.geometry().bodyH); closed {
			m.overlay = overlayNone
		}
		return m, nil
	case m.overlay == overlayDiff:
		var closed bool
		if m.diff, closed = m.diff.Update(m.Common, msg); closed {
			m.overlay = overlayNone
		}
		return m, nil
	case m.firesPageKey(msg):
		return m.toPage(m.kindOf(m.pageID()), m.pageID(), msg)
	}
	return m.pageKey(msg)
}

// pageKey: a key on a page (a lesson page, the drill page, the glossary or the tools page).
func (m Model) pageKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.keys
	switch {
	case keys.Matches(msg, m.runner.keys.Cancel):
		m.runner.stop()
	case keys.Matches(msg, k.Quit, k.QuitCtrlC):
		return m.quit()
	case keys.Matches(msg, k.Suspend) && m.Eng.Suspend != nil:
		suspend := m.Eng.Suspend
		return m, func() tea.Msg { suspend(); return nil } // fg repaints (tea.ResumeMsg)
	case keys.Matches(msg, k.Next):
		return m.openPage(m.nav.page + 1)
	case keys.Matches(msg, k.Prev):
		return m.openPage(m.nav.page - 1)
	case keys.Matches(msg, k.Focus):
		m.nav.focus = (m.nav.focus + 1) % 3
	case keys.Matches(msg, k.Glossary, k.GlossaryClose):
		m.prose.KeepScroll()
		m.nav = m.nav.toggle(viewGlossary)
		m.prose.Forget()
		return m, m.ensureProse()
	case keys.Matches(msg, k.Doctor, m.toolsPage.Back()):
		m.nav = m.nav.toggle(viewTools)
		if m.nav.view != viewTools {
			return m, m.ensureProse()
		}
		return m, tea.Batch(tools.LookCmd(m.Eng), m.ensureProse()) // fresh versions as it opens
	case keys.Matches(msg, m.toolsPage.InstallKey()):
		return m.installMissing()
	case keys.Matches(msg, k.Run):
		return m, locateToolsCmd(m.Eng, "run") // then askRun, with the tools as they are now
	case keys.Matches(msg, k.Shell):
		if m.runner.running() {
			m.status.message = i18n.M("ui.busy")
			return m, nil
		}
		return m, shellCmd(m.Eng, m.Tools)
	case keys.Matches(msg, k.Check):
		return m.check()
	case keys.Matches(msg, k.Diff):
		m.openDiff()
	case keys.Matches(msg, k.Hint):
		return m.nextHint()
	case keys.Matches(msg, m.nav.keys.Open, m.nav.keys.scroll.Up, m.nav.keys.scroll.Down, m.nav.keys.scroll.Top, m.nav.keys.scroll.Bottom):
		var open int
		m.nav, open = m.nav.listUpdate(msg)
		if open >= 0 {
			return m.openPage(open)
		}
	default:
		m.prose, _ = m.prose.Update(msg)
		m.out, _ = m.out.Update(msg)
	}
	return m, nil
}

// answer takes y or n for the pending question.
func (m Model) answer(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	asked := m.status.question
	m.status.question = noQuestion
	if keys.Matches(msg, m.keys.No) {
		if asked == askRun {
			m.out.Show("", nil)
			m.refreshOutput()
		}
		return m, nil
	}
	switch asked {
	case askQuit, askQuitIdle:
		m.runner.stop()
		return m.leave()
	case askNewLab:
		return m, newLabCmd(m.Eng)
	}
	return m.startRun()
}

func (m Model) quit() (Model, tea.Cmd) {
	if m.runner.running() {
		m.status.question = askQuit
		return m, nil
	}
	return m.leave()
}

// leave quits, first stopping (and saying so) the run, the install and the Envoy a run of this
// tutorial started.
func (m Model) leave() (Model, tea.Cmd) {
	m.session.quitting = true
	if m.runner.running() || m.toolsPage.Installing() || m.pagesBusy() {
		// Told to stop; quit once they have, so no process of their groups outlives us, an
		// interrupted install leaves nothing half-written, and a drill's Envoy is stopped.
		m.runner.stop()
		m.toolsPage.Stop()
		for _, p := range m.pages {
			p.Stop()
		}
		m.status.message = i18n.M("ui.quit_after_run")
		return m, nil
	}
	if m.session.watcher != nil {
		m.session.watcher.Close()
	}
	m.prose.KeepScroll()
	scroll, line, width := m.prose.Position()
	keep := m.Eng.SaveCmd(func(p *progress.Progress) { // where the reader was
		p.Scroll, p.ScrollLine, p.ScrollWidth = scroll, line, width
	})
	// Whether an Envoy of ours runs is the record's to say (a run that failed or was cancelled
	// still recorded the one it started): stopEnvoyCmd asks it, stops only that one, then quits.
	if pid := m.session.envoyPid; pid > 0 {
		m.status.message = i18n.M("ui.envoy_stopping", "pid", itoa(pid))
	}
	return m, tea.Sequence(keep, stopEnvoyCmd(m.Eng))
}

// switchLang cycles ko → zh → ja in place: same page, same relative scroll, every string anew.
func (m Model) switchLang() (Model, tea.Cmd) {
	i := slices.Index(i18n.Langs, m.Lang)
	m.Lang = i18n.Langs[(i+1)%len(i18n.Langs)]
	m.prose.KeepScroll()
	m.refreshOutput()
	if m.overlay == overlayDiff {
		m.diff.Refresh(m.Common)
	}
	lang := m.Lang
	return m, tea.Batch(m.ensureProse(), m.Eng.SaveCmd(func(p *progress.Progress) { p.Lang = lang }))
}

// openPage opens page i (clamped), remembering it as the last open section.
func (m Model) openPage(i int) (Model, tea.Cmd) {
	i = max(0, min(i, len(m.nav.pages)-1))
	if i == m.nav.page && m.nav.view != viewGlossary {
		return m, nil
	}
	m.nav.page, m.nav.cursor, m.nav.view = i, i, viewPage
	m.prose.Forget()
	m.nav.focus = focusProse      // a page opens to be read
	m.status.message = i18n.Msg{} // news of the page left stays there
	if m.out.Section() != m.pageID() && !m.runner.running() {
		if left := m.out.Section(); left != "" && left != tools.ID && output.ShowsRun(m.out.Items()) {
			if m.session.runOutput == nil {
				m.session.runOutput = map[string][]output.Item{}
			}
			m.session.runOutput[left] = m.out.Items() // the pane's slice: show replaces it, never edits it
		}
		m.out.Show("", nil)
		if kept, ok := m.session.runOutput[m.pageID()]; ok {
			m.out.Show(m.pageID(), kept)
		} else if r, ok := m.Results[m.pageID()]; ok {
			m.out.Show("", output.CheckItems([]check.SectionResult{r}))
		}
		m.refreshOutput()
	}
	id := m.pageID()
	_, section := m.section()
	now := time.Now()
	return m, tea.Batch(m.ensureProse(), m.pageCmds(), locateToolsCmd(m.Eng, ""), m.Eng.SaveCmd(func(p *progress.Progress) {
		p.LastSection = id
		if section {
			progress.RecordOpen(id, now)(p)
		}
	}))
}

// handleWheel scrolls the pane under the pointer (prose or output by row; the diff view when open).
func (m Model) handleWheel(msg tea.MouseWheelMsg) Model {
	g := m.geometry()
	n := 0
	switch msg.Button {
	case tea.MouseWheelUp:
		n = -3
	case tea.MouseWheelDown:
		n = 3
	}
	switch {
	case m.overlay == overlayDiff:
		m.diff.Wheel(n)
	case g.proseH <= msg.Y && msg.Y < m.Height-2 && (g.wide || msg.Y >= g.listH+g.proseH):
		m.out.Wheel(n)
	default:
		m.prose.Wheel(n)
	}
	return m
}

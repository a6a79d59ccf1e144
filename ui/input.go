package ui

import (
	"path/filepath"
	"slices"
	"time"

	"ist2-boot/steps"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
)

// handleKey routes a key: a pending question takes it first, then an open overlay, then the
// global bindings, then the focused pane.
func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	if m.quitting {
		return m, nil
	}
	if m.confirm != confirmNone {
		return m.answer(msg)
	}
	if m.overlay == overlayHelp {
		if key.Matches(msg, k.Close, k.Help) {
			m.overlay, m.help.top = overlayNone, 0
			return m, nil
		}
		m.scrollHelp(msg)
		return m, nil
	}
	if m.overlay == overlayDiff {
		return m.diffKey(msg)
	}
	running := m.run != nil && !m.run.ended
	if m.pageID() == drillPage && m.view == viewPage {
		if nm, cmd, handled := m.drillKey(msg); handled {
			return nm, cmd
		}
	}
	switch {
	case key.Matches(msg, k.Cancel) && running:
		m.run.stop()
		return m, nil
	case key.Matches(msg, k.Quit, k.QuitCtrlC):
		return m.quit()
	case key.Matches(msg, k.Suspend) && m.eng.Suspend != nil:
		suspend := m.eng.Suspend
		return m, func() tea.Msg { suspend(); return nil } // fg repaints (tea.ResumeMsg)
	case key.Matches(msg, k.Help):
		m.overlay = overlayHelp
		m.layoutHelp()
	case key.Matches(msg, k.Lang):
		return m.switchLang()
	case key.Matches(msg, k.Next):
		return m.openPage(m.page + 1)
	case key.Matches(msg, k.Prev):
		return m.openPage(m.page - 1)
	case key.Matches(msg, k.Focus):
		m.focus = (m.focus + 1) % 3
	case key.Matches(msg, k.Glossary):
		m.keepScroll()
		m.toggleView(viewGlossary)
		m.prose.restore = false
		return m, m.ensureProse()
	case key.Matches(msg, k.Doctor), key.Matches(msg, k.Back) && m.view == viewTools:
		return m.toggleDoctor()
	case key.Matches(msg, k.NewLab) && m.pageID() == m.eng.Lesson.Finish.ID:
		if m.eng.Env.Mode == steps.LabMode || m.eng.Env.Fixtures != filepath.Join(m.eng.Env.DataDir, "fixtures") {
			m.message = i18n.M("newlab.lab_mode", "dir", m.eng.Env.Fixtures)
			return m, nil
		}
		m.confirm = confirmNewLab
		return m, nil
	case key.Matches(msg, k.Again) && m.pageID() == m.eng.Lesson.Finish.ID:
		if id, ok := m.reviewNext(); ok {
			return m.openPage(slices.Index(m.pages, id))
		}
	case key.Matches(msg, k.Install) && m.view == viewTools:
		return m.installMissing()
	case key.Matches(msg, k.Run):
		return m, locateToolsCmd(m.eng, "run") // then askRun, with the tools as they are now
	case key.Matches(msg, k.Shell):
		if running {
			m.message = i18n.M("ui.busy")
			return m, nil
		}
		return m, shellCmd(m.eng, m.tools)
	case key.Matches(msg, k.Check):
		if !m.isSection(m.pageID()) {
			m.message = i18n.M("ui.not_a_section")
			return m, nil
		}
		return m, tea.Batch(checkCmd(m.eng, m.pageID()), locateToolsCmd(m.eng, ""))
	case key.Matches(msg, k.Diff):
		m.openDiff()
	case key.Matches(msg, k.Hint):
		return m.nextHint()
	case m.focus == focusList:
		return m.listKey(msg)
	default:
		m.scroll(m.focusedViewport(), msg)
	}
	return m, nil
}

// answer takes y or n for the pending question.
func (m Model) answer(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	asked := m.confirm
	switch {
	case key.Matches(msg, m.keys.Yes):
		m.confirm = confirmNone
		if asked == confirmQuit {
			if m.run != nil && !m.run.ended {
				m.run.stop()
			}
			return m.leave()
		}
		if asked == confirmNewLab {
			return m, newLabCmd(m.eng)
		}
		return m.startRun()
	case key.Matches(msg, m.keys.No):
		m.confirm = confirmNone
		if asked == confirmRun {
			m.out.items, m.out.section = nil, ""
			m.refreshOutput()
		}
	}
	return m, nil
}

func (m Model) quit() (tea.Model, tea.Cmd) {
	if m.run != nil && !m.run.ended {
		m.confirm = confirmQuit
		return m, nil
	}
	return m.leave()
}

// leave quits, first stopping (and saying so) the Envoy a run of this tutorial started.
func (m Model) leave() (tea.Model, tea.Cmd) {
	m.quitting = true
	if m.run != nil && !m.run.ended {
		// The run was told to stop; quit once it has, so no process of its group outlives us.
		m.run.stop()
		m.message = i18n.M("ui.quit_after_run")
		return m, nil
	}
	if m.setup != nil && !m.setup.ended && m.setup.job != nil {
		// An interrupted install leaves nothing half-written; quit once its processes are gone.
		m.setup.job.cancel()
		m.message = i18n.M("ui.quit_after_run")
		return m, nil
	}
	if m.watcher != nil {
		m.watcher.Close()
	}
	m.keepScroll()
	scroll := m.prose.scrollFrac
	keep := saveCmd(m.eng, func(p *progress.Progress) { p.Scroll = scroll }) // where the reader was
	if m.envoyOurs && m.envoyPid > 0 {
		m.message = i18n.M("ui.envoy_stopping", "pid", itoa(m.envoyPid))
		return m, tea.Batch(keep, stopEnvoyCmd(m.eng))
	}
	return m, tea.Sequence(keep, tea.Quit)
}

// switchLang cycles ko → zh → ja in place: same page, same relative scroll, every string anew.
func (m Model) switchLang() (tea.Model, tea.Cmd) {
	i := slices.Index(i18n.Langs, m.lang)
	m.lang = i18n.Langs[(i+1)%len(i18n.Langs)]
	m.keepScroll()
	m.refreshOutput()
	if m.overlay == overlayDiff {
		m.diff.refresh(&m)
	}
	if m.overlay == overlayHelp {
		m.layoutHelp()
	}
	lang := m.lang
	return m, tea.Batch(m.ensureProse(), saveCmd(m.eng, func(p *progress.Progress) { p.Lang = lang }))
}

// openPage opens page i (clamped), remembering it as the last open section.
func (m Model) openPage(i int) (tea.Model, tea.Cmd) {
	i = max(0, min(i, len(m.pages)-1))
	if i == m.page && m.view != viewGlossary {
		return m, nil
	}
	m.page, m.cursor, m.view, m.prose.restore = i, i, viewPage, false
	m.focus = focusProse   // a page opens to be read
	m.message = i18n.Msg{} // news of the page left stays there
	if m.out.section != m.pageID() && (m.run == nil || m.run.ended) {
		m.out.items, m.out.section = nil, ""
		if r, ok := m.results[m.pageID()]; ok {
			m.out.items = checkItems([]check.SectionResult{r})
		}
		m.refreshOutput()
	}
	id, section := m.pageID(), m.isSection(m.pageID())
	now := time.Now()
	return m, tea.Batch(m.ensureProse(), m.pageCmds(), locateToolsCmd(m.eng, ""), saveCmd(m.eng, func(p *progress.Progress) {
		p.LastSection = id
		if section {
			progress.RecordOpen(id, now)(p)
		}
	}))
}

func (m Model) listKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch {
	case key.Matches(msg, m.keys.Up):
		m.cursor = max(0, m.cursor-1)
	case key.Matches(msg, m.keys.Down):
		m.cursor = min(len(m.pages)-1, m.cursor+1)
	case key.Matches(msg, m.keys.Top):
		m.cursor = 0
	case key.Matches(msg, m.keys.Bottom):
		m.cursor = len(m.pages) - 1
	case key.Matches(msg, m.keys.Open):
		return m.openPage(m.cursor)
	}
	return m, nil
}

func (m *Model) focusedViewport() *viewport.Model {
	if m.focus == focusOutput {
		return &m.out.vp
	}
	return &m.prose.vp
}

// scroll moves a viewport by the scroll keys.
func (m Model) scroll(vp *viewport.Model, msg tea.KeyPressMsg) {
	switch k := m.keys; {
	case key.Matches(msg, k.Up):
		vp.ScrollUp(1)
	case key.Matches(msg, k.Down):
		vp.ScrollDown(1)
	case key.Matches(msg, k.PageUp):
		vp.PageUp()
	case key.Matches(msg, k.PageDown):
		vp.PageDown()
	case key.Matches(msg, k.Top):
		vp.GotoTop()
	case key.Matches(msg, k.Bottom):
		vp.GotoBottom()
	}
}

// handleWheel scrolls the pane under the pointer's column side (prose or output by row).
func (m Model) handleWheel(msg tea.MouseWheelMsg) (tea.Model, tea.Cmd) {
	vp := &m.prose.vp
	switch {
	case m.overlay == overlayDiff:
		vp = &m.diff.vp
	case m.geometry().proseH <= msg.Y && msg.Y < m.height-2 && (m.geometry().wide || msg.Y >= m.geometry().listH+m.geometry().proseH):
		vp = &m.out.vp
	}
	switch msg.Button {
	case tea.MouseWheelUp:
		vp.ScrollUp(3)
	case tea.MouseWheelDown:
		vp.ScrollDown(3)
	}
	return m, nil
}

// nextHint reveals one more hint of the section and saves how many were used.
func (m Model) nextHint() (tea.Model, tea.Cmd) {
	id := m.pageID()
	sec, ok := m.eng.Lesson.Section(id)
	if !ok {
		m.message = i18n.M("ui.no_hints_here")
		return m, nil
	}
	n := m.hintsUsed(id)
	if n >= len(sec.Hints) {
		m.message = i18n.M("ui.no_more_hints")
		return m, nil
	}
	m.message = i18n.M("ui.hint_n", "n", itoa(n+1), "total", itoa(len(sec.Hints)))
	// Show it now: progress is updated here and saved by the command.
	m.progress = withHints(m.progress, id, n+1)
	m.keepScroll()
	m.prose.scrollFrac, m.prose.restore = 1, true // the new hint is at the end
	return m, tea.Batch(m.ensureProse(), saveCmd(m.eng, func(p *progress.Progress) {
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

package ui

import (
	"maps"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps/i18n"
	"ist2-boot/steps/run"
)

func itoa(n int) string { return strconv.Itoa(n) }

// maxOutputItems is how many lines of a run the output pane keeps.
const maxOutputItems = 5000

// onToolsLocated takes the tools as just found — keeping the versions already known of the same
// programs — re-judges every section when what is there changed, and goes on with the r that asked.
func (m Model) onToolsLocated(msg toolsLocatedMsg) (tea.Model, tea.Cmd) {
	changed := false
	for i, t := range msg.tools {
		old := m.tools.Get(t.Name)
		if old.Found == t.Found && old.Path == t.Path {
			msg.tools[i] = old
		} else {
			changed = true
		}
	}
	m.tools = msg.tools
	var cmds []tea.Cmd
	if changed && m.started {
		cmds = append(cmds, checkAllCmd(m.eng))
	}
	if msg.then == "run" {
		nm, cmd := m.askRun()
		return nm, tea.Batch(append(cmds, cmd)...)
	}
	return m, tea.Batch(cmds...)
}

// askRun shows the section's reference commands in the output pane and asks to confirm; a
// section that needs a missing tool says which and how to get it instead.
func (m Model) askRun() (tea.Model, tea.Cmd) {
	sec, ok := m.eng.Lesson.Section(m.pageID())
	if !ok {
		m.message = i18n.M("ui.not_a_section")
		return m, nil
	}
	if !m.revealed[sec.ID] { // asked for: the page shows them from now on
		m.revealed = maps.Clone(m.revealed)
		if m.revealed == nil {
			m.revealed = map[string]bool{}
		}
		m.revealed[sec.ID] = true
		show := m.ensureProse()
		nm, cmd := m.askRun()
		return nm, tea.Batch(show, cmd)
	}
	if m.run != nil && !m.run.ended {
		m.message = i18n.M("ui.busy")
		return m, nil
	}
	// A missing tool: before the first step nothing can run, so say so instead of asking; before
	// a later step, the run stops there, and the question says it will.
	var warn []outItem
	for i, st := range sec.Steps {
		if tool := m.tools.Missing(st.Tools); tool != "" {
			spec, _ := m.eng.Lesson.Tool(tool)
			w := outItem{msg: i18n.M("run.tool_missing", "step", itoa(i+1), "tool", tool, "how", i18n.Ref(spec.Get))}
			if i == 0 {
				m.out.items, m.out.section = []outItem{w}, m.pageID()
				m.refreshOutput()
				return m, nil
			}
			warn = append(warn, w)
			break
		}
	}
	var items []outItem
	for _, st := range sec.Steps {
		for _, l := range splitLines(st.Run) {
			items = append(items, outItem{line: run.Line{Kind: run.Command, Text: l}})
		}
	}
	items = append(append(items, warn...), outItem{prompt: "ui.confirm_run"})
	m.out.items, m.out.section = items, m.pageID()
	m.confirm = confirmRun
	m.refreshOutput()
	m.out.vp.GotoBottom()
	return m, nil
}

// startRun begins the confirmed run; the output pane follows it live.
func (m Model) startRun() (tea.Model, tea.Cmd) {
	m.runSeq++
	m.run = &runState{id: m.runSeq, section: m.pageID(), start: time.Now()}
	m.out.items, m.out.section = nil, m.pageID()
	m.refreshOutput()
	return m, tea.Batch(startRunCmd(m.eng, m.tools, m.runSeq, m.pageID()), tickCmd(m.eng, m.runSeq))
}

// onRun applies the messages of the current run and drops those of any older one.
func (m Model) onRun(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.run == nil {
		return m, nil
	}
	switch msg := msg.(type) {
	case runStartedMsg:
		if msg.id != m.run.id {
			msg.job.cancel()
			return m, nil
		}
		m.run.job = msg.job
		if m.run.stopAsked { // cancelled before it had started
			msg.job.cancel()
		}
		return m, waitLinesCmd(msg.id, msg.job)
	case runLinesMsg:
		if msg.id != m.run.id {
			return m, nil
		}
		follow := m.out.vp.AtBottom()
		for _, l := range msg.lines {
			if l.Kind == run.Output {
				l.Text = printable(l.Text) // once, as it arrives: the pane is redrawn every tick
			}
			m.out.items = append(m.out.items, outItem{line: l})
		}
		// A chatty command must not make every redraw slower: keep the latest lines.
		if over := len(m.out.items) - maxOutputItems; over > 0 {
			m.out.items = append([]outItem{{msg: i18n.M("ui.lines_dropped", "count", itoa(over))}}, m.out.items[over+1:]...)
		}
		if m.out.section == m.run.section {
			m.refreshOutput()
			if follow {
				m.out.vp.GotoBottom()
			}
		}
		return m, waitLinesCmd(msg.id, m.run.job)
	case runDoneMsg:
		if msg.id != m.run.id {
			return m, nil
		}
		m.run.ended, m.run.elapsed = true, time.Since(m.run.start)
		res := msg.result
		m.out.items = append(m.out.items, outItem{msg: i18n.M("ui.run_ended", "code", itoa(res.ExitCode), "seconds", itoa(int(m.run.elapsed.Seconds())))})
		m.refreshOutput()
		m.out.vp.GotoBottom()
		cmds := []tea.Cmd{envoyCmd(m.eng), quietCheckCmd(m.eng, m.run.section, true)}
		if sec, ok := m.eng.Lesson.Section(m.run.section); ok && sec.EnvoyPidFile != "" && res.OK() {
			m.envoyOurs = true
		}
		if m.quitting { // the learner quit while it ran: now it has stopped, go on leaving
			return m.leave()
		}
		return m, tea.Batch(cmds...)
	case tickMsg:
		if msg.id != m.run.id || m.run.ended {
			return m, nil
		}
		m.refreshOutput()
		return m, tickCmd(m.eng, msg.id)
	}
	return m, nil
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

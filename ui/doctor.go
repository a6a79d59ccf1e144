package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/setup"
)

// doctorPage is the prose pane's id for the tools page (not a lesson page).
const doctorPage = "doctor"

// setupState is an install in progress: its events come through a channel like a run's lines.
type setupState struct {
	id    int
	start time.Time
	job   *setupJob // nil until the install has started
	ended bool
	last  setup.SetupEvent // the latest, for the status bar
}

type toolsMsg struct {
	tools    steps.Tools
	fixtures []steps.FixtureStatus
}

// doctorCmd finds every tool with its version and looks at every fixture file (the tools page
// shows them).
func doctorCmd(eng *Engine) tea.Cmd {
	return func() tea.Msg {
		return toolsMsg{tools: steps.FindTools(eng.Env, eng.Lesson.Tools), fixtures: steps.ResolveFixtures(eng.Env)}
	}
}

type setupStartedMsg struct {
	id  int
	job *setupJob
}

type setupEventsMsg struct {
	id     int
	events []setup.SetupEvent
}

type setupDoneMsg struct {
	id     int
	result setupResult
}

// setupResult is what an install ends with: the tools found, and why it stopped short, if it did
// (each tool's own failure is already an event; err is for the install as a whole).
type setupResult struct {
	tools steps.Tools
	err   error
}

// setupCmd installs the missing tools in the background; the learner keeps reading meanwhile.
// The Envoy container wrapper is left to `ist2-boot setup`, which can ask.
func setupCmd(eng *Engine, id int) tea.Cmd {
	return func() tea.Msg {
		in := &setup.Installer{Lesson: eng.Lesson, Env: eng.Env}
		return setupStartedMsg{id: id, job: startJob(func(ctx context.Context, emit func(setup.SetupEvent)) setupResult {
			tools, err := in.Setup(ctx, emit)
			return setupResult{tools: tools, err: err}
		})}
	}
}

// setupJob is an install: its events, then the tools found at the end.
type setupJob = job[setup.SetupEvent, setupResult]

func waitSetupCmd(id int, j *setupJob) tea.Cmd {
	return func() tea.Msg {
		batch, result, finished := j.next()
		if finished {
			return setupDoneMsg{id: id, result: result}
		}
		return setupEventsMsg{id: id, events: batch}
	}
}

// toggleDoctor opens or closes the tools page, asking for fresh versions when it opens.
func (m Model) toggleDoctor() (tea.Model, tea.Cmd) {
	m.toggleView(viewTools)
	if m.view != viewTools {
		return m, m.ensureProse()
	}
	return m, tea.Batch(doctorCmd(m.eng), m.ensureProse())
}

// installMissing starts `setup` from the tools page.
func (m Model) installMissing() (tea.Model, tea.Cmd) {
	if m.setup != nil && !m.setup.ended {
		m.message = i18n.M("ui.busy")
		return m, nil
	}
	m.setupSeq++
	m.setup = &setupState{id: m.setupSeq, start: time.Now()}
	m.out.items, m.out.section = nil, doctorPage
	m.refreshOutput()
	return m, setupCmd(m.eng, m.setupSeq)
}

func (m Model) onSetup(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.setup == nil {
		return m, nil
	}
	switch msg := msg.(type) {
	case setupStartedMsg:
		if msg.id != m.setup.id {
			msg.job.cancel()
			return m, nil
		}
		m.setup.job = msg.job
		return m, tea.Batch(waitSetupCmd(msg.id, msg.job), setupTickCmd(m.eng, msg.id))
	case setupTickMsg:
		if msg.id != m.setup.id || m.setup.ended {
			return m, nil
		}
		return m, setupTickCmd(m.eng, msg.id) // the status line reads the clock when it is drawn
	case setupEventsMsg:
		if msg.id != m.setup.id {
			return m, nil
		}
		for i := range msg.events {
			e := msg.events[i]
			m.setup.last = e
			if n := len(m.out.items); e.Kind == setup.SetupProgress && n > 0 && m.out.items[n-1].setup != nil &&
				m.out.items[n-1].setup.Kind == setup.SetupProgress && m.out.items[n-1].setup.Tool == e.Tool {
				m.out.items[n-1] = outItem{setup: &e} // a progress line is redrawn, not repeated
				continue
			}
			m.out.items = append(m.out.items, outItem{setup: &e})
		}
		if over := len(m.out.items) - maxOutputItems; over > 0 {
			m.out.items = m.out.items[over:]
		}
		if m.out.section == doctorPage {
			m.refreshOutput()
			m.out.vp.GotoBottom()
		}
		return m, waitSetupCmd(msg.id, m.setup.job)
	case setupDoneMsg:
		if msg.id != m.setup.id {
			return m, nil
		}
		m.setup.ended = true
		if m.quitting { // q came while it ran: now it has stopped, go on leaving
			return m.leave()
		}
		if msg.result.tools != nil {
			m.tools = msg.result.tools
		}
		m.message = i18n.M("ui.setup_done")
		if msg.result.err != nil {
			m.message = i18n.M("ui.error", "error", msg.result.err.Error())
		}
		return m, tea.Batch(m.ensureProse(), checkAllCmd(m.eng))
	}
	return m, nil
}

// doctorMarkdown is the tools page: every fixture file, there or why not; every tool, found (with version) or missing, which sections
// need it, how to get it; and what i does.
func (m Model) doctorMarkdown() string {
	t := func(k string, kv ...string) string { return i18n.M(k, kv...).In(m.lang) }
	var b strings.Builder
	b.WriteString("# " + t("ui.doctor.title") + "\n\n")
	b.WriteString(t("doctor.label", "label", t("doctor.fixtures"), "value", "`"+m.eng.Env.Fixtures+"`") + "\n\n")
	for _, f := range m.fixtures {
		if f.Problem.Key == "" {
			fmt.Fprintf(&b, "- ✓ %s\n", t("doctor.role", "part", t(f.Role.Name), "file", "`"+f.Path+"`"))
		} else {
			fmt.Fprintf(&b, "- ✗ %s\n", f.Problem.In(m.lang))
		}
	}
	b.WriteString("\n" + t("doctor.label", "label", t("doctor.tools_dir"), "value", "`"+m.eng.Env.ToolsDir+"`") + "\n\n")
	for _, tool := range m.tools {
		needed := strings.Join(m.eng.Lesson.NeededBy(tool.Name), " ")
		if tool.Found {
			version := tool.Version
			if version == "" {
				version = tool.Path
			}
			fmt.Fprintf(&b, "- ✓ `%s` — %s · %s\n", tool.Name, xansi.Truncate(version, 60, "…"), t("doctor.needed_by", "sections", needed))
			switch tool.Origin {
			case steps.FromRelease, steps.FromWrapper, steps.FromHomebrew:
				b.WriteString("  " + t("doctor.origin."+string(tool.Origin)) + "\n")
			}
			if tool.Pinned != "" {
				b.WriteString("  " + t("doctor.version_differs", "pinned", tool.Pinned) + "\n")
			}
			continue
		}
		spec, _ := m.eng.Lesson.Tool(tool.Name)
		fmt.Fprintf(&b, "- ✗ `%s` — %s · %s\n  %s\n", tool.Name, t("doctor.missing"), t("doctor.needed_by", "sections", needed), t(spec.Get))
	}
	b.WriteString("\n" + t("ui.doctor.install") + "\n")
	return b.String()
}

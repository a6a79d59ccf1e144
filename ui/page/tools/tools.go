// Package tools is the tools page (D): every fixture file and tool as last looked at, which
// sections need each and how to get it, and the install of the missing ones (i), run in the
// background while the learner reads on. It covers whatever page is open, as the glossary does;
// it is not in the page list.
package tools

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps"
	"ist2-boot/steps/setup"
	"ist2-boot/ui/common"
	"ist2-boot/ui/keys"
	"ist2-boot/ui/pane/output"
	"ist2-boot/ui/task"
)

// ID is the prose pane's and the output pane's id for the tools page (not a lesson page).
const ID = "doctor"

// Page is the tools page (D): every fixture file and tool as last looked at, the install
// started from it (i) and its keys.
type Page struct {
	fixtures []steps.FixtureStatus // nil until the page is first opened
	install  *installTask
	last     setup.SetupEvent // the install's latest event, for the status bar
	keys     toolsKeys
}

type toolsKeys struct{ Install, Back keys.Binding }

// New is the tools page before it is first opened.
func New() Page {
	return Page{keys: toolsKeys{
		Install: keys.New("", "", "i", "keys.install", "i").In(keys.Work),
		Back:    keys.New("esc, q", "help.back", "esc", "keys.back", "esc", "q").In(keys.Work),
	}}
}

// installTask is an install: its events, then the tools found at the end.
type installTask = task.Task[setup.SetupEvent, Result]

// Result is what an install ends with: the tools found, and why it stopped short, if it did
// (each tool's own failure is already an event; err is for the install as a whole).
type Result struct {
	Tools steps.Tools
	Err   error
}

// FoundMsg is every tool with its version and every fixture file as just looked at.
type FoundMsg struct {
	Tools    steps.Tools
	Fixtures []steps.FixtureStatus
}

// LookCmd finds every tool with its version and looks at every fixture file.
func LookCmd(eng *common.Engine) tea.Cmd {
	return func() tea.Msg {
		return FoundMsg{Tools: steps.FindTools(eng.Env, eng.Lesson.Tools), Fixtures: steps.ResolveFixtures(eng.Env)}
	}
}

// Installing: an install was started and has not ended.
func (p Page) Installing() bool { return p.install.Running() }

// Setup is the install of the missing tools (the Envoy container wrapper is left to
// `ist2-boot setup`, which can ask).
func Setup(c common.Common) Work {
	in := &setup.Installer{Lesson: c.Eng.Lesson, Env: c.Eng.Env}
	return func(ctx context.Context, emit func(setup.SetupEvent)) Result {
		tools, err := in.Setup(ctx, emit)
		return Result{Tools: tools, Err: err}
	}
}

// Work is an install as the page runs it: its events, then the tools found.
type Work func(ctx context.Context, emit func(setup.SetupEvent)) Result

// Install runs work in the background (Setup, for the tutorial); the learner keeps reading
// meanwhile, the output pane following its events.
func (p Page) Install(c common.Common, work Work) (Page, tea.Cmd) {
	p.install, p.last = task.New[setup.SetupEvent, Result](c.Eng.Tick), setup.SetupEvent{}
	return p, p.install.Begin(work)
}

// Stop cancels the install, now or as soon as it has started: it leaves nothing half-written.
func (p Page) Stop() {
	if p.Installing() {
		p.install.Stop()
	}
}

// Update follows the install: its events are returned for the output pane, and its end.
func (p Page) Update(msg tea.Msg) (Page, []output.Item, *Result, tea.Cmd) {
	items, done, cmd := task.Follow(p.install, msg, func(e setup.SetupEvent) output.Item {
		p.last = e
		return output.Setup(e)
	})
	return p, items, done, cmd
}

// StatusPart is the install's part of the status line while it runs.
func (p Page) StatusPart(c common.Common) (string, bool) {
	if !p.Installing() {
		return "", false
	}
	return c.T("ui.setup_running", "tool", p.last.Tool, "seconds", strconv.Itoa(int(time.Since(p.install.Started()).Seconds()))), true
}

// Markdown is the tools page: every fixture file, there or why not; every tool, found (with
// version) or missing, which sections need it, how to get it; and what i does.
func (p Page) Markdown(c common.Common) string {
	t := c.T
	var b strings.Builder
	b.WriteString("# " + t("ui.doctor.title") + "\n\n")
	b.WriteString(t("doctor.label", "label", t("doctor.fixtures"), "value", "`"+c.Eng.Env.Fixtures+"`") + "\n\n")
	for _, f := range p.fixtures {
		if f.Problem.Key == "" {
			fmt.Fprintf(&b, "- ✓ %s\n", t("doctor.role", "part", t(f.Role.Name), "file", "`"+f.Path+"`"))
		} else {
			fmt.Fprintf(&b, "- ✗ %s\n", f.Problem.In(c.Lang))
		}
	}
	b.WriteString("\n" + t("doctor.label", "label", t("doctor.tools_dir"), "value", "`"+c.Eng.Env.ToolsDir+"`") + "\n\n")
	for _, tool := range c.Tools {
		needed := c.Eng.Lesson.NeededByWords(tool.Name, c.Lang)
		if tool.Found {
			version := tool.VersionIn(c.Lang) // or, in the learner's words, that it did not answer
			if version == "" {
				version = tool.Path
			}
			fmt.Fprintf(&b, "- ✓ `%s` · %s · %s\n", tool.Name, xansi.Truncate(version, 60, "…"), t("doctor.needed_by", "sections", needed))
			switch tool.Origin {
			case steps.FromRelease, steps.FromWrapper, steps.FromHomebrew:
				b.WriteString("  " + t("doctor.origin."+string(tool.Origin)) + "\n")
			}
			if tool.Pinned != "" {
				b.WriteString("  " + t("doctor.version_differs", "pinned", tool.Pinned) + "\n")
			}
			continue
		}
		spec, _ := c.Eng.Lesson.Tool(tool.Name)
		fmt.Fprintf(&b, "- ✗ `%s` · %s · %s\\\n  %s\n", tool.Name, t("doctor.missing"), t("doctor.needed_by", "sections", needed), spec.HowToGet().In(c.Lang))
	}
	b.WriteString("\n" + t("ui.doctor.install") + "\n")
	return b.String()
}

// Looked keeps the fixture files as just looked at.
func (p Page) Looked(fixtures []steps.FixtureStatus) Page {
	p.fixtures = fixtures
	return p
}

// Owns tells whether a message is the install's (one of its task's).
func (p Page) Owns(id int) bool { return p.install.Owns(id) }

// Bindings are the page's keys: i installs, esc goes back.
func (p *Page) Bindings() []*keys.Binding { return []*keys.Binding{&p.keys.Install, &p.keys.Back} }

// Back is the key that closes the page.
func (p Page) Back() keys.Binding { return p.keys.Back }

// InstallKey is the key that starts the install.
func (p Page) InstallKey() keys.Binding { return p.keys.Install }

// Enable turns the page's keys on while it is shown.
func (p *Page) Enable(on bool) { keys.Enable(on, p.Bindings()...) }

// Task is the install under way or last run (nil: none yet).
func (p Page) Task() *task.Task[setup.SetupEvent, Result] { return p.install }

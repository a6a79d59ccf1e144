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
	"ist2-boot/ui/common"
	"ist2-boot/ui/keys"
	"ist2-boot/ui/pane/output"
	"ist2-boot/ui/task"
)

// doctorPage is the prose pane's id for the tools page (not a lesson page).
const doctorPage = "doctor"

// toolsPage is the tools page (D): every fixture file and tool as last looked at, the install
// started from it (i) and its keys.
type toolsPage struct {
	fixtures []steps.FixtureStatus // nil until the page is first opened
	install  *setupTask
	last     setup.SetupEvent // the install's latest event, for the status bar
	keys     toolsKeys
}

type toolsKeys struct{ Install, Back keys.Binding }

func newToolsPage() toolsPage {
	return toolsPage{keys: toolsKeys{
		Install: keys.New("", "", "i", "keys.install", "i"),
		Back:    keys.New("esc", "help.back", "esc", "keys.back", "esc"),
	}}
}

// setupTask is an install: its events, then the tools found at the end.
type setupTask = task.Task[setup.SetupEvent, setupResult]

// setupResult is what an install ends with: the tools found, and why it stopped short, if it did
// (each tool's own failure is already an event; err is for the install as a whole).
type setupResult struct {
	tools steps.Tools
	err   error
}

type toolsMsg struct {
	tools    steps.Tools
	fixtures []steps.FixtureStatus
}

// doctorCmd finds every tool with its version and looks at every fixture file.
func doctorCmd(eng *Engine) tea.Cmd {
	return func() tea.Msg {
		return toolsMsg{tools: steps.FindTools(eng.Env, eng.Lesson.Tools), fixtures: steps.ResolveFixtures(eng.Env)}
	}
}

// installing: an install was started and has not ended.
func (p toolsPage) installing() bool { return p.install.Running() }

// startInstall installs the missing tools in the background; the learner keeps reading meanwhile.
// The Envoy container wrapper is left to `ist2-boot setup`, which can ask.
func (p toolsPage) startInstall(c common.Common) (toolsPage, tea.Cmd) {
	p.install, p.last = task.New[setup.SetupEvent, setupResult](c.Eng.Tick), setup.SetupEvent{}
	in := &setup.Installer{Lesson: c.Eng.Lesson, Env: c.Eng.Env}
	return p, p.install.Begin(func(ctx context.Context, emit func(setup.SetupEvent)) setupResult {
		tools, err := in.Setup(ctx, emit)
		return setupResult{tools: tools, err: err}
	})
}

// stop cancels the install, now or as soon as it has started: it leaves nothing half-written.
func (p toolsPage) stop() {
	if p.installing() {
		p.install.Stop()
	}
}

// update follows the install: its events are returned for the output pane, and its end.
func (p toolsPage) update(msg tea.Msg) (toolsPage, []output.Item, *setupResult, tea.Cmd) {
	items, done, cmd := task.Follow(p.install, msg, func(e setup.SetupEvent) output.Item {
		p.last = e
		return output.Setup(e)
	})
	return p, items, done, cmd
}

// statusPart is the install's part of the status line while it runs.
func (p toolsPage) statusPart(c common.Common) (string, bool) {
	if !p.installing() {
		return "", false
	}
	return c.T("ui.setup_running", "tool", p.last.Tool, "seconds", itoa(int(time.Since(p.install.Started()).Seconds()))), true
}

// markdown is the tools page: every fixture file, there or why not; every tool, found (with
// version) or missing, which sections need it, how to get it; and what i does.
func (p toolsPage) markdown(c common.Common) string {
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
		needed := i18n.ListOf(c.Lang, c.Eng.Lesson.NeededBy(tool.Name))
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
		fmt.Fprintf(&b, "- ✗ `%s` · %s · %s\\\n  %s\n", tool.Name, t("doctor.missing"), t("doctor.needed_by", "sections", needed), t(spec.Get))
	}
	b.WriteString("\n" + t("ui.doctor.install") + "\n")
	return b.String()
}

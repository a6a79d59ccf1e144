package ui

import (
	"slices"

	"ist2-boot/ui/page"
	"ist2-boot/ui/page/drill"
	"ist2-boot/ui/page/lesson"
	"ist2-boot/ui/page/tools"

	"ist2-boot/ui/overlay/diff"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/run"
	"ist2-boot/steps/setup"
	"ist2-boot/steps/watch"
	"ist2-boot/ui/common"
	"ist2-boot/ui/overlay/help"
	"ist2-boot/ui/pane/output"
	"ist2-boot/ui/pane/prose"
	"ist2-boot/ui/render"
	"ist2-boot/ui/task"
)

// overlay is what covers the whole body: nothing, the help screen or the diff view. Only one
// can be open; keys go to it first.
type overlay int

const (
	overlayNone overlay = iota
	overlayHelp
	overlayDiff
)

// Engine is what the tutorial works with (the lesson, the environment, the progress store and
// the run's settings); it is common.Engine, named here for the tutorial's callers.
type Engine = common.Engine

// session is this run of the tutorial: whether the saved state has arrived, whether the learner
// is leaving, the watcher of the work dir, and the Envoy of section 6 (stopped on quit when a run
// of this tutorial started it).
type session struct {
	started  bool
	quitting bool
	watcher  *watch.Watcher
	envoyPid int
	// runOutput is each section's last run as the output pane showed it, kept for the session so
	// a page left and opened again shows it (the newcomer review's M4); bounded as the pane is.
	runOutput map[string][]output.Item
}

// Model is the root of the tutorial. It keeps what is everyone's (common: engine, styles,
// language, size and the engine's snapshot), where the learner is (nav), the session, the status
// line with its question, which overlay is open and its own keys, and routes every other message
// to the component it belongs to: the prose and output panes, the runner, the diff view, the help
// screen, the tools page, and the page kinds (pages), each of which serves the page ids it owns.
type Model struct {
	common.Common
	keys    rootKeys
	nav     navigation
	session session
	status  statusBar
	overlay overlay

	prose     prose.Pane
	out       output.Pane
	runner    runner
	diff      diff.View
	help      help.Overlay
	toolsPage tools.Page
	// pages are the page kinds, one value each: the lesson's pages, then the drill page. The
	// slice is replaced, never written in place: earlier models keep theirs.
	pages []page.Page
}

// New builds the tutorial; nothing is read until Init's commands run.
func New(eng *Engine) Model {
	lang := i18n.Choose(eng.Lang, "", "") // the saved choice and the locale once the progress is read
	// The page kinds: the first that owns an id serves it, so a kind serving pages the lesson also
	// has (a practice page) goes before the lesson's. A new kind is one package, listed here.
	kinds := []page.Page{lesson.New(eng.Lesson), drill.New()}
	ids := eng.Lesson.PageIDs()
	for _, k := range kinds {
		ids = k.Place(ids)
	}
	// A page no kind serves is left out of the list (the tutorial stays up; its tests say which).
	ids = slices.DeleteFunc(ids, func(id string) bool {
		return !slices.ContainsFunc(kinds, func(k page.Page) bool { return k.Owns(id) })
	})
	m := Model{
		Common: common.Common{Eng: eng, Dark: true, Lang: lang, Snapshot: common.Snapshot{Results: map[string]check.SectionResult{}}},
		keys:   newRootKeys(),
		nav:    newNavigation(ids),
		prose:  prose.New(), out: output.New(), runner: newRunner(), diff: diff.New(),
		help: help.New(), toolsPage: tools.New(), pages: kinds,
	}
	m.Styles = render.NewStyles(m.Dark, eng.NoColor)
	m.syncKeys()
	return m
}

// Init implements tea.Model: ask the background colour, load progress, tools and states.
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, startCmd(m.Eng), envoyCmd(m.Eng)}
	if m.Eng.Watch {
		cmds = append(cmds, watchStartCmd(m.Eng))
	}
	return tea.Batch(cmds...)
}

// Update implements tea.Model: keys go to the bindings enabled now, the results of work to the
// component that asked for them; then the keys are enabled for the new state, and a message that
// changed gets its expiry.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	before := m.status.message
	next, cmd := m.update(msg)
	var expire tea.Cmd
	next.status, expire = next.status.noted(next.Common, before)
	next.status = next.status.layout(next.Common, next.nav.where(next.Common))
	next.syncKeys()
	return next, tea.Batch(cmd, expire)
}

// SignalMsg: the tutorial was sent TERM, INT or HUP.
type SignalMsg struct{}

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseWheelMsg:
		return m.handleWheel(msg), nil
	case tea.WindowSizeMsg:
		m.Width, m.Height = msg.Width, msg.Height
		m.prose.KeepScroll()
		m.layout()
		if m.overlay == overlayHelp {
			m.help = m.help.Layout(m.Common, m.helpRows())
		}
		return m, m.ensureProse()
	case tea.BackgroundColorMsg:
		if dark := msg.IsDark(); dark != m.Dark {
			m.Dark = dark
			m.Styles = render.NewStyles(dark, m.Eng.NoColor)
			m.prose.KeepScroll()
			m.refreshOutput()
			return m, m.ensureProse()
		}
		return m, nil
	case tea.ResumeMsg:
		return m, tea.ClearScreen // fg: drawn again whole
	case SignalMsg:
		// TERM, INT or HUP from outside: leave as q does, without asking — the runs' and the
		// install's process groups stopped first.
		return m.leave()
	case messageExpiredMsg:
		m.status = m.status.expired(msg)
		return m, nil
	case prose.RenderedMsg:
		if err := m.prose.Rendered(msg, m.document().Key()); err != nil {
			m.status.message = errorMsg(err)
		}
		return m, nil
	case page.Msg:
		return m.pageMsg(msg)
	case task.StartedMsg[run.Line, run.RunResult], task.EventsMsg[run.Line], task.DoneMsg[run.RunResult]:
		return m.onRun(msg)
	case task.StartedMsg[setup.SetupEvent, tools.Result], task.EventsMsg[setup.SetupEvent], task.DoneMsg[tools.Result]:
		return m.onInstall(msg)
	case task.TickMsg: // a tick carries only its task's id
		if m.runner.task.Owns(msg.ID) {
			return m.onRun(msg)
		}
		return m.onInstall(msg)
	}
	return m.onResult(msg)
}

// onStarted applies the saved progress: language (unless --lang), last open section, states.
func (m Model) onStarted(msg startedMsg) (Model, tea.Cmd) {
	m.session.started = true
	m.Tools = msg.tools
	m.status.message = msg.warning
	if msg.err != nil { // the progress could not be read: said before any warning
		m.status.message = errorMsg(msg.err)
	}
	if p := msg.progress; p != nil {
		m.Progress = p
		// The flag was applied in New; else the saved choice or the locale, when one names a
		// language. Otherwise the one shown (Default, or what l chose while the progress was
		// being read) stays.
		if m.Eng.Lang == "" && (p.Lang != "" || m.Eng.Locale != "") {
			m.Lang = i18n.Choose("", p.Lang, m.Eng.Locale)
		}
		if i := slices.Index(m.nav.pages, p.LastSection); i >= 0 {
			m.nav.page, m.nav.cursor = i, i
			if f := p.Scroll; f > 0 && f <= 1 { // where it was being read
				m.prose.RestoreStart(f, p.ScrollLine, p.ScrollWidth)
			}
		}
	}
	// The page first: every section's state follows as soon as it is judged (states).
	cmds := []tea.Cmd{m.ensureProse(), m.pageCmds()}
	if msg.results != nil {
		m.showStates(msg.results)
	} else {
		cmds = append(cmds, statesCmd(m.Eng))
	}
	m.refreshOutput()
	return m, tea.Batch(cmds...)
}

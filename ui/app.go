package ui

import (
	"reflect"
	"slices"
	"time"

	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/steps/watch"
	"ist2-boot/ui/render"
)

// focus is the pane that takes scroll keys.
type focus int

const (
	focusProse focus = iota
	focusOutput
	focusList
)

// confirm is a question waiting for y or n.
type confirm int

const (
	confirmNone confirm = iota
	confirmRun
	confirmQuit
	confirmNewLab
)

// overlay is what covers the whole body: nothing, the help screen or the diff view. Only one
// can be open; Update routes keys to it first.
type overlay int

const (
	overlayNone overlay = iota
	overlayHelp
	overlayDiff
)

// paneView is what the prose pane shows: the open page, the glossary or the tools page.
type paneView int

const (
	viewPage paneView = iota
	viewGlossary
	viewTools
)

// toggleView shows v in the prose pane, or the page again when v is already shown.
func (m *Model) toggleView(v paneView) {
	if m.view == v {
		m.view = viewPage
		return
	}
	m.view = v
}

// runState is the run in progress (or the last one, until another starts).
type runState struct {
	id      int
	section string
	start   time.Time
	job     *runJob // nil until the run has started
	ended   bool
	elapsed time.Duration
	// stopAsked: cancel came before the run had started; it is cancelled as it starts.
	stopAsked bool
}

// stop cancels the run, now or as soon as it has started.
func (r *runState) stop() {
	r.stopAsked = true
	if r.job != nil {
		r.job.cancel()
	}
}

// Model is the root of the tutorial: it owns size, focus and routing; the panes are its fields.
type Model struct {
	eng    *Engine
	keys   keyMap
	styles *render.Styles
	dark   bool
	lang   i18n.Lang

	width, height int
	started       bool
	pages         []string
	page          int // open page, index into pages
	cursor        int // list selection
	focus         focus
	view          paneView // what the prose pane shows

	prose prosePane
	out   outputPane

	diff    diffState
	help    helpPane
	popup   popupPane
	overlay overlay
	confirm confirm

	progress *progress.Progress
	results  map[string]check.SectionResult
	tools    steps.Tools
	fixtures []steps.FixtureStatus // shown on the tools page; nil until it is first opened
	report   reportMsg

	run       *runState
	runSeq    int
	setup     *setupState
	setupSeq  int
	envoyPid  int
	envoyOurs bool            // started by a run of this tutorial: stopped on quit
	watcher   *watch.Watcher  // the work dir, watched for files written from outside
	drill     *drillState     // the drill page's drill; nil until the page is first opened
	revealed  map[string]bool // sections whose reference commands the learner asked to see (r)
	message   i18n.Msg        // the latest news or error; it goes after the engine's MessageTTL
	messageID int             // counts messages, so an expiry clears only the message it was set for
	quitting  bool
}

// New builds the tutorial; nothing is read until Init's commands run.
func New(eng *Engine) Model {
	lang := eng.Lang
	if lang == "" {
		lang = i18n.Korean
	}
	m := Model{
		eng: eng, keys: newKeyMap(), dark: true, lang: lang,
		pages:   append(eng.Lesson.PageIDs(), drillPage),
		results: map[string]check.SectionResult{},
		prose:   newProsePane(),
		out:     outputPane{vp: viewport.New()},
	}
	m.styles = render.NewStyles(m.dark, eng.NoColor)
	return m
}

// Init implements tea.Model: ask the background colour, load progress, tools and states.
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, startCmd(m.eng), envoyCmd(m.eng)}
	if m.eng.Watch {
		cmds = append(cmds, watchStartCmd(m.eng))
	}
	return tea.Batch(cmds...)
}

// Update implements tea.Model: keys go to the focused pane or the open overlay; results of work
// go to what owns them; a resize goes to every pane.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	before := m.message
	nm, cmd := m.update(msg)
	next := nm.(Model)
	if next.message.Key != "" && !reflect.DeepEqual(before, next.message) {
		next.messageID++
		cmd = tea.Batch(cmd, next.expireMessage())
	}
	next.layoutPopup() // a question or a result too long for the status bar
	return next, cmd
}

// expireMessage clears the message just set once the engine's MessageTTL has passed.
func (m Model) expireMessage() tea.Cmd {
	ttl := m.eng.MessageTTL
	if ttl < 0 {
		return nil
	}
	if ttl == 0 {
		ttl = defaultMessageTTL
	}
	id := m.messageID
	return tea.Tick(ttl, func(time.Time) tea.Msg { return messageExpiredMsg{id: id} })
}

// SignalMsg: the tutorial was sent TERM, INT or HUP.
type SignalMsg struct{}

// messageExpiredMsg: the message set as number id has had its time.
type messageExpiredMsg struct{ id int }

func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case messageExpiredMsg:
		if msg.id == m.messageID {
			m.message = i18n.Msg{}
		}
		return m, nil
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.keepScroll()
		m.layout()
		if m.overlay == overlayHelp {
			m.layoutHelp()
		}
		return m, m.ensureProse()
	case tea.BackgroundColorMsg:
		if dark := msg.IsDark(); dark != m.dark {
			m.dark = dark
			m.styles = render.NewStyles(dark, m.eng.NoColor)
			m.keepScroll()
			m.refreshOutput()
			return m, m.ensureProse()
		}
		return m, nil
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseWheelMsg:
		return m.handleWheel(msg)
	case startedMsg:
		return m.onStarted(msg)
	case renderedMsg:
		return m.onRendered(msg)
	case newLabMsg:
		if msg.err.Key != "" {
			m.message = msg.err
			return m, nil
		}
		m.message, m.results, m.drill = msg.done, map[string]check.SectionResult{}, nil
		if msg.progress != nil {
			m.progress = msg.progress
		}
		return m, tea.Batch(checkAllCmd(m.eng), m.ensureProse())
	case drillDrawnMsg:
		m.drill = &drillState{d: msg.d, problem: msg.problem}
		return m, m.ensureProse()
	case drillFixedMsg:
		if m.drill != nil && m.drill.d != nil {
			v := msg.v
			m.drill.fix = &v
			if v.Right {
				m.drill.stage = 3
			}
		}
		return m, m.ensureProse()
	case watchStartedMsg:
		m.watcher = msg.w
		return m, watchNextCmd(msg.w)
	case watchMsg:
		return m.onWatch(msg)
	case checkedMsg:
		return m.onChecked(msg)
	case savedMsg:
		if msg.err != nil {
			m.message = i18n.M("ui.error", "error", msg.err.Error())
		} else if msg.progress != nil {
			m.progress = msg.progress
		}
		// What the page shows may depend on what was saved (the drill record, hints).
		return m, m.ensureProse()
	case runStartedMsg, runLinesMsg, runDoneMsg, tickMsg:
		return m.onRun(msg)
	case setupStartedMsg, setupEventsMsg, setupDoneMsg, setupTickMsg:
		return m.onSetup(msg)
	case toolsMsg:
		m.tools, m.fixtures = msg.tools, msg.fixtures
		return m, m.ensureProse()
	case toolsLocatedMsg:
		return m.onToolsLocated(msg)
	case SignalMsg:
		// TERM, INT or HUP from outside: leave as q does, without asking — the runs' and the
		// install's process groups stopped first.
		return m.leave()
	case tea.ResumeMsg:
		return m, tea.ClearScreen // fg: drawn again whole
	case statesMsg:
		if msg.err != nil {
			m.message = i18n.M("ui.error", "error", msg.err.Error())
			return m, nil
		}
		m.showStates(msg.results)
		return m, m.ensureProse()
	case shellDoneMsg:
		return m.onShellDone(msg)
	case reportMsg:
		m.report = msg
		return m, m.ensureProse()
	case envoyMsg:
		m.envoyPid = 0
		if msg.running {
			m.envoyPid = msg.pid
		}
		return m, nil
	case envoyStoppedMsg:
		return m, tea.Quit
	}
	return m, nil
}

// onStarted applies the saved progress: language (unless --lang), last open section, states.
func (m Model) onStarted(msg startedMsg) (tea.Model, tea.Cmd) {
	m.started = true
	if msg.err != nil {
		m.message = i18n.M("ui.error", "error", msg.err.Error())
	}
	m.tools = msg.tools
	m.message = msg.warning
	if msg.progress != nil {
		m.progress = msg.progress
		if m.eng.Lang == "" {
			switch {
			case msg.progress.Lang != "":
				m.lang = msg.progress.Lang
			case m.eng.Locale != "":
				m.lang = m.eng.Locale
			}
		}
		if i := slices.Index(m.pages, msg.progress.LastSection); i >= 0 {
			m.page, m.cursor = i, i
			if f := msg.progress.Scroll; f > 0 && f <= 1 { // where it was being read
				m.prose.scrollFrac, m.prose.restore = f, true
			}
		}
	}
	// The page first: every section's state follows as soon as it is judged (states).
	cmds := []tea.Cmd{m.ensureProse(), m.pageCmds()}
	if msg.results != nil {
		m.showStates(msg.results)
	} else {
		cmds = append(cmds, statesCmd(m.eng))
	}
	m.refreshOutput()
	return m, tea.Batch(cmds...)
}

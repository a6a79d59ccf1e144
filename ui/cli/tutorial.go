package cli

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"ist2-boot/content"
	"ist2-boot/steps/i18n"
	"ist2-boot/ui"
)

// Tutorial is the interactive tutorial ready to start: its engine, and the instance lock it holds.
type Tutorial struct {
	Engine  *ui.Engine
	release func()
}

// Release lets another copy of the tutorial start.
func (t *Tutorial) Release() { t.release() }

// Run runs the tutorial until the learner quits, then releases the instance lock.
func (t *Tutorial) Run() error {
	defer t.Release()
	// The terminal's colours were detected once already, as lipgloss was set up (in tmux that
	// runs `tmux info`): the program takes that answer instead of asking again.
	_, err := tea.NewProgram(ui.New(t.Engine), tea.WithColorProfile(lipgloss.Writer.Profile)).Run()
	t.Engine.Flush()
	return err
}

// OpenTutorial reads the flags of a plain `ist2-boot`, refuses to start where there is no
// terminal or where another copy runs, and prepares the environment. A non-zero code means:
// exit with it (the reason is printed).
func OpenTutorial(args []string, sio IO, terminal bool) (*Tutorial, int) {
	var g global
	fs := newFlags("", "[--lang "+i18n.LangList("|")+"] [--workdir DIR] [--fixtures DIR] [--mesh FILE] [--timeout 120s]", sio, &g)
	timeout := fs.Duration("timeout", 0, "time limit per section run (default 120s)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, flagErr(err) // nil with 0 after --help: exit without starting
	}
	if len(pos) > 0 {
		return nil, g.fail(sio, fmt.Errorf("unknown command %q", pos[0]))
	}
	s, err := g.open(sio)
	if err != nil {
		return nil, g.fail(sio, err)
	}
	if !terminal {
		fmt.Fprintln(sio.Err, s.say("ui.not_terminal"))
		return nil, exitUsage
	}
	inst, ok, err := s.store.AcquireInstance()
	if err != nil {
		return nil, g.fail(sio, err)
	}
	if !ok {
		fmt.Fprintln(sio.Err, s.say("ui.another_copy", "file", s.env.StateDir+"/instance.lock"))
		return nil, exitUsage
	}
	terms, err := i18n.LoadGlossary(content.FS)
	if err != nil {
		inst.Release()
		return nil, g.fail(sio, err)
	}
	eng := &ui.Engine{Lesson: s.lesson, Env: s.env, Store: s.store, Glossary: terms, Timeout: *timeout, Watch: true,
		NoColor: sio.Getenv("NO_COLOR") != ""}
	if g.lang != "" {
		eng.Lang = s.lang
	}
	eng.Locale, _ = i18n.LangFromLocale(sio.Getenv)
	return &Tutorial{Engine: eng, release: inst.Release}, exitOK
}

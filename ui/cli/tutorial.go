package cli

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"

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

// resumeSettle is how long after fg the terminal is left to the shell before it is taken again.
const resumeSettle = 150 * time.Millisecond

// Run runs the tutorial until the learner quits, then releases the instance lock. TERM, INT and
// HUP end it as q does — the process groups it started stopped, the terminal restored — and the
// exit code is then 128+n; ctrl+z and a TSTP from outside suspend it (the terminal handed back
// first), and fg repaints it.
func (t *Tutorial) Run() (int, error) {
	defer t.Release()
	// The terminal's colours were detected once already, as lipgloss was set up (in tmux that
	// runs `tmux info`): the program takes that answer instead of asking again.
	p := tea.NewProgram(ui.New(t.Engine), tea.WithColorProfile(lipgloss.Writer.Profile), tea.WithoutSignalHandler())
	var got atomic.Int32
	stop := make(chan os.Signal, 4)
	// QUIT as well: Go's own handler would dump goroutines onto the alternate screen and leave
	// the terminal raw and the run's groups running.
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(stop)
	tstp := make(chan os.Signal, 1)
	signal.Notify(tstp, syscall.SIGTSTP)
	defer signal.Stop(tstp)
	// ctrl+z and a TSTP from outside alike: the terminal handed back, then stopped for real
	// (STOP: a caught TSTP cannot stop us), and on fg the terminal taken again and redrawn.
	suspend := func() {
		_ = p.ReleaseTerminal()
		_ = syscall.Kill(os.Getpid(), syscall.SIGSTOP)
		// Continued (fg). The shell may still be setting the terminal's modes it saved for the
		// job: take the terminal back once it is done, or it would undo our raw mode.
		time.Sleep(resumeSettle)
		_ = p.RestoreTerminal()
		p.Send(tea.ResumeMsg{})
	}
	t.Engine.Suspend = func() { _ = syscall.Kill(os.Getpid(), syscall.SIGTSTP) }
	go func() {
		for {
			select {
			case s := <-stop:
				if got.Swap(int32(s.(syscall.Signal))) != 0 {
					p.Kill() // a second one: stop waiting
					return
				}
				p.Send(ui.SignalMsg{})
			case <-tstp:
				suspend()
			}
		}
	}()
	_, err := p.Run()
	t.Engine.Flush()
	if n := got.Load(); n != 0 {
		return 128 + int(n), nil
	}
	if errors.Is(err, tea.ErrProgramKilled) {
		err = nil
	}
	return 0, err
}

// OpenTutorial reads the flags of a plain `ist2-boot`, refuses to start where there is no
// terminal or where another copy runs, and prepares the environment. A non-zero code means:
// exit with it (the reason is printed).
func OpenTutorial(args []string, sio IO, terminal bool) (*Tutorial, int) {
	var g global
	fs := newFlags("", sio, &g)
	timeout := fs.Duration("timeout", 0, "usage.tutorial.timeout")
	pos, err := g.parseInterspersed(fs, args, sio)
	if err != nil {
		return nil, flagErr(err) // nil with 0 after --help: exit without starting
	}
	if len(pos) > 0 {
		fmt.Fprintln(sio.Err, "ist2-boot: "+i18n.M("cli.unknown_command", "command", pos[0]).In(g.helpLanguage(sio)))
		return nil, exitUsage
	}
	s, err := g.open(sio)
	if err != nil {
		return nil, g.fail(sio, err)
	}
	if *timeout < 0 { // as `run` refuses it (the hostile report's L10)
		fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("cli.bad_timeout", "timeout", timeout.String()))
		return nil, exitUsage
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
		fmt.Fprintln(sio.Err, s.say("ui.another_copy", "file", filepath.Join(s.store.Dir, "instance.lock")))
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
	eng.Locale = i18n.Locale(sio.Getenv)
	return &Tutorial{Engine: eng, release: inst.Release}, exitOK
}

package cli

import (
	"fmt"
	"time"

	"ist2-boot/content"
	"ist2-boot/steps"
)

// Tutorial is what the interactive tutorial starts with; main hands it to the ui package.
type Tutorial struct {
	Lesson   *steps.Lesson
	Env      *steps.Env
	Store    *steps.Store
	Glossary []steps.Term
	Lang     steps.Lang // --lang, or "" to let the saved choice, then the locale, decide
	Locale   steps.Lang // LC_ALL/LANG, or ""
	Timeout  time.Duration
	release  func()
}

// Release lets another copy of the tutorial start.
func (t *Tutorial) Release() { t.release() }

// OpenTutorial reads the flags of a plain `ist2-boot`, refuses to start where there is no
// terminal or where another copy runs, and prepares the environment. A non-zero code means:
// exit with it (the reason is printed).
func OpenTutorial(args []string, sio IO, terminal bool) (*Tutorial, int) {
	var g global
	fs := newFlags("", "[--lang ko|zh|ja] [--workdir DIR] [--fixtures DIR] [--mesh FILE] [--timeout 120s]", sio, &g)
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
	terms, err := steps.LoadGlossary(content.FS)
	if err != nil {
		inst.Release()
		return nil, g.fail(sio, err)
	}
	t := &Tutorial{Lesson: s.lesson, Env: s.env, Store: s.store, Glossary: terms, Timeout: *timeout, release: inst.Release}
	if g.lang != "" {
		t.Lang = s.lang
	}
	t.Locale, _ = steps.LangFromLocale(sio.Getenv)
	return t, exitOK
}

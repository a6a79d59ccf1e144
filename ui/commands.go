package ui

import (
	"errors"
	"math/rand/v2"
	"os/exec"
	"time"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps"
	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/steps/run"
	"ist2-boot/steps/watch"
)

// COMMANDS: every piece of work the tutorial asks of the engine runs here, off the UI goroutine,
// and comes back as a message. Update and View never read files, run processes or render.

type startedMsg struct {
	progress *progress.Progress
	tools    steps.Tools
	results  []check.SectionResult // nil: judged next, by statesCmd
	warning  i18n.Msg
	err      error
}

// startCmd loads the saved progress (the language and page to open) and finds the tools: what
// the first frame needs. The sections' states follow (statesCmd), so the page is drawn before
// every file has been judged.
func startCmd(eng *Engine) tea.Cmd {
	return func() tea.Msg {
		go bootcheck.Prepare() // Envoy's API types, for the states' check, on the other core
		p, err := eng.Store.Load()
		if err != nil {
			return startedMsg{err: err}
		}
		warning := eng.Store.TakeNotice() // its own, or one a command left for it
		tools := steps.LocateTools(eng.Env, eng.Lesson.Tools)
		return startedMsg{progress: p, tools: tools, warning: warning}
	}
}

// statesMsg: every section judged once at start.
type statesMsg struct {
	results []check.SectionResult
	err     error
}

// statesCmd judges every section once, for the list's states (no attempt counted).
func statesCmd(eng *Engine) tea.Cmd {
	return func() tea.Msg {
		results, err := check.Check(eng.Lesson, eng.Env, eng.Lesson.CheckedIDs())
		return statesMsg{results: results, err: err}
	}
}

type checkedMsg struct {
	section  string
	results  []check.SectionResult
	progress *progress.Progress
	err      error
	afterRun bool // shown below the run's output rather than in its place
	watch    bool // caused by a file written from outside (or by a run, seen late)
}

// checkCmd judges a section's files and records the attempt.
func checkCmd(eng *Engine, id string) tea.Cmd {
	return func() tea.Msg {
		results, err := check.Check(eng.Lesson, eng.Env, []string{id})
		if err != nil {
			return checkedMsg{section: id, err: err}
		}
		p, err := eng.Store.Update(progress.RecordCheck(results, time.Now()))
		return checkedMsg{section: id, results: results, progress: p, err: err}
	}
}

// quietCheckCmd judges a section's files without counting an attempt: when the learner saved one
// from outside (watch), or a run of the section ended.
func quietCheckCmd(eng *Engine, id string, afterRun bool) tea.Cmd {
	return func() tea.Msg {
		results, err := check.Check(eng.Lesson, eng.Env, []string{id})
		if err != nil {
			return checkedMsg{section: id, err: err}
		}
		// Its verdict is kept (a pass with its time), but it is not an attempt.
		p, err := eng.Store.Update(progress.RecordQuiet(results, time.Now()))
		return checkedMsg{section: id, results: results, progress: p, err: err, afterRun: afterRun, watch: !afterRun}
	}
}

type newLabMsg struct {
	done     i18n.Msg
	err      i18n.Msg
	progress *progress.Progress
}

// newLabCmd writes a fresh lab (sandbox mode): a new round in progress, the produced files moved to
// a backup, a new fixture set drawn from a random seed.
func newLabCmd(eng *Engine) tea.Cmd {
	return func() tea.Msg {
		v, _, err := progress.NewLab(eng.Lesson, eng.Env, eng.Store, rand.Uint64()%1000000, time.Now())
		if err != nil {
			return newLabMsg{err: i18n.M("ui.error", "error", err.Error())}
		}
		p, _ := eng.Store.Load()
		return newLabMsg{progress: p, done: v.Done(eng.Env.Fixtures)}
	}
}

type watchStartedMsg struct{ w *watch.Watcher }

type watchMsg struct {
	names []string
	open  bool // false: the watch ended
}

// watchStartCmd watches the work dir (nothing happens when it cannot: the c key still checks).
func watchStartCmd(eng *Engine) tea.Cmd {
	return func() tea.Msg {
		w, err := watch.New(eng.Env.WorkDir, watch.Quiet)
		if err != nil {
			return nil
		}
		return watchStartedMsg{w: w}
	}
}

// watchNextCmd waits for the next batch of files changed from outside.
func watchNextCmd(w *watch.Watcher) tea.Cmd {
	return func() tea.Msg {
		names, ok := <-w.Changes
		return watchMsg{names: names, open: ok}
	}
}

// toolsLocatedMsg: the tools looked up again (paths only), and what the learner asked for, to
// go on with once they are known ("run": the r key).
type toolsLocatedMsg struct {
	tools steps.Tools
	then  string
}

// locateToolsCmd looks the tools up again: one installed while the tutorial is open is found on
// the next r, c or page open, not only on the tools page.
func locateToolsCmd(eng *Engine, then string) tea.Cmd {
	return func() tea.Msg {
		return toolsLocatedMsg{tools: steps.LocateTools(eng.Env, eng.Lesson.Tools), then: then}
	}
}

// checkAllCmd judges every section again without counting an attempt (after tools changed).
func checkAllCmd(eng *Engine) tea.Cmd {
	return func() tea.Msg {
		results, err := check.Check(eng.Lesson, eng.Env, eng.Lesson.CheckedIDs())
		return checkedMsg{results: results, err: err}
	}
}

type shellDoneMsg struct{ err error }

// shellCmd gives the terminal to the learner's shell in the work dir; the section is checked
// when it exits.
func shellCmd(eng *Engine, tools steps.Tools) tea.Cmd {
	return tea.ExecProcess(run.ShellCommand(eng.Env, eng.Lesson, tools), shellDone)
}

// shellDone: a shell that ran came back normally whatever the status of its last command (the
// learner's `ls nonexistent` then Ctrl-D exits 2); only a shell that could not start is an error.
func shellDone(err error) tea.Msg {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		err = nil
	}
	return shellDoneMsg{err: err}
}

type envoyMsg struct {
	pid     int
	running bool
}

// envoyCmd asks whether the Envoy of section 6 runs (for the status bar).
func envoyCmd(eng *Engine) tea.Cmd {
	return func() tea.Msg {
		pid, running := run.RunningEnvoy(eng.Env.Path(envoyPidFile(eng)))
		return envoyMsg{pid: pid, running: running}
	}
}

// stopEnvoyCmd stops the Envoy a run of this tutorial started (the record says which, if any),
// by its pid, then quits.
func stopEnvoyCmd(eng *Engine) tea.Cmd {
	return func() tea.Msg {
		run.StopEnvoy(eng.Env.Path(envoyPidFile(eng)))
		return tea.QuitMsg{}
	}
}

func envoyPidFile(eng *Engine) string {
	for _, s := range eng.Lesson.Sections {
		if s.EnvoyPidFile != "" {
			return s.EnvoyPidFile
		}
	}
	return "envoy.pid"
}

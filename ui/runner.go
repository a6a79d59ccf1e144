package ui

import (
	"context"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps/run"
	"ist2-boot/ui/common"
	"ist2-boot/ui/keys"
	"ist2-boot/ui/pane/output"
	"ist2-boot/ui/task"
)

func itoa(n int) string { return strconv.Itoa(n) }

// runTask is a section's run: its output lines, then its result.
type runTask = task.Task[run.Line, run.RunResult]

// runner is the run of a section's reference commands in progress (or the last one, until
// another starts), and the key that cancels it.
type runner struct {
	task    *runTask
	section string // the section it runs
	keys    runnerKeys
}

type runnerKeys struct{ Cancel keys.Binding }

func newRunner() runner {
	return runner{keys: runnerKeys{Cancel: keys.New("x / ctrl+c", "help.cancel", "x", "keys.cancel", "x", "ctrl+c").In(keys.Work)}}
}

// running: a run has been started and has not ended.
func (r runner) running() bool { return r.task.Running() }

// runs: a run of the section is going on.
func (r runner) runs(section string) bool { return r.running() && r.section == section }

// start begins a run of the section with the tools as they are now.
func (r runner) start(c common.Common, section string) (runner, tea.Cmd) {
	r.task, r.section = task.New[run.Line, run.RunResult](c.Eng.Tick), section
	rn := &run.Runner{Lesson: c.Eng.Lesson, Env: c.Eng.Env, Tools: c.Tools, Timeout: c.Eng.Timeout, Lang: c.Lang}
	return r, r.task.Begin(func(ctx context.Context, emit func(run.Line)) run.RunResult {
		return rn.RunSection(ctx, section, emit)
	})
}

// stop cancels the run, now or as soon as it has started.
func (r runner) stop() {
	if r.running() {
		r.task.Stop()
	}
}

// runEnded is what the root learns when a run ends: which section, with what result, how long.
type runEnded struct {
	section string
	result  run.RunResult
	elapsed time.Duration
}

// update follows the run: its lines (made printable once, as they arrive: the pane is redrawn on
// every tick) are returned for the output pane, and its end once it has ended.
func (r runner) update(msg tea.Msg) (runner, []output.Item, *runEnded, tea.Cmd) {
	items, done, cmd := task.Follow(r.task, msg, output.Run)
	if done == nil {
		return r, items, nil, cmd
	}
	return r, items, &runEnded{section: r.section, result: *done, elapsed: r.task.Elapsed()}, cmd
}

// footer is the output pane's last line while the run of the section shown goes on.
func (r runner) footer(c common.Common, shown string) (string, bool) {
	if !r.running() || r.section != shown {
		return "", false
	}
	secs := int(time.Since(r.task.Started()).Seconds())
	return "… " + c.T("ui.running", "seconds", itoa(secs)), true
}

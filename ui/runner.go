package ui

import (
	"context"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps"
	"ist2-boot/steps/run"
)

func itoa(n int) string { return strconv.Itoa(n) }

// runTask is a section's run: its output lines, then its result.
type runTask = task[run.Line, run.RunResult]

// runner is the run of a section's reference commands in progress (or the last one, until
// another starts), and the key that cancels it.
type runner struct {
	task    *runTask
	section string // the section it runs
	keys    runnerKeys
}

type runnerKeys struct{ Cancel binding }

func newRunner() runner {
	return runner{keys: runnerKeys{Cancel: newBinding("x / ctrl+c", "help.cancel", "x", "keys.cancel", "x", "ctrl+c")}}
}

// running: a run has been started and has not ended.
func (r runner) running() bool { return r.task.running() }

// runs: a run of the section is going on.
func (r runner) runs(section string) bool { return r.running() && r.section == section }

// start begins a run of the section with the tools as they are now.
func (r runner) start(c common, section string) (runner, tea.Cmd) {
	r.task, r.section = newTask[run.Line, run.RunResult](c.eng.Tick), section
	rn := &run.Runner{Lesson: c.eng.Lesson, Env: c.eng.Env, Tools: c.tools, Timeout: c.eng.Timeout, Lang: c.lang}
	return r, r.task.begin(func(ctx context.Context, emit func(run.Line)) run.RunResult {
		return rn.RunSection(ctx, section, emit)
	})
}

// stop cancels the run, now or as soon as it has started.
func (r runner) stop() {
	if r.running() {
		r.task.stop()
	}
}

// runEnded is what the root learns when a run ends: which section, with what result, how long.
type runEnded struct {
	section string
	result  run.RunResult
	elapsed time.Duration
}

// update follows the run: its lines (made printable once, as they arrive: the pane is redrawn on
// every tick) go to the output pane; its end is returned to the root.
func (r runner) update(msg tea.Msg, out *outputPane) (runner, *runEnded, tea.Cmd) {
	done, cmd := follow(r.task, msg, out, func(l run.Line) outItem {
		if l.Kind == run.Output {
			l.Text = printable(l.Text)
		}
		return outItem{line: l}
	})
	if done == nil {
		return r, nil, cmd
	}
	return r, &runEnded{section: r.section, result: *done, elapsed: r.task.elapsed}, cmd
}

// footer is the output pane's last line while the run of the section shown goes on.
func (r runner) footer(c common, shown string) (string, bool) {
	if !r.running() || r.section != shown {
		return "", false
	}
	secs := int(time.Since(r.task.start).Seconds())
	return "… " + c.t("ui.running", "seconds", itoa(secs)), true
}

// commandItems are the section's reference commands as the output pane lists them before asking.
func commandItems(sec *steps.Section) []outItem {
	var items []outItem
	for _, st := range sec.Steps {
		for _, l := range splitLines(st.Run) {
			items = append(items, outItem{line: run.Line{Kind: run.Command, Text: l}})
		}
	}
	return items
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

package ui

import (
	"context"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
)

// A task is background work a component started — a section's run, an install — and follows:
// the events it emits as they come, a tick while it lasts, then its result. Runs and installs are
// the same mechanism with other events and results; every task has an id of its own (as bubbles'
// components do), so a component takes the messages of its task and ignores every other.

// lastTaskID numbers tasks across the program.
var lastTaskID atomic.Int64

func nextTaskID() int { return int(lastTaskID.Add(1)) }

// job is the goroutine side of a task: its events, then its result, and how to cancel it.
type job[E, R any] struct {
	events chan E
	done   chan R
	cancel context.CancelFunc
}

// startJob runs work in a goroutine with a context that cancel ends.
func startJob[E, R any](work func(ctx context.Context, emit func(E)) R) *job[E, R] {
	ctx, cancel := context.WithCancel(context.Background())
	j := &job[E, R]{events: make(chan E, 256), done: make(chan R, 1), cancel: cancel}
	go func() {
		res := work(ctx, func(e E) { j.events <- e })
		close(j.events)
		j.done <- res
	}()
	return j
}

// The messages of a task, each carrying its id.
type (
	taskStartedMsg[E, R any] struct {
		id  int
		job *job[E, R]
	}
	taskEventsMsg[E any] struct {
		id     int
		events []E
	}
	taskDoneMsg[R any] struct {
		id     int
		result R
	}
	taskTickMsg struct{ id int }
)

// startTaskCmd starts work as task id, off the UI goroutine.
func startTaskCmd[E, R any](id int, work func(ctx context.Context, emit func(E)) R) tea.Cmd {
	return func() tea.Msg { return taskStartedMsg[E, R]{id: id, job: startJob(work)} }
}

// waitTaskCmd reads the job's next batch of events, or its result once they are all read; it is
// re-armed after each batch: one Update per batch, not per event.
func waitTaskCmd[E, R any](id int, j *job[E, R]) tea.Cmd {
	return func() tea.Msg {
		batch, open := nextBatch(j.events)
		if !open && len(batch) == 0 {
			return taskDoneMsg[R]{id: id, result: <-j.done}
		}
		return taskEventsMsg[E]{id: id, events: batch}
	}
}

// nextBatch blocks for one value, then takes up to 255 more that are already waiting; open is
// false once the channel is closed.
func nextBatch[T any](ch chan T) (batch []T, open bool) {
	v, ok := <-ch
	if !ok {
		return nil, false
	}
	batch = []T{v}
	for len(batch) < 256 {
		select {
		case v, ok := <-ch:
			if !ok {
				return batch, false
			}
			batch = append(batch, v)
		default:
			return batch, true
		}
	}
	return batch, true
}

// task is a component's view of its background work: the id its messages carry, when it
// started, its job once started, whether it ended (and after how long), and a cancel asked
// before the job had started (it is cancelled as it starts).
type task[E, R any] struct {
	id        int
	start     time.Time
	job       *job[E, R]
	ended     bool
	elapsed   time.Duration
	stopAsked bool
	every     time.Duration // how often it ticks while it lasts
}

// newTask is a task about to start: start it with start().
func newTask[E, R any](every time.Duration) *task[E, R] {
	if every <= 0 {
		every = time.Second
	}
	return &task[E, R]{id: nextTaskID(), start: time.Now(), every: every}
}

// owns: a message carrying id is this task's.
func (t *task[E, R]) owns(id int) bool { return t != nil && t.id == id }

// running: started (or about to) and not ended.
func (t *task[E, R]) running() bool { return t != nil && !t.ended }

// begin is the command that starts the task's work, with its first tick.
func (t *task[E, R]) begin(work func(ctx context.Context, emit func(E)) R) tea.Cmd {
	return tea.Batch(startTaskCmd(t.id, work), t.tick())
}

func (t *task[E, R]) tick() tea.Cmd {
	id := t.id
	return tea.Tick(t.every, func(time.Time) tea.Msg { return taskTickMsg{id: id} })
}

// stop cancels the task, now or as soon as it has started.
func (t *task[E, R]) stop() {
	t.stopAsked = true
	if t.job != nil {
		t.job.cancel()
	}
}

// taskUpdate is what a message meant for a task brings its owner: events to show, the result
// once it ended, and the command that goes on following the task (the next batch, the next tick).
type taskUpdate[E, R any] struct {
	mine   bool // the message was this task's
	events []E
	done   *R
	cmd    tea.Cmd
}

// update follows the task by msg; a message of another task (an older run, an install) is not
// its own.
func (t *task[E, R]) update(msg tea.Msg) taskUpdate[E, R] {
	switch msg := msg.(type) {
	case taskStartedMsg[E, R]:
		if t == nil || msg.id != t.id {
			// Only one component starts tasks of these types: one it no longer follows (a newer
			// one replaced it) must not run on unseen.
			msg.job.cancel()
			return taskUpdate[E, R]{}
		}
		t.job = msg.job
		if t.stopAsked {
			msg.job.cancel()
		}
		return taskUpdate[E, R]{mine: true, cmd: waitTaskCmd(t.id, msg.job)}
	case taskEventsMsg[E]:
		if t == nil || msg.id != t.id {
			return taskUpdate[E, R]{}
		}
		return taskUpdate[E, R]{mine: true, events: msg.events, cmd: waitTaskCmd(t.id, t.job)}
	case taskDoneMsg[R]:
		if t == nil || msg.id != t.id {
			return taskUpdate[E, R]{}
		}
		t.ended, t.elapsed = true, time.Since(t.start)
		return taskUpdate[E, R]{mine: true, done: &msg.result}
	case taskTickMsg:
		if t == nil || msg.id != t.id || t.ended {
			return taskUpdate[E, R]{}
		}
		return taskUpdate[E, R]{mine: true, cmd: t.tick()}
	}
	return taskUpdate[E, R]{}
}

// follow applies msg to the task: its events, each made an item of the output pane by item, go
// to the pane; the result is returned once the task ended. A message of another task changes
// nothing.
func follow[E, R any](t *task[E, R], msg tea.Msg, out *outputPane, item func(E) outItem) (*R, tea.Cmd) {
	u := t.update(msg)
	if len(u.events) > 0 {
		items := make([]outItem, 0, len(u.events))
		for _, e := range u.events {
			items = append(items, item(e))
		}
		out.appendItems(items)
	}
	return u.done, u.cmd
}

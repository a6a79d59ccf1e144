// Package task is background work a component started — a section's run, an install — and
// follows: the events it emits as they come, a tick while it lasts, then its result. Runs and
// installs are the same mechanism with other events and results; every task has an id of its own
// (as bubbles' components do), so a component takes the messages of its task and ignores every
// other.
package task

import (
	"context"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
)

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
	// StartedMsg: the task's job has started.
	StartedMsg[E, R any] struct {
		ID  int
		job *job[E, R]
	}
	// EventsMsg is a batch of the task's events.
	EventsMsg[E any] struct {
		ID     int
		Events []E
	}
	// DoneMsg is the task's result: it has ended.
	DoneMsg[R any] struct {
		ID     int
		Result R
	}
	// TickMsg: time to redraw the task's clock.
	TickMsg struct{ ID int }
)

// startCmd starts work as task id, off the UI goroutine.
func startCmd[E, R any](id int, work func(ctx context.Context, emit func(E)) R) tea.Cmd {
	return func() tea.Msg { return StartedMsg[E, R]{ID: id, job: startJob(work)} }
}

// waitCmd reads the job's next batch of events, or its result once they are all read; it is
// re-armed after each batch: one Update per batch, not per event.
func waitCmd[E, R any](id int, j *job[E, R]) tea.Cmd {
	return func() tea.Msg {
		batch, open := nextBatch(j.events)
		if !open && len(batch) == 0 {
			return DoneMsg[R]{ID: id, Result: <-j.done}
		}
		return EventsMsg[E]{ID: id, Events: batch}
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

// Task is a component's view of its background work: the id its messages carry, when it
// started, its job once started, whether it ended (and after how long), and a cancel asked
// before the job had started (it is cancelled as it starts).
type Task[E, R any] struct {
	id        int
	start     time.Time
	job       *job[E, R]
	ended     bool
	elapsed   time.Duration
	stopAsked bool
	every     time.Duration // how often it ticks while it lasts
}

// New is a task about to start: start it with Begin.
func New[E, R any](every time.Duration) *Task[E, R] {
	if every <= 0 {
		every = time.Second
	}
	return &Task[E, R]{id: nextTaskID(), start: time.Now(), every: every}
}

// Owns: a message carrying id is this task's.
func (t *Task[E, R]) Owns(id int) bool { return t != nil && t.id == id }

// Running: started (or about to) and not ended.
func (t *Task[E, R]) Running() bool { return t != nil && !t.ended }

// Begin is the command that starts the task's work, with its first tick.
func (t *Task[E, R]) Begin(work func(ctx context.Context, emit func(E)) R) tea.Cmd {
	return tea.Batch(startCmd(t.id, work), t.tick())
}

func (t *Task[E, R]) tick() tea.Cmd {
	id := t.id
	return tea.Tick(t.every, func(time.Time) tea.Msg { return TickMsg{ID: id} })
}

// Stop cancels the task, now or as soon as it has started.
func (t *Task[E, R]) Stop() {
	t.stopAsked = true
	if t.job != nil {
		t.job.cancel()
	}
}

// report is what a message meant for a task brings its owner: events to show, the result
// once it ended, and the command that goes on following the task (the next batch, the next tick).
type report[E, R any] struct {
	mine   bool // the message was this task's
	events []E
	done   *R
	cmd    tea.Cmd
}

// update follows the task by msg; a message of another task (an older run, an install) is not
// its own.
func (t *Task[E, R]) update(msg tea.Msg) report[E, R] {
	switch msg := msg.(type) {
	case StartedMsg[E, R]:
		if t == nil || msg.ID != t.id {
			// Only one component starts tasks of these types: one it no longer follows (a newer
			// one replaced it) must not run on unseen.
			msg.job.cancel()
			return report[E, R]{}
		}
		t.job = msg.job
		if t.stopAsked {
			msg.job.cancel()
		}
		return report[E, R]{mine: true, cmd: waitCmd(t.id, msg.job)}
	case EventsMsg[E]:
		if t == nil || msg.ID != t.id {
			return report[E, R]{}
		}
		return report[E, R]{mine: true, events: msg.Events, cmd: waitCmd(t.id, t.job)}
	case DoneMsg[R]:
		if t == nil || msg.ID != t.id {
			return report[E, R]{}
		}
		t.ended, t.elapsed = true, time.Since(t.start)
		return report[E, R]{mine: true, done: &msg.Result}
	case TickMsg:
		if t == nil || msg.ID != t.id || t.ended {
			return report[E, R]{}
		}
		return report[E, R]{mine: true, cmd: t.tick()}
	}
	return report[E, R]{}
}

// Follow applies msg to the task: its events, each made an item by item, are returned for the
// output pane, and the result once the task ended. A message of another task changes nothing.
func Follow[E, R, I any](t *Task[E, R], msg tea.Msg, item func(E) I) ([]I, *R, tea.Cmd) {
	u := t.update(msg)
	var items []I
	for _, e := range u.events {
		items = append(items, item(e))
	}
	return items, u.done, u.cmd
}

// Started is when the task was asked for.
func (t *Task[E, R]) Started() time.Time { return t.start }

// Ended: the task has ended (its result arrived).
func (t *Task[E, R]) Ended() bool { return t != nil && t.ended }

// Elapsed is how long the task took, once ended.
func (t *Task[E, R]) Elapsed() time.Duration { return t.elapsed }

// ID is the id the task's messages carry.
func (t *Task[E, R]) ID() int { return t.id }

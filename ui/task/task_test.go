package task

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// started runs a task's Begin command and returns its start message (its tick is not waited for).
func started[E, R any](t *testing.T, cmd tea.Cmd) StartedMsg[E, R] {
	t.Helper()
	for _, c := range cmd().(tea.BatchMsg) {
		done := make(chan tea.Msg, 1)
		go func() { done <- c() }()
		select {
		case msg := <-done:
			if s, ok := msg.(StartedMsg[E, R]); ok {
				return s
			}
		case <-time.After(time.Second): // the tick
		}
	}
	t.Fatal("no start message")
	return StartedMsg[E, R]{}
}

// A task's events come to its owner as items, in batches, then its result; it has ended after.
func TestFollowTakesEventsThenTheResult(t *testing.T) {
	tk := New[int, string](time.Hour)
	s := started[int, string](t, tk.Begin(func(ctx context.Context, emit func(int)) string {
		for i := range 3 {
			emit(i)
		}
		return "done"
	}))
	var got []int
	var result *string
	var msg tea.Msg = s
	for result == nil {
		items, done, cmd := Follow(tk, msg, func(e int) int { return e * 10 })
		got, result = append(got, items...), done
		if result == nil {
			msg = cmd()
		}
	}
	if len(got) != 3 || got[2] != 20 || *result != "done" || !tk.Ended() || tk.Running() {
		t.Errorf("items %v, result %v, ended %v", got, *result, tk.Ended())
	}
}

// A stop asked before the job started cancels it as it starts; another task's start is cancelled
// too (nobody follows it).
func TestStopBeforeTheStartAndStaleStarts(t *testing.T) {
	cancelled := make(chan string, 2)
	work := func(name string) func(ctx context.Context, emit func(int)) string {
		return func(ctx context.Context, emit func(int)) string {
			<-ctx.Done()
			cancelled <- name
			return name
		}
	}
	tk := New[int, string](time.Hour)
	begin := tk.Begin(work("stopped"))
	tk.Stop()
	Follow(tk, started[int, string](t, begin), func(e int) int { return e })
	other := New[int, string](time.Hour)
	Follow(tk, started[int, string](t, other.Begin(work("stale"))), func(e int) int { return e })
	for range 2 {
		select {
		case <-cancelled:
		case <-time.After(5 * time.Second):
			t.Fatal("a job was not cancelled")
		}
	}
}

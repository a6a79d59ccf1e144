package ui

import "context"

// job is work a Cmd started in the background: the events it emits as they come, then its
// result. Runs of reference commands and tool installs are both jobs.
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

// next blocks for one event, then takes what else is waiting (up to 256) without blocking: one
// Update per batch, not per event. Once every event is read, finished is true with the result.
func (j *job[E, R]) next() (batch []E, result R, finished bool) {
	batch, open := nextBatch(j.events)
	if !open && len(batch) == 0 {
		return nil, <-j.done, true
	}
	return batch, result, false
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

// Package watch reports the files of the work dir that a learner changed from outside the
// tutorial (another terminal, an editor), each once its writer is done.
package watch

import (
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Quiet is how long a file must see no event before it counts as written: an editor's save is a
// burst (truncate, writes, a rename), and a file judged mid-burst would be judged half-written.
const Quiet = 300 * time.Millisecond

// Watcher sends on Changes the names (base names, sorted) of the files of its directory changed
// since the last send, once none of them has seen an event for the quiet time.
type Watcher struct {
	Changes <-chan []string
	fs      *fsnotify.Watcher
	stop    chan struct{}
	once    sync.Once
}

// New watches dir.
func New(dir string, quiet time.Duration) (*Watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	if err := fw.Add(dir); err != nil {
		fw.Close()
		return nil, err
	}
	changes := make(chan []string, 1)
	w := &Watcher{Changes: changes, fs: fw, stop: make(chan struct{})}
	go w.loop(changes, quiet)
	return w, nil
}

func (w *Watcher) loop(changes chan<- []string, quiet time.Duration) {
	defer close(changes)
	pending := map[string]bool{}
	timer := time.NewTimer(quiet)
	timer.Stop()
	for {
		select {
		case <-w.stop:
			return
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			if ev.Op&(fsnotify.Write|fsnotify.Create|fsnotify.Rename|fsnotify.Remove) == 0 {
				continue
			}
			pending[filepath.Base(ev.Name)] = true
			timer.Reset(quiet) // the burst goes on: wait for it to end
		case _, ok := <-w.fs.Errors:
			if !ok {
				return
			}
		case <-timer.C:
			names := make([]string, 0, len(pending))
			for n := range pending {
				names = append(names, n)
			}
			slices.Sort(names)
			clear(pending)
			select {
			case changes <- names:
			case <-w.stop:
				return
			}
		}
	}
}

// Close stops watching; Changes is closed.
func (w *Watcher) Close() error {
	w.once.Do(func() { close(w.stop) })
	return w.fs.Close()
}

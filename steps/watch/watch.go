// Package watch reports the files of the work dir that a learner changed from outside the
// tutorial (another terminal, an editor), each once its writer is done.
package watch

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Quiet is how long a file must see no event before it counts as written: an editor's save is a
// burst (truncate, writes, a rename), and a file judged mid-burst would be judged half-written.
// Each file has its own quiet time: one written all the time (Envoy's log) delays no other.
const Quiet = 300 * time.Millisecond

// The names a batch may hold besides files: the dir went away (deleted, renamed), it is back and
// watched again, or more files changed than are kept apart (maxPending: judge everything).
const (
	DirGone  = "/gone"
	DirBack  = "/back"
	Overflow = "/many"
)

// maxPending bounds the names kept while they wait for their quiet time; past it, the batch says
// Overflow instead of naming more.
const maxPending = 1024

// regainEvery is how often a watch that lost its dir looks for it again.
var regainEvery = time.Second

// Watcher sends on Changes the names (base names, sorted) of the files of its directory changed
// since the last send, each once it has seen no event for the quiet time; and DirGone / DirBack
// when the dir itself goes away and comes back (watched again).
type Watcher struct {
	Changes <-chan []string
	fs      *fsnotify.Watcher
	dir     string
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
	w := &Watcher{Changes: changes, fs: fw, dir: filepath.Clean(dir), stop: make(chan struct{})}
	go w.loop(changes, quiet)
	return w, nil
}

func (w *Watcher) loop(changes chan<- []string, quiet time.Duration) {
	defer close(changes)
	pending := map[string]time.Time{} // name → its last event
	overflow, gone := false, false
	tick := time.NewTicker(max(quiet/4, 10*time.Millisecond))
	defer tick.Stop()
	regain := time.NewTicker(regainEvery)
	defer regain.Stop()
	send := func(names []string) bool {
		select {
		case changes <- names:
			return true
		case <-w.stop:
			return false
		}
	}
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
			if filepath.Clean(ev.Name) == w.dir && ev.Op&(fsnotify.Remove|fsnotify.Rename) != 0 {
				gone = true
				clear(pending)
				if !send([]string{DirGone}) {
					return
				}
				continue
			}
			name := filepath.Base(ev.Name)
			if _, known := pending[name]; !known && len(pending) >= maxPending {
				overflow = true
				continue
			}
			pending[name] = time.Now()
		case _, ok := <-w.fs.Errors:
			if !ok {
				return
			}
		case <-regain.C:
			if !gone {
				continue
			}
			if fi, err := os.Stat(w.dir); err == nil && fi.IsDir() && w.fs.Add(w.dir) == nil {
				gone = false
				if !send([]string{DirBack}) {
					return
				}
			}
		case now := <-tick.C:
			var names []string
			for n, at := range pending {
				if now.Sub(at) >= quiet {
					names = append(names, n)
					delete(pending, n)
				}
			}
			if overflow && len(pending) == 0 {
				names, overflow = append(names, Overflow), false
			}
			if len(names) == 0 {
				continue
			}
			slices.Sort(names)
			if !send(names) {
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

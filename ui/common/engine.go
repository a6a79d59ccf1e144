package common

import (
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
)

// Engine is what the tutorial works with: the lesson, the environment and the progress store.
// The tutorial reaches them only through commands (tea.Cmd), never in Update or View.
type Engine struct {
	Lesson   *steps.Lesson
	Env      *steps.Env
	Store    *progress.Store
	Glossary []i18n.Term
	Timeout  time.Duration // per section run; 0 means the lesson's default
	Lang     i18n.Lang     // from --lang; "" lets the saved choice or the locale decide
	Locale   i18n.Lang     // from LC_ALL/LANG; "" when neither names one
	NoColor  bool
	Tick     time.Duration // how often a run's elapsed time is redrawn; 0 means every second
	// MessageTTL is how long a status message stays; 0 means defaultMessageTTL, below 0 forever.
	MessageTTL time.Duration
	// Watch: re-check the open section when its files are written from outside (the tutorial
	// sets it; tests that drive the model by hand leave it off, as its command never returns).
	Watch bool

	saves   sync.RWMutex // held (shared) by each progress write while it runs: Flush waits for them
	flushed bool         // set by Flush under the write lock: a save that comes later does nothing

	// Suspend hands the terminal back and stops the program until fg (ctrl+z); the tutorial sets
	// it, with its signal handling. Nil in tests: ctrl+z then does nothing.
	Suspend func()
}

// Flush waits for the progress writes under way: a language chosen just before q is kept, and
// nothing writes into the state dir once the program has returned. A write that had not begun
// (its goroutine not yet at the lock) is dropped: it would land after the program returned.
func (e *Engine) Flush() {
	e.saves.Lock() // returns once every write holding the read lock is done
	e.flushed = true
	e.saves.Unlock()
}

// SavedMsg is the progress as a change left it, or why it could not be saved.
type SavedMsg struct {
	Progress *progress.Progress
	Err      error
}

// SaveCmd applies a change to the saved progress (language, last section, hints used); Flush
// waits for it.
func (e *Engine) SaveCmd(change func(*progress.Progress)) tea.Cmd {
	return func() tea.Msg {
		e.saves.RLock()
		defer e.saves.RUnlock()
		if e.flushed { // the program has returned: the state dir is no longer ours to write
			return nil
		}
		p, err := e.Store.Update(change)
		return SavedMsg{Progress: p, Err: err}
	}
}

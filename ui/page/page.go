// Package page is what a page kind is to the root model: the Page interface each kind implements
// (the lesson's own pages, the drill page, and any kind added later), the effects a page asks of
// the root instead of reaching into a sibling, and the Msg marker that routes a page's own
// messages back to it. The root holds one value per kind, routes to it by page id, and never
// names a kind.
package page

import (
	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/ui/common"
	"ist2-boot/ui/keys"
	"ist2-boot/ui/pane/prose"
)

// Page is a kind of page: it may serve several page ids (the lesson kind serves the intro, every
// section and the finish page), and keeps the state its pages need. Its methods take the shared
// context and the id of the page meant; a method that changes the page returns the next value.
type Page interface {
	// Owns tells whether id is a page of this kind.
	Owns(id string) bool
	// Place returns the page list with this kind's pages in it: a kind whose pages the lesson
	// places returns ids as they are, another puts its own where they go.
	Place(ids []string) []string
	// Title is the page's short title, as the page list shows it.
	Title(c common.Common, id string) string
	// Section is the lesson section whose actions apply on the page (r runs its steps, c checks
	// its files, d shows their diffs, h its hints); false when the page is not one.
	Section(c common.Common, id string) (*steps.Section, bool)
	// Actions: the section actions' keys stay on while the page is read, to say when they do not
	// apply; false gives those keys to the page's own bindings.
	Actions() bool
	// Document is what the prose pane shows for the page; key is its rendering's key so far.
	Document(c common.Common, id string, key prose.Key) prose.Document
	// IdleLine is what the output pane says before anything ran on the page.
	IdleLine(c common.Common, id string) string
	// Bindings are the kind's own keys as they stand (copies: enabled or not), in the order the
	// help screen lists them within their keys.Group.
	Bindings() []keys.Binding
	// EnableKeys turns the kind's keys on for where the learner is.
	EnableKeys(at At) Page
	// Opened is called when one of the kind's pages opens: what it needs besides its prose.
	Opened(c common.Common, id string) (Page, tea.Cmd)
	// Update takes a key of the kind's own bindings (on page id, the one open) or a message of
	// the kind's (a Msg whose Page it owns).
	Update(c common.Common, id string, msg tea.Msg) (Page, tea.Cmd, []Effect)
	// Busy: work of the page's is under way that the tutorial waits for before it quits.
	Busy() bool
	// Stop cancels that work (the learner is leaving).
	Stop()
	// Reset forgets what the kind drew or read (a new lab): the next opening starts afresh.
	Reset() Page
}

// At is where the learner is, for enabling keys: the open page, whether page keys fire at all (no
// question is asked and no overlay is open), and what the prose pane shows over the page.
type At struct {
	ID      string
	Keys    bool // no question, no overlay
	Reading bool // the prose pane shows the page itself (not the glossary or the tools page)
	Tools   bool // the tools page covers it
}

// Msg is a message that belongs to a page: the root hands it to the kind that owns Page().
type Msg interface {
	tea.Msg
	Page() string
}

// Effect is what a page asks of the root instead of reaching into a sibling.
type Effect interface{ effect() }

// Save applies a change to the saved progress (the root runs the command, and takes the
// progress it returns).
type Save struct{ Change func(*progress.Progress) }

// Status puts a message in the status line.
type Status struct{ Msg i18n.Msg }

// Open opens the page id.
type Open struct{ ID string }

// Reveal opens the page's next rendering at its last line starting with one of Prefixes.
type Reveal struct{ Prefixes []string }

// NewLab offers a fresh lab: the root asks the learner first, where a new lab is allowed.
type NewLab struct{}

func (Save) effect()   {}
func (Status) effect() {}
func (Open) effect()   {}
func (NewLab) effect() {}
func (Reveal) effect() {}

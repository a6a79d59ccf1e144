// Package keys holds the tutorial's key bindings: a key.Binding with how the key line shows it and
// where the help screen lists it, the scroll keys every scrollable pane owns a set of, and the
// helpers that match and enable them. Each component owns its bindings; the root lists them all
// for the help screen, the key line and the collision test.
package keys

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
)

// Group is where the help screen lists a binding: bindings are shown group by group, in the order
// of the groups below, and in the order they were listed within a group. A page kind's bindings
// thus land among the root's own of the same kind, wherever the page kind is listed.
type Group int

// The groups, in the help screen's order.
const (
	Answers   Group = iota // answers to what is asked: y/n, a drill's answers
	Work                   // the work under way: cancel a run, the tools page's install
	Overlays               // the diff view's and the help screen's own
	Scrolling              // every pane's scroll keys
	Moving                 // moving between pages and panes
	Actions                // a section's actions, the language, the glossary, a page's own actions
	Leaving                // suspend, help, quit
)

// Binding is a key.Binding with how the key line shows it: short is the key as the key line
// writes it ("" for not on the key line) and label the catalog key of its word there. Its help
// (keys and the catalog key of what it does) is the help screen's row; a binding without help
// shares the row of the one before it.
type Binding struct {
	key.Binding
	short, label string
	group        Group
}

// New makes a binding: help and desc for the help screen, short and label for the key line. It is
// listed among the Actions unless In says otherwise.
func New(help, desc, short, label string, keys ...string) Binding {
	return Binding{Binding: key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc)), short: short, label: label, group: Actions}
}

// In returns the binding listed in group g on the help screen.
func (b Binding) In(g Group) Binding { b.group = g; return b }

// Group is where the help screen lists the binding.
func (b Binding) Group() Group { return b.group }

// Short is the key as the key line writes it; "" keeps the binding off the key line.
func (b Binding) Short() string { return b.short }

// Label is the catalog key of the binding's word on the key line.
func (b Binding) Label() string { return b.label }

// SetLabel changes the word on the key line (the answers take the question's own verbs).
func (b *Binding) SetLabel(label string) { b.label = label }

// SetShort changes how the key line writes the keys (a drill's "1/2/3" when three answers are offered).
func (b *Binding) SetShort(short string) { b.short = short }

// Matches tells whether the key fires one of the bindings (a disabled binding never fires).
func Matches(msg fmt.Stringer, bs ...Binding) bool {
	for _, b := range bs {
		if key.Matches(msg, b.Binding) {
			return true
		}
	}
	return false
}

// Enable sets every binding given on or off.
func Enable(on bool, bs ...*Binding) {
	for _, b := range bs {
		b.SetEnabled(on)
	}
}

// Scroll keys move a viewport. Each scrollable component (prose, output, list, diff view, help
// screen) owns a set, enabled while it is the one that takes them.
type Scroll struct {
	Up, Down, PageUp, PageDown, Top, Bottom Binding
}

// NewScroll is a set of scroll keys.
func NewScroll() Scroll {
	return Scroll{
		// The six share one help row and one key line item, on Up.
		Up:   New("↑/↓ j/k PgUp/PgDn g/G", "help.scroll", "↑↓", "keys.scroll", "up", "k").In(Scrolling),
		Down: New("", "", "", "", "down", "j").In(Scrolling), PageUp: New("", "", "", "", "pgup", "b").In(Scrolling),
		PageDown: New("", "", "", "", "pgdown", "space", "f").In(Scrolling),
		Top:      New("", "", "", "", "g", "home").In(Scrolling), Bottom: New("", "", "", "", "G", "end").In(Scrolling),
	}
}

// All is the set's bindings, for enabling and listing.
func (k *Scroll) All() []*Binding {
	return []*Binding{&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.Top, &k.Bottom}
}

// Move is what a scroll key asks for.
type Move int

// The moves, in the order of Scroll's fields.
const (
	NoScroll Move = iota
	LineUp
	LineDown
	PageUp
	PageDown
	ToTop
	ToBottom
)

// Move is the scroll a key asks for (NoScroll for any other key, or a disabled one).
func (k Scroll) Move(msg fmt.Stringer) Move {
	for i, b := range []Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom} { // in Move's order
		if Matches(msg, b) {
			return LineUp + Move(i)
		}
	}
	return NoScroll
}

// ScrollViewport moves a viewport by the scroll keys.
func ScrollViewport(vp *viewport.Model, k Scroll, msg fmt.Stringer) {
	switch k.Move(msg) {
	case LineUp:
		vp.ScrollUp(1)
	case LineDown:
		vp.ScrollDown(1)
	case PageUp:
		vp.PageUp()
	case PageDown:
		vp.PageDown()
	case ToTop:
		vp.GotoTop()
	case ToBottom:
		vp.GotoBottom()
	}
}

package ui

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"

	"ist2-boot/steps/i18n"
)

// binding is a key.Binding with how the key line shows it: short is the key as the key line
// writes it ("" for not on the key line) and label the catalog key of its word there. Its help
// (keys and the catalog key of what it does) is the help screen's row; a binding without help
// shares the row of the one before it.
type binding struct {
	key.Binding
	short, label string
}

// newBinding makes a binding: help and desc for the help screen, short and label for the key line.
func newBinding(help, desc, short, label string, keys ...string) binding {
	return binding{Binding: key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc)), short: short, label: label}
}

// matches tells whether the key fires one of the bindings (a disabled binding never fires).
func matches(msg fmt.Stringer, bs ...binding) bool {
	for _, b := range bs {
		if key.Matches(msg, b.Binding) {
			return true
		}
	}
	return false
}

// enable sets every binding given on or off.
func enable(on bool, bs ...*binding) {
	for _, b := range bs {
		b.SetEnabled(on)
	}
}

// scrollKeys move a viewport. Each scrollable component (prose, output, list, diff view, help
// screen) owns a set, enabled while it is the one that takes them.
type scrollKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom binding
}

func newScrollKeys() scrollKeys {
	return scrollKeys{
		// The six share one help row and one key line item, on Up.
		Up:   newBinding("↑/↓ j/k PgUp/PgDn g/G", "help.scroll", "↑↓", "keys.scroll", "up", "k"),
		Down: newBinding("", "", "", "", "down", "j"), PageUp: newBinding("", "", "", "", "pgup", "b"),
		PageDown: newBinding("", "", "", "", "pgdown", "space", "f"),
		Top:      newBinding("", "", "", "", "g", "home"), Bottom: newBinding("", "", "", "", "G", "end"),
	}
}

func (k *scrollKeys) all() []*binding {
	return []*binding{&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.Top, &k.Bottom}
}

// scrollMove is what a scroll key asks for.
type scrollMove int

const (
	noScroll scrollMove = iota
	lineUp
	lineDown
	pageUp
	pageDown
	toTop
	toBottom
)

// move is the scroll a key asks for (noScroll for any other key, or a disabled one).
func (k scrollKeys) move(msg fmt.Stringer) scrollMove {
	for i, b := range []binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom} { // in scrollMove's order
		if matches(msg, b) {
			return lineUp + scrollMove(i)
		}
	}
	return noScroll
}

// rootKeys are the bindings the root model itself acts on: the question's answers, moving between
// pages, a section's actions, the language, the glossary and tools page, and leaving.
type rootKeys struct {
	Yes, No                        binding
	Next, Prev, Focus              binding
	Run, Shell, Check, Diff, Hint  binding
	Lang, Glossary, Doctor         binding
	GlossaryClose                  binding // esc on the glossary: back to the page
	Suspend, Help, Quit, QuitCtrlC binding
}

func newRootKeys() rootKeys {
	return rootKeys{
		Yes: newBinding("", "", "y", "keys.yes.run", "y", "Y"), No: newBinding("", "", "n/esc", "keys.no.run", "n", "N", "esc", "q"),
		Next: newBinding("n / p", "help.page", "n/p", "keys.page", "n"), Prev: newBinding("", "", "", "", "p"),
		Focus: newBinding("tab", "help.focus", "", "", "tab"),
		Run:   newBinding("r", "help.run", "r", "keys.run", "r"), Shell: newBinding("s", "help.shell", "s", "keys.shell", "s"),
		Check: newBinding("c", "help.check", "c", "keys.check", "c"), Diff: newBinding("d", "help.diff", "d", "keys.diff", "d"),
		Hint: newBinding("h", "help.hint", "h", "keys.hint", "h"),
		Lang: newBinding("l", "help.lang", "l", "keys.lang", "l"), Glossary: newBinding("t", "help.glossary", "", "", "t"),
		GlossaryClose: newBinding("esc", "help.glossary_close", "esc", "keys.close", "esc"),
		Doctor:        newBinding("D, i", "help.doctor", "", "", "D"),
		Suspend:       newBinding("ctrl+z", "help.suspend", "", "", "ctrl+z"),
		Help:          newBinding("?", "help.help", "?", "keys.help", "?"), Quit: newBinding("q", "help.quit", "q", "keys.quit", "q"),
		// ctrl+c quits when nothing runs; while a run goes, the runner's Cancel has it.
		QuitCtrlC: newBinding("", "", "", "", "ctrl+c"),
	}
}

// bindings lists every binding of the tutorial, each component's own, in the order the help
// screen and the key line show them: the question's answers, the keys of what is open, scrolling,
// moving, a section's actions, then ? and q. The help screen, the key line and the collision
// test are all derived from this list.
func (m *Model) bindings() []*binding {
	k := &m.keys
	list := []*binding{&k.Yes, &k.No}
	list = append(list, m.drill.keys.all()...)
	list = append(list, &m.runner.keys.Cancel)
	list = append(list, &m.toolsPage.keys.Install, &m.toolsPage.keys.Back)
	list = append(list, m.diff.keys.all()...)
	list = append(list, &m.help.keys.Close)
	for _, s := range []*scrollKeys{&m.prose.keys, &m.out.keys, &m.nav.keys.scroll, &m.diff.keys.scroll, &m.help.keys.scroll} {
		list = append(list, s.all()...)
	}
	list = append(list, &k.Next, &k.Prev, &k.Focus, &m.nav.keys.Open)
	list = append(list, &k.Run, &k.Shell, &k.Check, &k.Diff, &k.Hint, &k.Lang, &k.Glossary, &k.GlossaryClose, &k.Doctor)
	list = append(list, &m.finish.keys.Again, &m.finish.keys.NewLab)
	return append(list, &k.Suspend, &k.Help, &k.Quit, &k.QuitCtrlC)
}

// helpRows are the help screen's rows: every binding with help, once (the scroll keys are owned by
// several panes alike), its keys and catalog key — the keys of the moment first, then those of
// other places (a section page lists n, p, r, s before the drill's answers: newcomer L4).
func (m Model) helpRows() [][2]string {
	var now, elsewhere [][2]string
	for _, b := range m.bindings() {
		h := b.Help()
		row := [2]string{h.Key, h.Desc}
		if h.Desc == "" || slices.Contains(now, row) || slices.Contains(elsewhere, row) {
			continue
		}
		if b.Enabled() {
			now = append(now, row)
		} else {
			elsewhere = append(elsewhere, row)
		}
	}
	return append(now, elsewhere...)
}

// keyLineItems are the key line's items now, each "key word" in the language: the enabled
// bindings that have a short form, in bindings' order, with ? and q (help, and quit or close) last
// so that cutting from the middle keeps them.
func (m Model) keyLineItems() (items, pinned []string) {
	// What the open page does comes before moving about, and moving before scrolling: cut from
	// the middle at 80 or 60 columns, the line keeps c on a section and a and N on the finish
	// page (ja M10, ko KM-9, KM-10, zh M6); the help screen keeps bindings' order.
	rank := map[*binding]int{}
	k := &m.keys
	for _, b := range []*binding{&k.Next, &k.Prev, &k.Focus, &m.nav.keys.Open, &k.Lang, &k.Glossary, &k.Doctor, &k.Suspend} {
		rank[b] = 1
	}
	for _, s := range []*scrollKeys{&m.prose.keys, &m.out.keys, &m.nav.keys.scroll, &m.diff.keys.scroll, &m.help.keys.scroll} {
		for _, b := range s.all() {
			rank[b] = 2
		}
	}
	// A section's own keys stay working on the intro and the finish page (they say there is
	// nothing for them there) but are not offered there (ko KM-9, zh M6).
	sectionOnly := []*binding{&k.Run, &k.Check, &k.Diff, &k.Hint}
	_, onSection := m.Eng.Lesson.Section(m.pageID())
	bindings := m.bindings()
	slices.SortStableFunc(bindings, func(a, b *binding) int { return rank[a] - rank[b] })
	for _, b := range bindings {
		if b.short == "" || !b.Enabled() || !onSection && slices.Contains(sectionOnly, b) {
			continue
		}
		item := b.short + " " + i18n.T(m.Lang, b.label, nil)
		if slices.Contains(items, item) || slices.Contains(pinned, item) {
			continue
		}
		if b.label == "keys.help" || b.label == "keys.quit" || b.label == "keys.close" {
			pinned = append(pinned, item)
			continue
		}
		items = append(items, item)
	}
	return items, pinned
}

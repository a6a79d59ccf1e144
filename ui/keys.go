package ui

import (
	"slices"
	"strings"

	"ist2-boot/steps/i18n"
	"ist2-boot/ui/keys"
)

// rootKeys are the bindings the root model itself acts on: the question's answers, moving between
// pages, a section's actions, the language, the glossary and tools page, and leaving.
type rootKeys struct {
	Yes, No                        keys.Binding
	Next, Prev, Focus              keys.Binding
	Run, Shell, Check, Diff, Hint  keys.Binding
	Lang, Glossary, Doctor         keys.Binding
	GlossaryClose                  keys.Binding // esc on the glossary: back to the page
	Suspend, Help, Quit, QuitCtrlC keys.Binding
}

func newRootKeys() rootKeys {
	return rootKeys{
		Yes: keys.New("", "", "y", "keys.yes.run", "y", "Y").In(keys.Answers), No: keys.New("", "", "n/esc", "keys.no.run", "n", "N", "esc", "q").In(keys.Answers),
		Next: keys.New("n / p", "help.page", "n/p", "keys.page", "n").In(keys.Moving), Prev: keys.New("", "", "", "", "p").In(keys.Moving),
		Focus: keys.New("tab", "help.focus", "tab", "keys.focus", "tab").In(keys.Moving),
		Run:   keys.New("r", "help.run", "r", "keys.run", "r"), Shell: keys.New("s", "help.shell", "s", "keys.shell", "s"),
		Check: keys.New("c", "help.check", "c", "keys.check", "c"), Diff: keys.New("d", "help.diff", "d", "keys.diff", "d"),
		Hint: keys.New("h", "help.hint", "h", "keys.hint", "h"),
		Lang: keys.New("l", "help.lang", "l", "keys.lang", "l"), Glossary: keys.New("t", "help.glossary", "t", "keys.glossary", "t"),
		GlossaryClose: keys.New("esc, q", "help.glossary_close", "esc", "keys.close", "esc", "q"),
		Doctor:        keys.New("D, i", "help.doctor", "D", "keys.tools", "D"),
		Suspend:       keys.New("ctrl+z", "help.suspend", "", "", "ctrl+z").In(keys.Leaving),
		Help:          keys.New("?", "help.help", "?", "keys.help", "?").In(keys.Leaving), Quit: keys.New("q", "help.quit", "q", "keys.quit", "q").In(keys.Leaving),
		// ctrl+c quits when nothing runs; while a run goes, the runner's Cancel has it.
		QuitCtrlC: keys.New("", "", "", "", "ctrl+c").In(keys.Leaving),
	}
}

// bindings lists every binding of the tutorial, each component's own and each page kind's, in the
// order the help screen and the key line show them: by keys.Group — the question's answers (and a
// page's), the work under way, the overlays' keys, scrolling, moving, a section's actions (and a
// page's), then ? and q — and within a group, in the order listed here. The help screen, the key
// line and the collision test are all derived from this list.
func (m *Model) bindings() []*keys.Binding {
	k := &m.keys
	list := []*keys.Binding{&k.Yes, &k.No, &m.runner.keys.Cancel}
	list = append(list, m.toolsPage.Bindings()...)
	list = append(list, m.diff.Bindings()...)
	list = append(list, m.help.Close())
	for _, s := range []*keys.Scroll{m.prose.Keys(), m.out.Keys(), &m.nav.keys.scroll, m.diff.Scroll(), m.help.Scroll()} {
		list = append(list, s.All()...)
	}
	list = append(list, &k.Next, &k.Prev, &k.Focus, &m.nav.keys.Open)
	list = append(list, &k.Run, &k.Shell, &k.Check, &k.Diff, &k.Hint, &k.Lang, &k.Glossary, &k.GlossaryClose, &k.Doctor)
	list = append(list, &k.Suspend, &k.Help, &k.Quit, &k.QuitCtrlC)
	list = append(list, m.pageBindings()...)
	slices.SortStableFunc(list, func(a, b *keys.Binding) int { return int(a.Group()) - int(b.Group()) })
	return list
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
	rank := map[*keys.Binding]int{}
	k := &m.keys
	// Pages, then the shell, the diff and the panes (ja M10: n/p and h before s and d), then
	// scrolling.
	// n/p and tab come before h and t, which come before the rest: at 60 columns a section keeps
	// r, c and n/p, and at 120 the glossary's t shows too (ko r7 L10).
	for _, b := range []*keys.Binding{&k.Next, &k.Prev} {
		rank[b] = 1
	}
	rank[&k.Focus] = 2 // which pane the scroll keys move (ko KO-07)
	for _, b := range []*keys.Binding{&k.Hint, &k.Glossary} {
		rank[b] = 3
	}
	for _, b := range []*keys.Binding{&k.Shell, &k.Diff, &m.nav.keys.Open, &k.Lang, &k.Doctor, &k.Suspend} {
		rank[b] = 4
	}
	for _, s := range []*keys.Scroll{m.prose.Keys(), m.out.Keys(), &m.nav.keys.scroll, m.diff.Scroll(), m.help.Scroll()} {
		for _, b := range s.All() {
			rank[b] = 5
		}
	}
	// A section's own keys stay working on the intro and the finish page (they say there is
	// nothing for them there) but are not offered there (ko KM-9, zh M6).
	sectionOnly := []*keys.Binding{&k.Run, &k.Shell, &k.Check, &k.Diff, &k.Hint}
	_, onSection := m.section()
	bindings := m.bindings()
	slices.SortStableFunc(bindings, func(a, b *keys.Binding) int { return rank[a] - rank[b] })
	for _, b := range bindings {
		if b.Short() == "" || !b.Enabled() || !onSection && slices.Contains(sectionOnly, b) {
			continue
		}
		if m.runner.running() && (b == &k.Run || b == &k.Check || b == &k.Shell) {
			continue // while commands run these only say so (ui.busy): x cancels, and the line offers that (ja r7 L20)
		}
		if b == &k.Glossary && m.nav.view == viewGlossary || b == &k.Doctor && m.nav.view == viewTools {
			continue // open: its esc closes it, and the line says so
		}
		if b == &k.Help && m.overlay == overlayHelp {
			continue // ? closes the help too, but the line does not offer the help it is showing (ko r7 L28)
		}
		short := strings.ReplaceAll(b.Short(), "/", m.T("keys.sep")) // "n/p", 「n、p」: as the help writes them
		item := short + " " + i18n.T(m.Lang, b.Label(), nil)
		if b == &k.Focus { // tab says what it moves between and which pane has the keys now (ko KO-07)
			item = short + " " + m.T(b.Label(), "pane", m.T("ui.focus."+[...]string{"prose", "output", "list"}[m.nav.focus]))
		}
		if slices.Contains(items, item) || slices.Contains(pinned, item) {
			continue
		}
		if b.Label() == "keys.help" || b.Label() == "keys.quit" || b.Label() == "keys.close" {
			pinned = append(pinned, item)
			continue
		}
		items = append(items, item)
	}
	return items, pinned
}

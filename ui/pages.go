package ui

// How the root reaches the page kinds: by the page id, through page.Page, never by naming a kind.

import (
	"slices"

	"ist2-boot/ui/keys"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/ui/page"
	"ist2-boot/ui/pane/prose"
)

// kindOf is the index in m.pages of the kind that owns page id (-1: none).
func (m Model) kindOf(id string) int {
	return slices.IndexFunc(m.pages, func(p page.Page) bool { return p.Owns(id) })
}

// kind is the kind of page id; every page of the list has one (New places them).
func (m Model) kind(id string) page.Page { return m.pages[m.kindOf(id)] }

// setKind replaces kind i in a new slice: earlier models keep theirs.
func (m *Model) setKind(i int, p page.Page) {
	pages := slices.Clone(m.pages)
	pages[i] = p
	m.pages = pages
}

// section is the lesson section whose actions apply on the open page (r, s, c, d, h).
func (m Model) section() (*steps.Section, bool) {
	return m.kind(m.pageID()).Section(m.Common, m.pageID())
}

// pageTitle is a page's short title in the current language, as the page list shows it.
func (m Model) pageTitle(id string) string { return m.kind(id).Title(m.Common, id) }

// pageDocument is what the prose pane shows for the open page.
func (m Model) pageDocument(key prose.Key) prose.Document {
	return m.kind(m.pageID()).Document(m.Common, m.pageID(), key)
}

// pagesBusy: a page's work is under way (a drill being drawn), which leaving waits for.
func (m Model) pagesBusy() bool { return slices.ContainsFunc(m.pages, page.Page.Busy) }

// pageCmds fetches what the open page needs besides its prose (the finish page's report, the
// drill page's first drill).
func (m *Model) pageCmds() tea.Cmd {
	i := m.kindOf(m.pageID())
	p, cmd := m.pages[i].Opened(m.Common, m.pageID())
	m.setKind(i, p)
	return cmd
}

// firesPageKey: the key fires one of the open page kind's own bindings (enabled: only where the
// learner is on one of its pages).
func (m Model) firesPageKey(msg tea.KeyPressMsg) bool {
	for _, b := range m.kind(m.pageID()).Bindings() {
		if keys.Matches(msg, b) {
			return true
		}
	}
	return false
}

// pageMsg hands a page's message to the kind that owns its page; when the learner was leaving and
// that page's work has now stopped, the leaving goes on.
func (m Model) pageMsg(msg page.Msg) (Model, tea.Cmd) {
	i := m.kindOf(msg.Page())
	if i < 0 {
		return m, nil
	}
	busy := m.pagesBusy()
	m, cmd := m.toPage(i, msg.Page(), msg)
	if busy && m.session.quitting && !m.pagesBusy() {
		return m.leave()
	}
	return m, cmd
}

// toPage updates kind i with msg for page id, applies the effects it asks for, and shows what the
// page shows now.
func (m Model) toPage(i int, id string, msg tea.Msg) (Model, tea.Cmd) {
	p, cmd, effects := m.pages[i].Update(m.Common, id, msg)
	m.setKind(i, p)
	m, more := m.apply(effects)
	m.refreshOutput() // the page's idle line follows its state (the drill's: answer, fix, next; ko r8 KO-06)
	return m, tea.Batch(cmd, more, m.ensureProse())
}

// apply does what a page asked of the root.
func (m Model) apply(effects []page.Effect) (Model, tea.Cmd) {
	var cmds []tea.Cmd
	for _, e := range effects {
		switch e := e.(type) {
		case page.Save:
			cmds = append(cmds, m.Eng.SaveCmd(e.Change))
		case page.Status:
			m.status.message = e.Msg
		case page.Open:
			var cmd tea.Cmd
			m, cmd = m.openPage(slices.Index(m.nav.pages, e.ID))
			cmds = append(cmds, cmd)
		case page.Reveal:
			m.prose.Reveal(e.Prefixes...)
		case page.NewLab:
			if !progress.OwnsFixtures(m.Eng.Env) {
				m.status.message = i18n.M("newlab.lab_mode", "dir", m.Eng.Env.Fixtures)
				continue
			}
			m.status.question = askNewLab
		}
	}
	return m, tea.Batch(cmds...)
}

// enablePageKeys turns every kind's keys on or off for where the learner is.
func (m *Model) enablePageKeys(at page.At) {
	pages := make([]page.Page, len(m.pages))
	for i, p := range m.pages {
		pages[i] = p.EnableKeys(at)
	}
	m.pages = pages
}

// pageBindings are every kind's own keys, as they stand.
func (m Model) pageBindings() []*keys.Binding {
	var list []*keys.Binding
	for _, p := range m.pages {
		for _, b := range p.Bindings() {
			list = append(list, &b)
		}
	}
	return list
}

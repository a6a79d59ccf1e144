// Package lesson is the lesson's own pages: the intro, every section and the finish page, one
// page kind built from steps.Lesson. A section shows its text, the hints revealed so far and its
// reference commands (folded until asked for); the finish page adds the round's review and the
// learner's report, with a key to the first section to look at again and one for a fresh lab.
package lesson

import (
	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/ui/common"
	"ist2-boot/ui/keys"
	"ist2-boot/ui/page"
	"ist2-boot/ui/pane/prose"
)

// Page is the lesson's pages and what the finish page adds below its text: the learner's report
// as last read, and its keys (a: the first section to look at again, N: a fresh lab).
type Page struct {
	lesson *steps.Lesson
	report reportMsg
	keys   finishKeys
}

type finishKeys struct{ Again, NewLab keys.Binding }

// New is the pages of l.
func New(l *steps.Lesson) Page {
	p := Page{lesson: l}
	// On the key line too: the finish page's own keys, which its text tells of (ko KO-08).
	p.keys.Again = keys.New("a", "help.again", "a", "keys.again", "a")
	p.keys.NewLab = keys.New("N", "help.newlab", "N", "keys.newlab", "N")
	return p
}

// Owns implements page.Page: every page the lesson has (the intro, the sections, the finish
// page). A kind listed before this one in the root takes the ids it owns first.
func (p Page) Owns(id string) bool {
	_, ok := p.lesson.Page(id)
	return ok
}

// Place implements page.Page: the lesson places its pages itself (steps.Lesson.PageIDs).
func (p Page) Place(ids []string) []string { return ids }

// Title implements page.Page: the page's short title, else its title.
func (p Page) Title(c common.Common, id string) string {
	pg, _ := p.lesson.Page(id)
	if s := pg.Short[c.Lang]; s != "" {
		return s
	}
	return pg.Title[c.Lang]
}

// Section implements page.Page.
func (p Page) Section(c common.Common, id string) (*steps.Section, bool) { return p.lesson.Section(id) }

// Actions implements page.Page: on the intro and the finish page the section keys say there is
// nothing for them there.
func (p Page) Actions() bool { return true }

// IdleLine implements page.Page: what to do on a section, where to start on the intro, and on
// the finish page where the learner stands.
func (p Page) IdleLine(c common.Common, id string) string {
	switch id {
	case p.lesson.Intro.ID:
		return c.T("ui.output_intro")
	case p.lesson.Finish.ID:
		if summary := finishSummary(c); summary.Key != "" {
			return summary.In(c.Lang)
		}
		return c.T("ui.rendering")
	}
	return c.T("ui.output_empty")
}

// Bindings implements page.Page.
func (p Page) Bindings() []keys.Binding { return []keys.Binding{p.keys.Again, p.keys.NewLab} }

// EnableKeys implements page.Page: a and N on the finish page, unless the tools page covers it.
func (p Page) EnableKeys(at page.At) page.Page {
	keys.Enable(at.Keys && at.ID == p.lesson.Finish.ID && !at.Tools, &p.keys.Again, &p.keys.NewLab)
	return p
}

// Busy implements page.Page: nothing of the lesson's pages runs long.
func (p Page) Busy() bool { return false }

// Stop implements page.Page.
func (p Page) Stop() {}

// Reset implements page.Page: the report is read again as the finish page opens.
func (p Page) Reset() page.Page { return p }

// Opened implements page.Page: the finish page reads the learner's report.
func (p Page) Opened(c common.Common, id string) (page.Page, tea.Cmd) {
	if id == p.lesson.Finish.ID {
		return p, reportCmd(c.Eng, id, reportFile(p.lesson))
	}
	return p, nil
}

// Update implements page.Page: the report read, a (the first section to look at again) and N (a
// fresh lab, which the root asks about).
func (p Page) Update(c common.Common, id string, msg tea.Msg) (page.Page, tea.Cmd, []page.Effect) {
	switch msg := msg.(type) {
	case reportMsg:
		p.report = msg
	case tea.KeyPressMsg:
		switch {
		case keys.Matches(msg, p.keys.NewLab):
			return p, nil, []page.Effect{page.NewLab{}}
		case keys.Matches(msg, p.keys.Again):
			if next, ok := firstToLookAgain(Review(c)); ok {
				return p, nil, []page.Effect{page.Open{ID: next}}
			}
		}
	}
	return p, nil, nil
}

// Document implements page.Page: the page's text with what goes below it (the hints revealed so
// far, or on the finish page the review and the report), a section's reference commands folded
// until asked for.
func (p Page) Document(c common.Common, id string, key prose.Key) prose.Document {
	if id == p.lesson.Finish.ID {
		return prose.LessonPage(key, p.finishMarkdown(c), false)
	}
	if sec, ok := p.lesson.Section(id); ok {
		return SectionDocument(c, sec, key)
	}
	return prose.LessonPage(key, "", false)
}

// SectionDocument is what the prose pane shows for a section (or a page like one: its own text,
// steps, files and hints): its text, the hints revealed so far, then its reference commands —
// folded until the learner asks for them (r), has used every hint, or has passed it.
func SectionDocument(c common.Common, sec *steps.Section, key prose.Key) prose.Document {
	var hints string
	if n := c.HintsUsed(sec.ID); n > 0 {
		hints = "\n\n" + sec.HintsMarkdown(c.Lang, n)
	}
	folded := !c.Revealed[sec.ID] && c.Results[sec.ID].Status != check.Pass && c.HintsUsed(sec.ID) < len(sec.Hints)
	return prose.LessonPage(key, hints, folded)
}

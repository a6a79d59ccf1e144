package ui

// What the prose pane shows: the document the open page, the glossary or the tools page is now.

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps/check"
)

// document is what the prose pane is to show now: the glossary, the tools page, the drill page,
// or the open lesson page with what goes below it (hints, the finish page's review).
func (m Model) document() document {
	k := renderKey{page: m.pageID(), lang: m.Lang, width: m.prose.vp.Width(), style: m.RenderStyle()}
	switch {
	case m.nav.view == viewGlossary:
		k.page = glossaryPage
		return document{key: k, glossary: true}
	case m.nav.view == viewTools:
		md := m.toolsPage.markdown(m.Common)
		k.page, k.extra = doctorPage, hashOf(md)
		return document{key: k, markdown: md}
	case k.page == drillPageID:
		md := m.drill.markdown(m.Common)
		k.extra = hashOf(md)
		return document{key: k, markdown: md}
	}
	suffix, fold := m.proseSuffix(), m.folded()
	if suffix != "" || fold {
		k.extra = hashOf(fmt.Sprint(suffix, fold))
	}
	return document{key: k, lesson: true, suffix: suffix, fold: fold}
}

// proseSuffix is what a lesson page shows below its own text: the hints revealed so far, or on
// the finish page the learner's results and report.
func (m Model) proseSuffix() string {
	id := m.pageID()
	if id == m.Eng.Lesson.Finish.ID {
		return m.finish.markdown(m.Common)
	}
	sec, ok := m.Eng.Lesson.Section(id)
	if !ok || m.HintsUsed(id) == 0 {
		return ""
	}
	return "\n\n" + sec.HintsMarkdown(m.Lang, m.HintsUsed(id))
}

// ensureProse shows the document wanted now, from the cache in this frame, or asks for it.
func (m *Model) ensureProse() tea.Cmd { return m.prose.ensure(m.Common, m.document()) }

// folded: the open section's reference commands are not shown yet — not until the learner asks
// for them (r), has used every hint, or has passed the section.
func (m Model) folded() bool {
	id := m.pageID()
	sec, ok := m.Eng.Lesson.Section(id)
	if !ok || m.prose.revealed[id] || m.Results[id].Status == check.Pass {
		return false
	}
	return m.HintsUsed(id) < len(sec.Hints)
}

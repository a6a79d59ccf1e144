package ui

// What the prose pane shows: the document the open page, the glossary or the tools page is now.

import (
	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps/check"
	"ist2-boot/ui/pane/prose"
)

// document is what the prose pane is to show now: the glossary, the tools page, the drill page,
// or the open lesson page with what goes below it (hints, the finish page's review).
func (m Model) document() prose.Document {
	k := prose.Key{Page: m.pageID(), Lang: m.Lang, Width: m.prose.Width(), Style: m.RenderStyle()}
	switch {
	case m.nav.view == viewGlossary:
		k.Page = prose.GlossaryPage
		return prose.Glossary(k)
	case m.nav.view == viewTools:
		k.Page = doctorPage
		return prose.Markdown(k, m.toolsPage.markdown(m.Common))
	case k.Page == drillPageID:
		return prose.Markdown(k, m.drill.markdown(m.Common))
	}
	return prose.LessonPage(k, m.proseSuffix(), m.folded())
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
func (m *Model) ensureProse() tea.Cmd { return m.prose.Ensure(m.Common, m.document()) }

// folded: the open section's reference commands are not shown yet — not until the learner asks
// for them (r), has used every hint, or has passed the section.
func (m Model) folded() bool {
	id := m.pageID()
	sec, ok := m.Eng.Lesson.Section(id)
	if !ok || m.Revealed[id] || m.Results[id].Status == check.Pass {
		return false
	}
	return m.HintsUsed(id) < len(sec.Hints)
}

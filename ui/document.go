package ui

// What the prose pane shows: the document the open page, the glossary or the tools page is now.

import (
	tea "charm.land/bubbletea/v2"

	"ist2-boot/ui/page/tools"
	"ist2-boot/ui/pane/prose"
)

// document is what the prose pane is to show now: the glossary, the tools page, or what the open
// page's kind makes of it.
func (m Model) document() prose.Document {
	k := prose.Key{Page: m.pageID(), Lang: m.Lang, Width: m.prose.Width(), Style: m.RenderStyle()}
	switch m.nav.view {
	case viewGlossary:
		k.Page = prose.GlossaryPage
		return prose.Glossary(k)
	case viewTools:
		k.Page = tools.ID
		return prose.Markdown(k, m.toolsPage.Markdown(m.Common))
	}
	return m.pageDocument(k)
}

// ensureProse shows the document wanted now, from the cache in this frame, or asks for it.
func (m *Model) ensureProse() tea.Cmd { return m.prose.Ensure(m.Common, m.document()) }

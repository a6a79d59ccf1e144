package ui

import (
	"fmt"
	"hash/fnv"
	"strings"

	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/ui/render"

	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
)

// prosePane is the page being read: its viewport, the rendering it shows, the renderings made so
// far (by page, language, width, style and what was added below the page), those on their way,
// and where to put the reader when the next rendering of the same page arrives.
type prosePane struct {
	vp         viewport.Model
	shown      renderKey      // what the viewport shows
	offsets    map[string]int // where each page (glossary, tools page) was left: back there on return
	cache      map[renderKey]string
	order      []renderKey // the cache's keys, oldest first: it is bounded (maxRendered)
	pending    map[renderKey]bool
	scrollFrac float64 // relative position to restore when the next rendering arrives
	restore    bool
}

func newProsePane() prosePane {
	return prosePane{vp: viewport.New(), cache: map[renderKey]string{}, pending: map[renderKey]bool{}, offsets: map[string]int{}}
}

// maxRendered bounds the renderings kept: every page in each language at a few widths, not one
// per width a resizing terminal passed through (each is tens of kilobytes).
const maxRendered = 64

// remember keeps a rendering, dropping the oldest once maxRendered are kept (never the one shown).
func (p *prosePane) remember(key renderKey, text string) {
	if _, ok := p.cache[key]; !ok {
		p.order = append(p.order, key)
	}
	p.cache[key] = text
	for len(p.order) > maxRendered {
		old := p.order[0]
		p.order = p.order[1:]
		if old == p.shown {
			p.order = append(p.order, old)
			continue
		}
		delete(p.cache, old)
	}
}

// glossaryPage is the prose pane's id for the glossary (not a lesson page).
const glossaryPage = "glossary"

// wantKey is the rendering the prose pane should show now.
func (m Model) wantKey() renderKey {
	k := renderKey{page: m.pageID(), lang: m.lang, width: m.prose.vp.Width(), style: m.renderStyle()}
	if m.view == viewGlossary {
		k.page = glossaryPage
		return k
	}
	if m.view == viewTools {
		k.page = doctorPage
		k.extra = hashOf(m.doctorMarkdown())
		return k
	}
	if k.page == drillPage {
		k.extra = hashOf(m.drillMarkdown())
		return k
	}
	if suffix := m.proseSuffix(); suffix != "" || m.folded() {
		k.extra = hashOf(fmt.Sprint(suffix, m.folded()))
	}
	return k
}

func hashOf(s string) string {
	h := fnv.New64a()
	h.Write([]byte(s))
	return fmt.Sprintf("%x", h.Sum64())
}

func (m Model) renderStyle() render.Style {
	switch {
	case m.eng.NoColor:
		return render.Plain
	case m.dark:
		return render.Dark
	}
	return render.Light
}

// proseSuffix is what the page shows below its own text: the hints revealed so far, or on the
// finish page the learner's results and report.
func (m Model) proseSuffix() string {
	id := m.pageID()
	if id == m.eng.Lesson.Finish.ID {
		return m.finishMarkdown()
	}
	sec, ok := m.eng.Lesson.Section(id)
	if !ok {
		return ""
	}
	n := m.hintsUsed(id)
	if n == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\n## " + i18n.T(m.lang, "hints.title", nil) + "\n\n")
	for i, h := range sec.Hints[:min(n, len(sec.Hints))] {
		fmt.Fprintf(&b, "%d. %s\n", i+1, h[m.lang])
	}
	return b.String()
}

func (m Model) hintsUsed(id string) int {
	if m.progress == nil || m.progress.Sections[id] == nil {
		return 0
	}
	return m.progress.Sections[id].HintsUsed
}

// ensureProse shows the wanted rendering from the cache in this frame, or asks for it.
func (m *Model) ensureProse() tea.Cmd {
	if m.prose.vp.Width() <= 0 {
		return nil
	}
	key := m.wantKey()
	if text, ok := m.prose.cache[key]; ok {
		if m.prose.shown != key {
			m.showProse(key, text)
		}
		return nil
	}
	if m.prose.pending[key] {
		return nil
	}
	m.prose.pending[key] = true
	switch key.page {
	case glossaryPage:
		return renderCmd(key, i18n.GlossaryMarkdown(m.eng.Glossary, key.lang))
	case doctorPage:
		return renderCmd(key, m.doctorMarkdown())
	case drillPage:
		return renderCmd(key, m.drillMarkdown())
	}
	return proseCmd(m.eng, key, m.proseSuffix(), m.folded())
}

// folded: the open section's reference commands are not shown yet — not until the learner asks
// for them (r), has used every hint, or has passed the section.
func (m Model) folded() bool {
	id := m.pageID()
	sec, ok := m.eng.Lesson.Section(id)
	if !ok || m.revealed[id] || m.results[id].Status == check.Pass {
		return false
	}
	return m.hintsUsed(id) < len(sec.Hints)
}

// showProse puts a rendering in the pane, at the relative position kept before a language
// switch or resize, else at the top for a new page.
func (m *Model) showProse(key renderKey, text string) {
	samePage := m.prose.shown.page == key.page
	if m.prose.shown.page != "" {
		m.prose.offsets[m.prose.shown.page] = m.prose.vp.YOffset()
	}
	m.prose.vp.SetContent(text)
	m.prose.shown = key
	switch {
	case m.prose.restore:
		total := max(m.prose.vp.TotalLineCount()-m.prose.vp.Height(), 0)
		m.prose.vp.SetYOffset(int(m.prose.scrollFrac*float64(total) + 0.5))
		m.prose.restore = false
	case !samePage:
		m.prose.vp.SetYOffset(m.prose.offsets[key.page]) // 0, the top, for a page not read yet
	}
}

// keepScroll remembers where the prose pane is, relatively, so the next rendering of the same
// page (another language or width) opens at the same place.
func (m *Model) keepScroll() {
	if m.prose.restore && m.prose.shown.page == "" {
		return // nothing shown yet: the position to restore (from the last session) stands
	}
	total := m.prose.vp.TotalLineCount() - m.prose.vp.Height()
	m.prose.scrollFrac = 0
	if total > 0 {
		m.prose.scrollFrac = float64(m.prose.vp.YOffset()) / float64(total)
	}
	m.prose.restore = true
}

package ui

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/i18n"
	"ist2-boot/ui/common"
	"ist2-boot/ui/keys"
)

// prosePane is the text being read — a lesson page, the glossary, the tools page or the drill
// page: its viewport, the rendering it shows, the renderings made so far (by page, language,
// width, style and what was added below the page), those on their way, where to put the reader
// when the next rendering of the same page arrives, and the sections whose reference commands the
// learner asked to see.
type prosePane struct {
	vp         viewport.Model
	shown      renderKey      // what the viewport shows
	offsets    map[string]int // where each page (glossary, tools page) was left: back there on return
	cache      map[renderKey]string
	order      []renderKey // the cache's keys, oldest first: it is bounded (maxRendered)
	pending    map[renderKey]bool
	scrollFrac float64 // relative position to restore when the next rendering arrives
	restore    bool
	hintAnchor hintAnchor // where to put the reader instead: a hint just revealed
	// The line the last session left the page at, held until the reader scrolls or leaves: the
	// first renderings at start (before the states, with the output pane at another height) would
	// otherwise clamp it or shift it.
	pinned            bool
	pinLine, pinWidth int
	revealed          map[string]bool // sections whose reference commands were asked for (r)
	keys              keys.Scroll
}

func newProsePane() prosePane {
	return prosePane{vp: viewport.New(), cache: map[renderKey]string{}, pending: map[renderKey]bool{},
		offsets: map[string]int{}, keys: keys.NewScroll()}
}

// document is what the prose pane is to show: the key of its rendering, and either the whole
// markdown (glossary, tools page, drill page) or, for a lesson page, what goes below its text and
// whether its reference commands are folded.
type document struct {
	key      renderKey
	markdown string
	glossary bool // made from the glossary when it is not in the cache
	lesson   bool
	suffix   string
	fold     bool
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

func hashOf(s string) string {
	h := fnv.New64a()
	h.Write([]byte(s))
	return fmt.Sprintf("%x", h.Sum64())
}

// ensure shows the document's rendering from the cache in this frame, or asks for it.
func (p *prosePane) ensure(c common.Common, doc document) tea.Cmd {
	if p.vp.Width() <= 0 {
		return nil
	}
	if text, ok := p.cache[doc.key]; ok {
		if p.shown != doc.key {
			p.show(doc.key, text)
		}
		return nil
	}
	if p.pending[doc.key] {
		return nil
	}
	p.pending[doc.key] = true
	switch {
	case doc.glossary:
		return renderCmd(doc.key, i18n.GlossaryMarkdown(c.Eng.Glossary, doc.key.lang))
	case !doc.lesson:
		return renderCmd(doc.key, doc.markdown)
	}
	return proseCmd(c.Eng, doc.key, doc.suffix, doc.fold)
}

// rendered takes a rendering that arrived, and shows it if it is the one wanted now.
func (p *prosePane) rendered(msg renderedMsg, want renderKey) error {
	delete(p.pending, msg.key)
	if msg.err != nil {
		return msg.err
	}
	p.remember(msg.key, msg.text)
	if msg.key == want {
		p.show(msg.key, msg.text)
	}
	return nil
}

// show puts a rendering in the pane, at the relative position kept before a language switch or
// resize, else where the page was left (the top for a page not read yet).
func (p *prosePane) show(key renderKey, text string) {
	samePage := p.shown.page == key.page
	if p.shown.page != "" {
		p.offsets[p.shown.page] = p.vp.YOffset()
	}
	p.vp.SetContent(text)
	p.shown = key
	switch {
	case p.hintAnchor.n > 0:
		if line, ok := p.hintAnchor.find(text); ok {
			p.vp.SetYOffset(max(line-1, 0))
		}
		p.hintAnchor, p.restore = hintAnchor{}, false
	case p.pinned && (samePage || p.restore) && p.vp.Width() == p.pinWidth:
		p.vp.SetYOffset(p.pinLine)
		p.restore = false
	case p.restore:
		p.pinned = false
		total := max(p.vp.TotalLineCount()-p.vp.Height(), 0)
		p.vp.SetYOffset(int(p.scrollFrac*float64(total) + 0.5))
		p.restore = false
	case !samePage:
		p.pinned = false
		p.vp.SetYOffset(p.offsets[key.page])
	}
}

// restoreStart opens the page where the last session left it: at its line when the pane has the
// width it had, else at the same relative place.
func (p *prosePane) restoreStart(frac float64, line, width int) {
	p.restoreAt(frac)
	p.pinned, p.pinLine, p.pinWidth = line > 0 && width > 0, line, width
}

// resized keeps a pinned page at its line when the pane's height changes.
func (p *prosePane) resized() {
	if p.pinned && p.shown.page != "" && p.vp.Width() == p.pinWidth {
		p.vp.SetYOffset(p.pinLine)
	}
}

// keepScroll remembers where the pane is, relatively, so the next rendering of the same page
// (another language or width) opens at the same place.
func (p *prosePane) keepScroll() {
	if p.restore && p.shown.page == "" {
		return // nothing shown yet: the position to restore (from the last session) stands
	}
	total := p.vp.TotalLineCount() - p.vp.Height()
	p.scrollFrac = 0
	if total > 0 {
		p.scrollFrac = float64(p.vp.YOffset()) / float64(total)
	}
	p.restore = true
}

// hintAnchor is the n-th item under the hints' heading, titled title: where the next rendering
// opens after h, rather than at its end — past the last hint come the reference commands it
// unfolds, which would hide it (newcomer L8).
type hintAnchor struct {
	title string
	n     int
}

// find is the line of the rendering where the hint starts.
func (a hintAnchor) find(rendered string) (int, bool) {
	heading := -1
	for i, line := range strings.Split(rendered, "\n") {
		plain := strings.TrimSpace(xansi.Strip(line))
		if heading < 0 {
			if strings.Contains(plain, a.title) {
				heading = i
			}
			continue
		}
		if strings.HasPrefix(plain, strconv.Itoa(a.n)+".") {
			return i, true
		}
	}
	return 0, false
}

// showHint opens the next rendering at the n-th hint.
func (p *prosePane) showHint(title string, n int) { p.hintAnchor = hintAnchor{title, n} }

// restoreAt opens the next rendering at a relative position (1: the end).
func (p *prosePane) restoreAt(frac float64) { p.scrollFrac, p.restore = frac, true }

// reveal marks a section's reference commands as asked for; true when they were not yet.
func (p *prosePane) reveal(id string) bool {
	if p.revealed[id] {
		return false
	}
	next := make(map[string]bool, len(p.revealed)+1) // earlier models keep theirs
	for k, v := range p.revealed {
		next[k] = v
	}
	next[id] = true
	p.revealed = next
	return true
}

// update scrolls the pane by its keys (enabled while it has the focus).
func (p prosePane) update(msg tea.KeyPressMsg) (prosePane, tea.Cmd) {
	p.pinned = false // the reader moves on from where the last session left
	keys.ScrollViewport(&p.vp, p.keys, msg)
	return p, nil
}

// view is the rendering, or a word that it is on its way.
func (p prosePane) view(c common.Common) string {
	if p.shown.page == "" {
		return c.Styles.Dim.Render(i18n.T(c.Lang, "ui.rendering", nil))
	}
	return p.vp.View()
}

func (p *prosePane) wheel(n int) {
	if n < 0 {
		p.vp.ScrollUp(-n)
	} else {
		p.vp.ScrollDown(n)
	}
}

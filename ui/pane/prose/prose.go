// Package prose is the prose pane: the text being read — a lesson page, the glossary, the tools
// page or the drill page — rendered off the UI goroutine (the commands here), kept in a bounded
// cache by page, language, width, style and what was added below the page, and shown at the
// place the reader left it. A page says what it is to show as a Document; the pane renders it.
package prose

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
	"ist2-boot/ui/render"
)

// Pane is the text being read — a lesson page, the glossary, the tools page or the drill
// page: its viewport, the rendering it shows, the renderings made so far (by page, language,
// width, style and what was added below the page), those on their way, and where to put the reader
// when the next rendering of the same page arrives.
type Pane struct {
	vp         viewport.Model
	shown      Key            // what the viewport shows
	offsets    map[string]int // where each page (glossary, tools page) was left: back there on return
	cache      map[Key]string
	order      []Key // the cache's keys, oldest first: it is bounded (maxRendered)
	pending    map[Key]bool
	scrollFrac float64 // relative position to restore when the next rendering arrives
	restore    bool
	hintAnchor hintAnchor // where to put the reader instead: a hint just revealed
	reveal     []string   // or: the last line starting with one of these (a drill's new verdict)
	// The line the last session left the page at, held until the reader scrolls or leaves: the
	// first renderings at start (before the states, with the output pane at another height) would
	// otherwise clamp it or shift it.
	pinned            bool
	pinLine, pinWidth int
	keys              keys.Scroll
}

func New() Pane {
	return Pane{vp: viewport.New(), cache: map[Key]string{}, pending: map[Key]bool{},
		offsets: map[string]int{}, keys: keys.NewScroll()}
}

// Document is what the prose pane is to show: the key of its rendering, and either the whole
// markdown (glossary, tools page, drill page) or, for a lesson page, what goes below its text and
// whether its reference commands are folded.
type Document struct {
	key      Key
	markdown string
	glossary bool // made from the glossary when it is not in the cache
	lesson   bool
	suffix   string
	fold     bool
}

// Markdown is a document made of markdown alone (the tools page, the drill page): its text is part
// of its key, so a change of it is rendered anew.
func Markdown(key Key, md string) Document {
	key.Extra = Hash(md)
	return Document{key: key, markdown: md}
}

// Glossary is the glossary in key's language.
func Glossary(key Key) Document { return Document{key: key, glossary: true} }

// LessonPage is a lesson page (key.Page is its id) with what goes below its text (suffix) and
// whether its reference commands are folded.
func LessonPage(key Key, suffix string, fold bool) Document {
	if suffix != "" || fold {
		key.Extra = Hash(fmt.Sprint(suffix, fold))
	}
	return Document{key: key, lesson: true, suffix: suffix, fold: fold}
}

// Key is the document's rendering's key.
func (d Document) Key() Key { return d.key }

// maxRendered bounds the renderings kept: every page in each language at a few widths, not one
// per width a resizing terminal passed through (each is tens of kilobytes).
const maxRendered = 64

// remember keeps a rendering, dropping the oldest once maxRendered are kept (never the one shown).
func (p *Pane) remember(key Key, text string) {
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

// GlossaryPage is the prose pane's id for the glossary (not a lesson page).
const GlossaryPage = "glossary"

func Hash(s string) string {
	h := fnv.New64a()
	h.Write([]byte(s))
	return fmt.Sprintf("%x", h.Sum64())
}

// Ensure shows the Document's rendering from the cache in this frame, or asks for it.
func (p *Pane) Ensure(c common.Common, doc Document) tea.Cmd {
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
		return renderCmd(doc.key, i18n.GlossaryMarkdown(c.Eng.Glossary, doc.key.Lang))
	case !doc.lesson:
		return renderCmd(doc.key, doc.markdown)
	}
	return proseCmd(c.Eng, doc.key, doc.suffix, doc.fold)
}

// Rendered takes a rendering that arrived, and shows it if it is the one wanted now.
func (p *Pane) Rendered(msg RenderedMsg, want Key) error {
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
func (p *Pane) show(key Key, text string) {
	samePage := p.shown.Page == key.Page
	if p.shown.Page != "" {
		p.offsets[p.shown.Page] = p.vp.YOffset()
	}
	p.vp.SetContent(text)
	p.shown = key
	switch {
	case len(p.reveal) > 0:
		if line, ok := lastLineStarting(text, p.reveal); ok {
			p.vp.SetYOffset(max(line-1, 0))
		}
		p.reveal, p.restore = nil, false
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
		p.vp.SetYOffset(p.offsets[key.Page])
	}
}

// RestoreStart opens the page where the last session left it: at its line when the pane has the
// width it had, else at the same relative place.
func (p *Pane) RestoreStart(frac float64, line, width int) {
	p.restoreAt(frac)
	p.pinned, p.pinLine, p.pinWidth = line > 0 && width > 0, line, width
}

// resized keeps a pinned page at its line when the pane's height changes.
func (p *Pane) resized() {
	if p.pinned && p.shown.Page != "" && p.vp.Width() == p.pinWidth {
		p.vp.SetYOffset(p.pinLine)
	}
}

// KeepScroll remembers where the pane is, relatively, so the next rendering of the same page
// (another language or width) opens at the same place.
func (p *Pane) KeepScroll() {
	if p.restore && p.shown.Page == "" {
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

// Reveal opens the next rendering at its last line that starts with one of prefixes: an answer's
// verdict, which is added below the question and would land past the pane's end (ja r14 M9).
func (p *Pane) Reveal(prefixes ...string) { p.reveal = prefixes }

// lastLineStarting is the last line of rendered whose text starts with one of prefixes.
func lastLineStarting(rendered string, prefixes []string) (int, bool) {
	found := -1
	for i, line := range strings.Split(rendered, "\n") {
		plain := strings.TrimLeft(xansi.Strip(line), " *") // the plain style writes bold as **…**
		for _, pre := range prefixes {
			if strings.HasPrefix(plain, pre) {
				found = i
			}
		}
	}
	return found, found >= 0
}

// ShowHint opens the next rendering at the n-th hint.
func (p *Pane) ShowHint(title string, n int) { p.hintAnchor = hintAnchor{title, n} }

// restoreAt opens the next rendering at a relative position (1: the end).
func (p *Pane) restoreAt(frac float64) { p.scrollFrac, p.restore = frac, true }

// Update scrolls the pane by its keys (enabled while it has the focus).
func (p Pane) Update(msg tea.KeyPressMsg) (Pane, tea.Cmd) {
	p.pinned = false // the reader moves on from where the last session left
	keys.ScrollViewport(&p.vp, p.keys, msg)
	return p, nil
}

// View is the rendering, or a word that it is on its way.
func (p Pane) View(c common.Common) string {
	if p.shown.Page == "" {
		return c.Styles.Dim.Render(i18n.T(c.Lang, "ui.rendering", nil))
	}
	return p.vp.View()
}

// Wheel scrolls by n lines (negative: up), as the mouse wheel does.
func (p *Pane) Wheel(n int) {
	if n < 0 {
		p.vp.ScrollUp(-n)
	} else {
		p.vp.ScrollDown(n)
	}
}

// Key names one rendering of a page: the cache key.
type Key struct {
	Page  string
	Lang  i18n.Lang
	Width int
	Extra string // what else went into the markdown (hints shown, finish table), so it is part of the key
	Style render.Style
}

type RenderedMsg struct {
	key  Key
	text string
	err  error
}

// renderCmd renders markdown for a key. A new renderer per call: glamour's is not safe for two
// goroutines at once, and Cmds run concurrently.
func renderCmd(key Key, md string) tea.Cmd {
	return func() tea.Msg {
		text, err := render.RenderMarkdown(md, key.Width, key.Style)
		return RenderedMsg{key: key, text: text, err: err}
	}
}

// proseCmd renders a page: its text, then what the tutorial adds (hints, the finish page's
// results), then a section's reference commands — or, while folded, a line saying how to see them:
// the learner writes before reading the answer.
func proseCmd(eng *common.Engine, key Key, suffix string, fold bool) tea.Cmd {
	return func() tea.Msg {
		body, commands, err := eng.Lesson.ProseParts(key.Page, key.Lang, eng.Env)
		if err != nil {
			return RenderedMsg{key: key, err: err}
		}
		if fold && commands != "" {
			heading, _, _ := strings.Cut(commands, "\n")
			commands = heading + "\n\n" + i18n.T(key.Lang, "ui.commands_folded", nil) + "\n"
		}
		md := strings.TrimRight(body, "\n") + suffix
		if commands != "" {
			md = strings.TrimRight(md, "\n") + "\n\n" + commands
		}
		text, err := render.RenderMarkdown(md, key.Width, key.Style)
		return RenderedMsg{key: key, text: text, err: err}
	}
}

// FindHint is the line of a rendering where its n-th hint, under the heading title, starts.
func FindHint(rendered, title string, n int) (int, bool) { return hintAnchor{title, n}.find(rendered) }

// Forget drops the kept position: the next page opens where it was left, not at the place kept.
func (p *Pane) Forget() { p.restore = false }

// Position is where the reader is, to save on quit: the relative place (after KeepScroll), the
// line and the pane's width.
func (p *Pane) Position() (frac float64, line, width int) {
	return p.scrollFrac, p.vp.YOffset(), p.vp.Width()
}

// SetSize sizes the viewport to the pane's inside; a pinned page stays at its line.
func (p *Pane) SetSize(w, h int) {
	p.vp.SetWidth(w)
	p.vp.SetHeight(h)
	p.resized()
}

// Width is the viewport's width (0 before the first size: nothing is rendered then).
func (p *Pane) Width() int { return p.vp.Width() }

// Shown is the key of the rendering shown.
func (p *Pane) Shown() Key { return p.shown }

// Keys are the pane's scroll keys, enabled while it has the focus.
func (p *Pane) Keys() *keys.Scroll { return &p.keys }

// Viewport is the viewport as it stands: a copy, to read.
func (p Pane) Viewport() *viewport.Model { return &p.vp }

package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/run"
	"ist2-boot/steps/setup"
	"ist2-boot/ui/common"
	"ist2-boot/ui/keys"
	"ist2-boot/ui/render"
)

// maxOutputItems is how many entries the output pane keeps: a chatty command must not make every
// redraw slower, so the oldest go, and a line says how many.
const maxOutputItems = 5000

// maxOutputBytes bounds the text the pane keeps (a line is at most 64 KiB, steps/run): memory stays
// bounded whatever a command prints.
const maxOutputBytes = 8 << 20

// outItem is one entry of the output pane, kept as data (not text) so that a language switch or
// a resize words and wraps it anew: a line of a run, an engine message, a check result, an
// install's event, or a question. Its wrapped lines are kept for the language, width and styles
// they were made for, so a tick redraws only what changed.
type outItem struct {
	line   run.Line
	msg    i18n.Msg
	file   *check.FileResult
	setup  *setup.SetupEvent
	prompt string // catalog key of a question
	brief  bool   // a file's state alone, without its reason (after a run's output; c tells why)

	wrapped *wrappedItem
}

// wrappedItem is an item as lines, and what they were made for.
type wrappedItem struct {
	lang   i18n.Lang
	width  int
	styles *render.Styles
	lines  []string
}

// redraws: it is the next state of the previous item (an install's progress line is redrawn in
// place, not repeated).
func (it outItem) redraws(prev outItem) bool {
	return it.setup != nil && prev.setup != nil && it.setup.Kind == setup.SetupProgress &&
		prev.setup.Kind == setup.SetupProgress && prev.setup.Tool == it.setup.Tool
}

// outputPane is what a run printed, an install did and a check found, for one section (or the
// tools page): items in a viewport, and the scroll keys it takes when focused.
type outputPane struct {
	vp      viewport.Model
	items   []outItem
	section string // the section (or doctorPage) the items belong to
	rows    int    // the lines it holds, as last wrapped: the panes are sized for them
	keys    keys.Scroll
}

func newOutputPane() outputPane { return outputPane{vp: viewport.New(), keys: keys.NewScroll()} }

// show replaces the items with those of a section.
func (o *outputPane) show(section string, items []outItem) { o.items, o.section = items, section }

// appendItems adds items at the end, keeping at most maxOutputItems.
func (o *outputPane) appendItems(items []outItem) {
	for _, it := range items {
		if n := len(o.items); n > 0 && it.redraws(o.items[n-1]) {
			o.items[n-1] = it
			continue
		}
		o.items = append(o.items, it)
	}
	over, size := len(o.items)-maxOutputItems, 0
	for _, it := range o.items {
		size += len(it.line.Text)
	}
	for i := 0; i < len(o.items)-1 && size > maxOutputBytes; i++ {
		size -= len(o.items[i].line.Text)
		over = max(over, i+1)
	}
	if over > 0 {
		o.items = append([]outItem{{msg: i18n.M("ui.lines_dropped", "count", itoa(over))}}, o.items[min(over+1, len(o.items)):]...)
	}
}

// showsRun: the items hold a run's commands or output.
func showsRun(items []outItem) bool {
	for _, it := range items {
		if it.line.Kind == run.Command || it.line.Kind == run.Output {
			return true
		}
	}
	return false
}

// checkItems lists each file's verdict and reason.
func checkItems(results []check.SectionResult) []outItem {
	var items []outItem
	for _, r := range results {
		for i := range r.Files {
			items = append(items, outItem{file: &r.Files[i]})
		}
	}
	return items
}

// refresh words the items in the current language and wraps them to the pane's width: idle is
// the line shown when there are none, footer a last line ("" for none). Cheap string work, and
// only for items not wrapped yet for this language, width and styles.
func (o *outputPane) refresh(c common.Common, idle, footer string) {
	w := max(o.vp.Width(), 10)
	var lines []string
	if len(o.items) == 0 && idle != "" {
		lines = wrapStyled(lines, c.Styles.Dim, idle, w)
	}
	for i := range o.items {
		it := &o.items[i]
		if wr := it.wrapped; wr == nil || wr.lang != c.Lang || wr.width != w || wr.styles != c.Styles {
			it.wrapped = &wrappedItem{lang: c.Lang, width: w, styles: c.Styles, lines: it.render(c, w)}
		}
		lines = append(lines, it.wrapped.lines...)
	}
	if footer != "" {
		lines = wrapStyled(lines, c.Styles.Warn, footer, w)
	}
	o.rows = len(lines)
	o.vp.SetContentLines(lines)
}

// wrapStyled adds text wrapped to w cells, each line in style, keeping its leading indent.
func wrapStyled(lines []string, style lipgloss.Style, text string, w int) []string {
	indent := len(text) - len(strings.TrimLeft(text, " "))
	for _, l := range render.WrapLines(strings.TrimLeft(text, " "), w-indent, 0) {
		lines = append(lines, style.Render(strings.Repeat(" ", indent)+l))
	}
	return lines
}

// render is the item as lines of at most w cells.
func (it outItem) render(c common.Common, w int) []string {
	var lines []string
	add := func(style lipgloss.Style, text string) { lines = wrapStyled(lines, style, text, w) }
	plain := lipgloss.NewStyle()
	switch {
	case it.file != nil:
		f := it.file
		add(c.Styles.State[f.Status], render.Glyphs[f.Status]+" "+f.File+"  "+c.T("status."+string(f.Status)))
		if f.Status != check.Pass && !it.brief {
			add(plain, "    "+f.Reason.In(c.Lang))
		}
		if f.Note.Key != "" && !it.brief {
			add(c.Styles.Warn, "    "+f.Note.In(c.Lang))
		}
	case it.setup != nil:
		e := it.setup
		switch e.Kind {
		case setup.SetupLine:
			add(c.Styles.Dim, fmt.Sprintf("    [%3.0fs] %s", e.Elapsed.Seconds(), e.Text))
		case setup.SetupProgress:
			add(c.Styles.Dim, fmt.Sprintf("    %s %s [%3.0fs]", render.ProgressBar(e.Done, e.Total, 20), render.ProgressText(*e, c.Lang), e.Elapsed.Seconds()))
		default:
			glyph := map[setup.SetupKind]string{setup.SetupStart: "→", setup.SetupDone: "✓", setup.SetupSkip: "·", setup.SetupFail: "✗"}[e.Kind]
			add(plain, glyph+" "+e.Tool+": "+e.Msg.In(c.Lang))
		}
	case it.prompt != "":
		add(c.Styles.Warn, "▶ "+c.T(it.prompt))
	case it.msg.Key != "":
		add(c.Styles.Warn, "==> "+it.msg.In(c.Lang))
	case it.line.Kind == run.Command:
		add(c.Styles.Dim, "$ "+it.line.Text)
	case it.line.Kind == run.Note:
		add(c.Styles.Warn, "==> "+it.line.Msg.In(c.Lang))
	default:
		add(plain, it.line.Text) // made printable when it arrived (runner.go)
	}
	return lines
}

// update scrolls the pane by its keys (enabled while it has the focus).
func (o outputPane) update(msg tea.KeyPressMsg) (outputPane, tea.Cmd) {
	keys.ScrollViewport(&o.vp, o.keys, msg)
	return o, nil
}

// printable is a line of a program's output as text: its escape sequences (colours, cursor moves,
// a clear screen) and other control characters would act on the tutorial's own screen, so they go;
// a tab becomes spaces.
func printable(s string) string {
	s = xansi.Strip(s)
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			return -1
		}
		return r
	}, s)
}

// Package output is the output pane: what a run printed, an install did and a check found, for
// one section (or the tools page). Its items are kept as data and worded and wrapped when the
// language, width or styles change; components hand it items (as effects) and never reach into it.
package output

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/run"
	"ist2-boot/steps/setup"
	"ist2-boot/ui/common"
	"ist2-boot/ui/keys"
	"ist2-boot/ui/render"
)

// MaxItems is how many entries the output pane keeps: a chatty command must not make every
// redraw slower, so the oldest go, and a line says how many.
const MaxItems = 5000

// MaxBytes bounds the text the pane keeps (a line is at most 64 KiB, steps/run): memory stays
// bounded whatever a command prints.
const MaxBytes = 8 << 20

// Item is one entry of the output pane, kept as data (not text) so that a language switch or
// a resize words and wraps it anew: a line of a run, an engine message, a check result, an
// install's event, or a question. Its wrapped lines are kept for the language, width and styles
// they were made for, so a tick redraws only what changed.
type Item struct {
	line   run.Line
	msg    i18n.Msg
	file   *check.FileResult
	setup  *setup.SetupEvent
	prompt string // catalog key of a question
	brief  bool   // a file's state alone, without its reason (after a run's output; c tells why)
	// howSaid: an earlier file of the same check said how to get the same missing tool, so this
	// one does not say it again (zh r17 M4).
	howSaid bool
	// fileCol is the width the file's name is padded to, so that its section's states align.
	fileCol int

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
func (it Item) redraws(prev Item) bool {
	return it.setup != nil && prev.setup != nil && it.setup.Kind == setup.SetupProgress &&
		prev.setup.Kind == setup.SetupProgress && prev.setup.Tool == it.setup.Tool
}

// Pane is what a run printed, an install did and a check found, for one section (or the
// tools page): items in a viewport, and the scroll keys it takes when focused.
type Pane struct {
	vp      viewport.Model
	items   []Item
	section string // the section (or the tools page) the items belong to
	rows    int    // the lines it holds, as last wrapped: the panes are sized for them
	keys    keys.Scroll
}

func New() Pane { return Pane{vp: viewport.New(), keys: keys.NewScroll()} }

// Show replaces the items with those of a section.
func (o *Pane) Show(section string, items []Item) { o.items, o.section = items, section }

// Append adds items at the end, keeping at most MaxItems.
func (o *Pane) Append(items []Item) {
	for _, it := range items {
		if n := len(o.items); n > 0 && it.redraws(o.items[n-1]) {
			o.items[n-1] = it
			continue
		}
		o.items = append(o.items, it)
	}
	over, size := len(o.items)-MaxItems, 0
	for _, it := range o.items {
		size += len(it.line.Text)
	}
	for i := 0; i < len(o.items)-1 && size > MaxBytes; i++ {
		size -= len(o.items[i].line.Text)
		over = max(over, i+1)
	}
	if over > 0 {
		o.items = append([]Item{{msg: i18n.M("ui.lines_dropped", "count", strconv.Itoa(over))}}, o.items[min(over+1, len(o.items)):]...)
	}
}

// ShowsRun: the items hold a run's commands or output.
func ShowsRun(items []Item) bool {
	for _, it := range items {
		if it.line.Kind == run.Command || it.line.Kind == run.Output {
			return true
		}
	}
	return false
}

// CheckItems lists each file's verdict and reason.
func CheckItems(results []check.SectionResult) []Item {
	var items []Item
	for _, r := range results {
		// The state words in one column within a section's files (ja r8 L21).
		col := 0
		for _, f := range r.Files {
			col = max(col, len(f.File))
		}
		said := map[string]bool{}
		for i := range r.Files {
			how := fmt.Sprint(r.Files[i].HowToGet) // its key and arguments (fmt sorts a map's keys)
			items = append(items, Item{file: &r.Files[i], fileCol: col, howSaid: said[how]})
			said[how] = r.Files[i].HowToGet.Key != ""
		}
	}
	return items
}

// inTutorial words a message as the tutorial says it: how to get a tool is its tools page (D),
// not a command to run elsewhere (zh r17 M3).
func inTutorial(m i18n.Msg) i18n.Msg {
	if len(m.Args) == 0 {
		return m
	}
	out := i18n.Msg{Key: m.Key, Args: make(map[string]string, len(m.Args))}
	for k, v := range m.Args {
		if v == i18n.Ref("run.how_to_get") {
			v = i18n.Ref("run.how_to_get_tui")
		}
		out.Args[k] = v
	}
	return out
}

// Refresh words the items in the current language and wraps them to the pane's width: idle is
// the line shown when there are none, footer a last line ("" for none). Cheap string work, and
// only for items not wrapped yet for this language, width and styles.
func (o *Pane) Refresh(c common.Common, idle, footer string) {
	w := max(o.vp.Width()-1, 10) // one column clear of the border, as the page above keeps
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
func (it Item) render(c common.Common, w int) []string {
	var lines []string
	add := func(style lipgloss.Style, text string) { lines = wrapStyled(lines, style, text, w) }
	// A message's later lines start under its text, not under its arrow (ja L20).
	hang := func(style lipgloss.Style, lead, text string) {
		for i, l := range render.WrapLines(text, w-xansi.StringWidth(lead), 0) {
			if i > 0 {
				lead = strings.Repeat(" ", xansi.StringWidth(lead))
			}
			lines = append(lines, style.Render(lead+l))
		}
	}
	plain := lipgloss.NewStyle()
	switch {
	case it.file != nil:
		f := it.file
		add(c.Styles.State[f.Status], render.Glyphs[f.Status]+" "+f.File+strings.Repeat(" ", max(0, it.fileCol-len(f.File)))+"  "+c.T(f.Status.Key()))
		if f.Status != check.Pass && !it.brief {
			add(plain, "    "+f.Reason.In(c.Lang))
			if f.HowToGet.Key != "" && !it.howSaid {
				add(plain, "    "+f.HowToGet.In(c.Lang))
			}
		}
		if f.Note.Key != "" && !it.brief {
			add(c.Styles.Warn, "    "+f.Note.In(c.Lang))
		}
	case it.setup != nil:
		e := it.setup
		switch e.Kind {
		case setup.SetupLine:
			add(c.Styles.Dim, fmt.Sprintf("    [%s] %s", i18n.Duration(c.Lang, int(e.Elapsed.Seconds())), e.Text))
		case setup.SetupProgress:
			// The time in the learner's words, not Go's "3s" (ja L22).
			add(c.Styles.Dim, "    "+render.ProgressBar(e.Done, e.Total, 20)+" "+render.ProgressText(*e, c.Lang))
		default:
			glyph := map[setup.SetupKind]string{setup.SetupStart: "→", setup.SetupDone: "✓", setup.SetupSkip: "·", setup.SetupFail: "✗"}[e.Kind]
			add(plain, glyph+" "+c.T("doctor.label", "label", e.Tool, "value", e.Msg.In(c.Lang))) // the language's colon (zh r22 L13)
		}
	case it.prompt != "":
		hang(c.Styles.Warn, "▶ ", c.T(it.prompt)) // its later lines under its text (ko r23 L22, ja L8)
	case it.msg.Key != "":
		hang(c.Styles.Warn, "==> ", inTutorial(it.msg).In(c.Lang))
	case it.line.Kind == run.Command && strings.HasPrefix(it.line.Text, "# "):
		// A comment's later lines go on as a comment, as on the page (ja r11 L13).
		for i, l := range render.WrapLines(strings.TrimPrefix(it.line.Text, "# "), w-4, 0) {
			lead := "$ # "
			if i > 0 {
				lead = "  # "
			}
			lines = append(lines, c.Styles.Dim.Render(lead+l))
		}
	case it.line.Kind == run.Command:
		add(c.Styles.Dim, "$ "+it.line.Text)
	case it.line.Kind == run.Note:
		hang(c.Styles.Warn, "==> ", inTutorial(it.line.Msg).In(c.Lang))
	default:
		add(plain, it.line.Text) // made Printable when it arrived (runner.go)
	}
	return lines
}

// Update scrolls the pane by its keys (enabled while it has the focus).
func (o Pane) Update(msg tea.KeyPressMsg) (Pane, tea.Cmd) {
	keys.ScrollViewport(&o.vp, o.keys, msg)
	return o, nil
}

// Printable is a line of a program's output as text: its escape sequences (colours, cursor moves,
// a clear screen) and other control characters would act on the tutorial's own screen, so they go;
// a tab becomes spaces.
func Printable(s string) string {
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

// Run is a line of a run; its output is made printable once, as it arrives (the pane is redrawn
// on every tick).
func Run(l run.Line) Item {
	if l.Kind == run.Output {
		l.Text = Printable(l.Text)
	}
	return Item{line: l}
}

// Message is an engine message, worded when shown.
func Message(msg i18n.Msg) Item { return Item{msg: msg} }

// Prompt is a question (a catalog key) at the pane's end.
func Prompt(key string) Item { return Item{prompt: key} }

// Setup is an install's event.
func Setup(e setup.SetupEvent) Item { return Item{setup: &e} }

// CommandItems are a section's reference commands as the pane lists them before asking to run them.
func CommandItems(sec *steps.Section) []Item {
	var items []Item
	for _, st := range sec.Steps {
		for _, l := range strings.Split(strings.TrimSuffix(st.Run, "\n"), "\n") {
			if st.Run == "" {
				break
			}
			items = append(items, Item{line: run.Line{Kind: run.Command, Text: l}})
		}
	}
	return items
}

// Items are the items shown (the pane's own slice: Show replaces it, nothing edits it).
func (o *Pane) Items() []Item { return o.items }

// Section is the section (or the tools page) the items belong to.
func (o *Pane) Section() string { return o.section }

// Rows is how many lines the items took when last wrapped: the panes are sized for them.
func (o *Pane) Rows() int { return o.rows }

// IsFile: the item is a file's verdict.
func (it Item) IsFile() bool { return it.file != nil }

// MessageKey is the catalog key of an engine message item ("" for another kind).
func (it Item) MessageKey() string { return it.msg.Key }

// Text is a run line's text.
func (it Item) Text() string { return it.line.Text }

// WithStates keeps what the pane shows except the files' states left by an earlier check, and
// puts results' files below it as states alone: a run's output stays, its check follows it.
func (o *Pane) WithStates(results []check.SectionResult) {
	kept := o.items[:0:0]
	for _, it := range o.items {
		if !it.brief {
			kept = append(kept, it)
		}
	}
	for _, it := range CheckItems(results) {
		it.brief = true
		kept = append(kept, it)
	}
	o.items = kept
}

// SetSize sizes the viewport to the pane's inside.
func (o *Pane) SetSize(w, h int) {
	o.vp.SetWidth(w)
	o.vp.SetHeight(h)
}

// Width is the viewport's width.
func (o *Pane) Width() int { return o.vp.Width() }

// GotoTop and GotoBottom scroll to the start or the end; AtBottom tells whether it is there.
func (o *Pane) GotoTop()       { o.vp.GotoTop() }
func (o *Pane) GotoBottom()    { o.vp.GotoBottom() }
func (o *Pane) AtBottom() bool { return o.vp.AtBottom() }

// Wheel scrolls by n lines (negative: up), as the mouse wheel does.
func (o *Pane) Wheel(n int) { wheel(&o.vp, n) }

// View is the viewport as drawn; Content what it holds.
func (o *Pane) View() string    { return o.vp.View() }
func (o *Pane) Content() string { return o.vp.GetContent() }

// Keys are the pane's scroll keys, enabled while it has the focus.
func (o *Pane) Keys() *keys.Scroll { return &o.keys }

func wheel(vp *viewport.Model, n int) {
	if n < 0 {
		vp.ScrollUp(-n)
	} else {
		vp.ScrollDown(n)
	}
}

package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/viewport"
	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/run"
	"ist2-boot/steps/setup"
	"ist2-boot/ui/render"
)

// outItem is one entry of the output pane, kept as data (not text) so that a language switch or
// a resize words and wraps it anew: a line of a run, an engine message, a check result, or a
// question.
type outItem struct {
	line   run.Line
	msg    i18n.Msg
	file   *check.FileResult
	setup  *setup.SetupEvent
	prompt string // catalog key of a question
	brief  bool   // a file's state alone, without its reason (after a run's output; c tells why)
}

// outputPane is what a run printed and what a check found, for one section: kept as items (not
// text) in a viewport, so a language switch or a resize words and wraps them anew.
type outputPane struct {
	vp      viewport.Model
	items   []outItem
	section string // the section the items belong to
	idle    bool   // it holds nothing but its idle line: the panes are sized for that
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

// refreshOutput words the output pane's items in the current language and wraps them to its
// width. Cheap string work: no I/O, no markdown.
func (m *Model) refreshOutput() {
	w := max(m.out.vp.Width(), 10)
	var lines []string
	add := func(style lipgloss.Style, text string) {
		indent := len(text) - len(strings.TrimLeft(text, " "))
		for _, l := range render.WrapLines(strings.TrimLeft(text, " "), w-indent, 0) {
			lines = append(lines, style.Render(strings.Repeat(" ", indent)+l))
		}
	}
	plain := lipgloss.NewStyle()
	idle := len(m.out.items) == 0 && (m.run == nil || m.run.ended || m.out.section != m.run.section)
	if idle != m.out.idle && m.width >= minWidth && m.height >= minHeight {
		m.out.idle = idle
		m.sizePanes()
		w = max(m.out.vp.Width(), 10)
	}
	if idle {
		add(m.styles.Dim, m.idleOutput())
	}
	for _, it := range m.out.items {
		switch {
		case it.file != nil:
			f := it.file
			state := i18n.T(m.lang, "ui.state."+string(f.Status), nil)
			add(m.styles.State[f.Status], render.Glyphs[f.Status]+" "+f.File+"  "+state)
			if f.Status != check.Pass && !it.brief {
				add(plain, "    "+f.Reason.In(m.lang))
			}
			if f.Note.Key != "" && !it.brief {
				add(m.styles.Warn, "    "+f.Note.In(m.lang))
			}
		case it.setup != nil:
			e := it.setup
			switch e.Kind {
			case setup.SetupLine:
				add(m.styles.Dim, fmt.Sprintf("    [%3.0fs] %s", e.Elapsed.Seconds(), e.Text))
			case setup.SetupProgress:
				add(m.styles.Dim, fmt.Sprintf("    %s %s [%3.0fs]", render.ProgressBar(e.Done, e.Total, 20), render.ProgressText(*e, m.lang), e.Elapsed.Seconds()))
			default:
				glyph := map[setup.SetupKind]string{setup.SetupStart: "→", setup.SetupDone: "✓", setup.SetupSkip: "·", setup.SetupFail: "✗"}[e.Kind]
				add(plain, glyph+" "+e.Tool+": "+e.Msg.In(m.lang))
			}
		case it.prompt != "":
			add(m.styles.Warn, "▶ "+i18n.T(m.lang, it.prompt, nil))
		case it.msg.Key != "":
			add(m.styles.Warn, "==> "+it.msg.In(m.lang))
		case it.line.Kind == run.Command:
			add(m.styles.Dim, "$ "+it.line.Text)
		case it.line.Kind == run.Note:
			add(m.styles.Warn, "==> "+it.line.Msg.In(m.lang))
		default:
			add(plain, it.line.Text) // made printable when it arrived (run.go)
		}
	}
	if m.run != nil && !m.run.ended && m.out.section == m.run.section {
		secs := int(time.Since(m.run.start).Seconds())
		add(m.styles.Warn, "… "+i18n.T(m.lang, "ui.running", map[string]string{"seconds": itoa(secs)}))
	}
	m.out.vp.SetContentLines(lines)
}

// idleOutput is what the output pane says before anything ran on this page: what to do on a
// section, where to start on the intro, and on the finish page where the learner stands.
func (m Model) idleOutput() string {
	switch m.pageID() {
	case m.eng.Lesson.Intro.ID:
		return i18n.T(m.lang, "ui.output_intro", nil)
	case m.eng.Lesson.Finish.ID:
		if summary := m.finishSummary(); summary.Key != "" {
			return summary.In(m.lang)
		}
		return i18n.T(m.lang, "ui.rendering", nil)
	case drillPage: // the drill's own keys, not the sections' r and c
		return i18n.T(m.lang, "ui.output_drill", map[string]string{"file": drillFile})
	}
	return i18n.T(m.lang, "ui.output_empty", nil)
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

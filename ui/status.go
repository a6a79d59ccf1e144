package ui

import (
	"maps"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/i18n"
	"ist2-boot/ui/common"
	"ist2-boot/ui/render"
)

// question is a question waiting for y or n.
type question int

const (
	noQuestion question = iota
	askRun
	askQuit
	askQuitIdle // askQuit whose run has ended: still y or n, so the learner's n answers it (ko r16)
	askNewLab
)

// answerVerbs are each question's answers, as catalog keys: what y does, what n does.
var answerVerbs = map[question][2]string{
	askRun:      {"keys.yes.run", "keys.no.run"},
	askQuit:     {"keys.yes.quit", "keys.no.quit"},
	askQuitIdle: {"keys.yes.quit", "keys.no.quit"},
	askNewLab:   {"keys.yes.newlab", "keys.no.newlab"},
}

// statusBar is what the status line leads with: the question asked, else the latest news or
// error (which goes after the engine's MessageTTL), and the popup that holds either when it is too
// long for the line.
type statusBar struct {
	message  i18n.Msg
	id       int // counts messages, so an expiry clears only the message it was set for
	question question
	popup    popup
}

// popup is a question or a result too long for the status bar, laid out (in Update) as a box
// across the screen's width, above the status bar; empty when the status bar holds it.
type popup struct {
	lines []string
	text  string // what it was laid out from, with the width
	width int
}

// messageExpiredMsg: the message set as number id has had its time.
type messageExpiredMsg struct{ id int }

// defaultMessageTTL: long enough to read a sentence, short enough not to outlive its news.
const defaultMessageTTL = 6 * time.Second

// asking: a question waits for its answer.
func (s statusBar) asking() bool { return s.question != noQuestion }

// noted counts a message that changed, and returns the command that clears it once the engine's
// MessageTTL has passed.
func (s statusBar) noted(c common.Common, before i18n.Msg) (statusBar, tea.Cmd) {
	if s.message.Key == "" || equalMsg(before, s.message) {
		return s, nil
	}
	s.id++
	ttl := c.Eng.MessageTTL
	if ttl < 0 {
		return s, nil
	}
	if ttl == 0 {
		ttl = defaultMessageTTL
	}
	id := s.id
	return s, tea.Tick(ttl, func(time.Time) tea.Msg { return messageExpiredMsg{id: id} })
}

func equalMsg(a, b i18n.Msg) bool { return a.Key == b.Key && maps.Equal(a.Args, b.Args) }

// expired clears the message set as number id, not a newer one.
func (s statusBar) expired(msg messageExpiredMsg) statusBar {
	if msg.id == s.id {
		s.message = i18n.Msg{}
	}
	return s
}

// text is the question asked, else the latest message.
func (s statusBar) text(c common.Common) string {
	switch {
	case s.question == askQuit:
		return c.T("ui.confirm_quit")
	case s.question == askQuitIdle:
		return c.T("ui.confirm_quit_idle")
	case s.question == askNewLab:
		return c.T("newlab.confirm", "dir", c.Eng.Env.WorkDir) + " · y\u00a0" + c.T("keys.yes.newlab") + " · n\u00a0" + c.T("keys.no.newlab") // a key stays with its word (zh r7 M15), after the separator the status line uses (zh r8 ZH-21)
	case s.message.Key != "":
		return s.message.In(c.Lang)
	}
	return ""
}

// layout puts the text in a popup when it does not fit the status bar whole (with room for
// where, the learner's place), wrapped by the line breaker to the screen's width.
func (s statusBar) layout(c common.Common, where string) statusBar {
	text := s.text(c)
	if text == s.popup.text && c.Width == s.popup.width {
		return s
	}
	s.popup = popup{text: text, width: c.Width}
	if text == "" || xansi.StringWidth(text)+xansi.StringWidth(where)+3 <= c.Width || c.Width < minWidth {
		return s
	}
	inner := c.Width - 4
	var lines []string
	for _, l := range render.WrapLines(text, inner, 0) {
		lines = append(lines, l+strings.Repeat(" ", max(0, inner-xansi.StringWidth(l))))
	}
	box := c.Styles.FocusedPane.Width(c.Width).Render(strings.Join(lines, "\n"))
	s.popup.lines = strings.Split(box, "\n")
	return s
}

// over lays the popup over the bottom of the body (the status bar and key line stay).
func (s statusBar) over(body string) string {
	if len(s.popup.lines) == 0 {
		return body
	}
	lines := strings.Split(body, "\n")
	// It sits inside the panes, above their bottom border: a pane is never left open below
	// (ja r7 L22, two tops and no bottom at 60×20).
	bottom := len(lines)
	if last := xansi.Strip(lines[len(lines)-1]); strings.HasPrefix(last, "└") || strings.HasPrefix(last, "╚") {
		bottom--
	}
	n := min(len(s.popup.lines), bottom)
	copy(lines[bottom-n:bottom], s.popup.lines[len(s.popup.lines)-n:])
	return strings.Join(lines, "\n")
}

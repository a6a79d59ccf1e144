package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/check"
	"ist2-boot/ui/common"
	"ist2-boot/ui/keys"
	"ist2-boot/ui/render"
)

// focus is the pane that takes scroll keys.
type focus int

const (
	focusProse focus = iota
	focusOutput
	focusList
)

// paneView is what the prose pane shows: the open page, the glossary or the tools page.
type paneView int

const (
	viewPage paneView = iota
	viewGlossary
	viewTools
)

// navigation is where the learner is: the pages in order, the open one, the list's selection,
// the focused pane, what the prose pane shows; and the list's keys (enter opens, the scroll keys
// move the selection while the list has the focus).
type navigation struct {
	pages  []string
	page   int // open page, index into pages
	cursor int // list selection
	focus  focus
	view   paneView
	keys   listKeys
}

type listKeys struct {
	Open   keys.Binding
	scroll keys.Scroll
}

func newNavigation(pages []string) navigation {
	return navigation{pages: pages, keys: listKeys{Open: keys.New("enter", "help.open", "", "", "enter").In(keys.Moving), scroll: keys.NewScroll()}}
}

func (n navigation) pageID() string { return n.pages[n.page] }

// toggle shows v in the prose pane, or the page again when v is already shown.
func (n navigation) toggle(v paneView) navigation {
	if n.view == v {
		n.view = viewPage
	} else {
		n.view = v
	}
	return n
}

// listUpdate moves the list's selection; enter returns the page to open (-1: none).
func (n navigation) listUpdate(msg tea.KeyPressMsg) (navigation, int) {
	if keys.Matches(msg, n.keys.Open) {
		return n, n.cursor
	}
	switch n.keys.scroll.Move(msg) {
	case keys.LineUp:
		n.cursor = max(0, n.cursor-1)
	case keys.LineDown:
		n.cursor = min(len(n.pages)-1, n.cursor+1)
	case keys.ToTop:
		n.cursor = 0
	case keys.ToBottom:
		n.cursor = len(n.pages) - 1
	}
	return n, -1
}

// stackedListLines is how many pages the stacked list shows: three where there is room, else
// just the open one, so the prose keeps enough lines to read.
func stackedListLines(height int) int {
	if height < tallLines {
		return 1
	}
	return listLines
}

// listItem is one line of the list: number, glyph, state word, title; cut to width cells. alone:
// the list shows this line only (nothing to align it with).
func (n navigation) listItem(c common.Common, title func(string) string, i, width int, alone bool) string {
	id := n.pages[i]
	num := "  "
	if k := indexOf(c.Eng.Lesson.SectionIDs(), id); k >= 0 {
		num = fmt.Sprintf("%d.", k+1)
	}
	line := num + "   " + title(id)
	style := lipgloss.NewStyle()
	if r, ok := c.Results[id]; ok {
		st := r.Status
		line = num + " " + render.Glyphs[st] + " " + c.T(r.StepKey()) + " · " + title(id)
		style = c.Styles.State[st]
	}
	if alone { // the list's one line: nothing to align with, so no gap where a number would be (zh r20 L21)
		line = strings.TrimLeft(line, " ")
	}
	marker := "  "
	if i == n.page {
		marker = "▸ "
	}
	line = xansi.Truncate(marker+line, width, "…")
	if i == n.cursor && n.focus == focusList {
		return c.Styles.Selected.Render(line)
	}
	if i == n.page {
		return c.Styles.Title.Inherit(style).Render(line)
	}
	return style.Render(line)
}

// listView shows every page (wide) or the open one with its neighbours (stacked).
func (n navigation) listView(c common.Common, title func(string) string, g geometry) string {
	width := g.listW - 2
	first, last := 0, len(n.pages)-1
	if !g.wide {
		k := stackedListLines(c.Height)
		first = max(0, min(n.cursor-k/2, len(n.pages)-k))
		last = first + k - 1
	}
	if first == last && n.cursor != n.page {
		// One line: it shows the page the cursor is on, not the one open — said so, with the key
		// that opens it (newcomer L7).
		hint := c.T("ui.list_enter_opens")
		if !strings.HasPrefix(hint, "（") { // a full-width parenthesis brings its own space (zh r7 L11)
			hint = " " + hint
		}
		return n.listItem(c, title, first, width-xansi.StringWidth(hint), true) + c.Styles.Dim.Render(hint)
	}
	var lines []string
	for i := first; i <= last; i++ {
		lines = append(lines, n.listItem(c, title, i, width, first == last))
	}
	return strings.Join(lines, "\n")
}

// where is the learner's place: the step of the open section and how many sections are done
// (on the other pages — an unnumbered one too — how many of all).
func (n navigation) where(c common.Common) string {
	ids := c.Eng.Lesson.SectionIDs()
	passed := 0
	for _, id := range ids {
		if c.Results[id].Status == check.Pass {
			passed++
		}
	}
	step := indexOf(ids, n.pageID()) + 1
	args := []string{"step", itoa(step), "total", itoa(len(ids)), "passed", itoa(passed)}
	if step > 0 {
		return c.T("ui.where_step", args...)
	}
	return c.T("ui.where_done", args...)
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

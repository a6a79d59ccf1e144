package ui

// The smallest terminal the tutorial draws in; below it, it says how big it must be.
const (
	minWidth  = 60
	minHeight = 20
	// wideWidth and up puts the section list beside the prose; narrower stacks the panes.
	wideWidth = 100
	listWidth = 34 // the list pane in wide layout, border included
	// From roomyWidth columns on, the list is roomyListWidth wide: every page's short title and
	// state word whole, in each language (the reading column keeps 80).
	roomyWidth     = 120
	roomyListWidth = 40
	listLines      = 3  // the list's inner height in stacked layout: previous, open, next
	tallLines      = 30 // below this height the stacked list shows only the open page
)

// geometry is where each pane goes, outer sizes (borders included).
type geometry struct {
	wide                bool
	listW, listH        int
	rightW              int
	proseH, outH, bodyH int
}

// geometry divides the screen: two lines for the status bar and the key help, the rest for the
// panes; the output pane gets 40% of the right (or stacked) column.
func (m Model) geometry() geometry {
	g := geometry{wide: m.Width >= wideWidth, bodyH: m.Height - 2}
	if g.wide {
		g.listW, g.listH = listWidth, g.bodyH
		if m.Width >= roomyWidth {
			g.listW = roomyListWidth // every short title whole beside its state word
		}
		g.rightW = m.Width - g.listW
		g.proseH = g.bodyH * 6 / 10
	} else {
		g.listW, g.listH = m.Width, stackedListLines(m.Height)+2
		g.rightW = m.Width
		g.proseH = (g.bodyH - g.listH) * 6 / 10
	}
	g.outH = g.bodyH - g.proseH
	if !g.wide {
		g.outH -= g.listH
	}
	// The output pane is as tall as what it holds, up to its share: a line of results does not
	// take six rows from the reading (newcomer L18), and an idle line that wraps is shown whole.
	if fit := max(m.out.Rows()+2, minOutH); fit < g.outH {
		g.proseH += g.outH - fit
		g.outH = fit
	}
	return g
}

// minOutH is the output pane's least height: one line inside its border.
const minOutH = 3

// layout sizes the viewports to the insides of their panes (a border takes one cell each side).
func (m *Model) layout() {
	if m.Width < minWidth || m.Height < minHeight {
		return
	}
	m.sizePanes()
	m.refreshOutput()
	if m.overlay == overlayDiff {
		m.diff.Refresh(m.Common)
	}
}

// sizePanes sets the viewports' sizes from the geometry.
func (m *Model) sizePanes() {
	g := m.geometry()
	m.prose.SetSize(g.rightW-2, g.proseH-2)
	m.out.SetSize(g.rightW-2, g.outH-2)
	m.diff.SetSize(m.Width, g.bodyH)
}

// refreshOutput words the output pane's items for the language and width; when that changes how
// many lines they take, the panes are sized anew (their widths stay, so nothing wraps again).
func (m *Model) refreshOutput() {
	footer, runShown := m.runner.footer(m.Common, m.out.Section())
	idleLine := ""
	if len(m.out.Items()) == 0 && !runShown {
		idleLine = m.idleOutput()
	}
	rows := m.out.Rows()
	m.out.Refresh(m.Common, idleLine, footer)
	if m.out.Rows() != rows && m.Width >= minWidth && m.Height >= minHeight {
		m.sizePanes()
	}
}

// idleOutput is what the output pane says before anything ran on this page: the open page's
// kind says it (what to do on a section, where to start on the intro, on the finish page where
// the learner stands, the drill's own keys on the drill page).
func (m Model) idleOutput() string { return m.kind(m.pageID()).IdleLine(m.Common, m.pageID()) }

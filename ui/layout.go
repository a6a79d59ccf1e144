package ui

// The smallest terminal the tutorial draws in; below it, it says how big it must be.
const (
	minWidth  = 60
	minHeight = 20
	// wideWidth and up puts the section list beside the prose; narrower stacks the panes.
	wideWidth = 100
	listWidth = 34 // the list pane in wide layout, border included
	listLines = 3  // the list's inner height in stacked layout: previous, open, next
	tallLines = 30 // below this height the stacked list shows only the open page
)

// stackedListLines is how many pages the stacked list shows: three where there is room, else
// just the open one, so the prose keeps enough lines to read.
func (m Model) stackedListLines() int {
	if m.height < tallLines {
		return 1
	}
	return listLines
}

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
	g := geometry{wide: m.width >= wideWidth, bodyH: m.height - 2}
	if g.wide {
		g.listW, g.listH = listWidth, g.bodyH
		g.rightW = m.width - listWidth
		g.proseH = g.bodyH * 6 / 10
	} else {
		g.listW, g.listH = m.width, m.stackedListLines()+2
		g.rightW = m.width
		g.proseH = (g.bodyH - g.listH) * 6 / 10
	}
	g.outH = g.bodyH - g.proseH
	if !g.wide {
		g.outH -= g.listH
	}
	if m.out.idle && g.outH > idleOutH { // nothing in it: its one line, and the rest to reading
		g.proseH += g.outH - idleOutH
		g.outH = idleOutH
	}
	return g
}

// idleOutH is the output pane's height while it holds nothing but its one idle line.
const idleOutH = 3

// layout sizes the viewports to the insides of their panes (a border takes one cell each side).
func (m *Model) layout() {
	if m.width < minWidth || m.height < minHeight {
		return
	}
	m.sizePanes()
	m.refreshOutput()
	if m.overlay == overlayDiff {
		m.diff.refresh(m)
	}
}

// sizePanes sets the viewports' sizes from the geometry.
func (m *Model) sizePanes() {
	g := m.geometry()
	m.prose.vp.SetWidth(g.rightW - 2)
	m.prose.vp.SetHeight(g.proseH - 2)
	m.out.vp.SetWidth(g.rightW - 2)
	m.out.vp.SetHeight(g.outH - 2)
	m.diff.vp.SetWidth(m.width - 2)
	m.diff.vp.SetHeight(g.bodyH - 3) // the file tabs take a line
}

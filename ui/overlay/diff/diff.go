// Package diff is the diff view: the open section's files that have a diff, one at a time, each
// coloured by line kind and wrapped to the screen.
package diff

import (
	"strings"

	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/check"
	"ist2-boot/ui/common"
	"ist2-boot/ui/keys"
	"ist2-boot/ui/render"
)

// View is the diff overlay: the open section's files that have a diff, one at a time, with
// its keys (tab to the next file, esc to close, the scroll keys).
type View struct {
	files []check.FileResult
	index int
	vp    viewport.Model
	keys  diffKeys
}

type diffKeys struct {
	NextFile, Close keys.Binding
	scroll          keys.Scroll
}

// New is a closed diff view.
func New() View {
	return View{vp: viewport.New(), keys: diffKeys{
		NextFile: keys.New("tab", "help.next_file", "tab", "keys.next_file", "tab").In(keys.Overlays),
		Close:    keys.New("", "", "esc/q", "keys.close", "esc", "q", "d").In(keys.Overlays),
		scroll:   keys.NewScroll(),
	}}
}

func (k *diffKeys) all() []*keys.Binding { return []*keys.Binding{&k.NextFile, &k.Close} }

func (k *diffKeys) enable(on bool) { keys.Enable(on, append(k.all(), k.scroll.All()...)...) }

// FilesWithDiff are a section result's files that have a diff.
func FilesWithDiff(r check.SectionResult) []check.FileResult {
	var files []check.FileResult
	for _, f := range r.Files {
		if f.Diff != "" {
			files = append(files, f)
		}
	}
	return files
}

// Open shows files, keeping the file shown when it reopens on the same section's new check.
func (d View) Open(c common.Common, files []check.FileResult, reopen bool) View {
	if !reopen || d.index >= len(files) {
		d.index = 0
	}
	d.files = files
	d.Refresh(c)
	d.vp.GotoTop()
	return d
}

// Refresh colours the current file's diff by line kind (+ added, - removed, @@ hunk) and wraps
// it to the view's width.
func (d *View) Refresh(c common.Common) {
	if len(d.files) == 0 {
		return
	}
	f := d.files[d.index]
	w := max(d.vp.Width(), 10)
	lines := []string{c.Styles.State[f.Status].Render(render.Glyphs[f.Status] + " " + f.File + "  " + c.T(f.Status.Key()))}
	// The reason is prose: two cells clear of the frame, as the page keeps its text (ja r21 M3).
	lines = append(lines, render.WrapLines(f.Reason.In(c.Lang), max(w-2, 10), 0)...)
	lines = append(lines, "")
	for _, l := range strings.Split(strings.TrimRight(f.DiffIn(c.Lang), "\n"), "\n") {
		style := lipgloss.NewStyle()
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			style = c.Styles.Title
		case strings.HasPrefix(l, "@@"):
			style = c.Styles.DiffHunk
		case strings.HasPrefix(l, "+"):
			style = c.Styles.DiffAdd
		case strings.HasPrefix(l, "-"):
			style = c.Styles.DiffDel
		}
		for _, piece := range strings.Split(xansi.Hardwrap(l, w, true), "\n") {
			lines = append(lines, style.Render(piece))
		}
	}
	d.vp.SetContentLines(lines)
}

// SetSize fits the view to the screen's body (the file tabs take a line).
func (d *View) SetSize(width, bodyH int) {
	d.vp.SetWidth(width - 2)
	d.vp.SetHeight(bodyH - 3)
}

// Update: tab to the next file, the scroll keys to read, the close key closes it (and says so).
func (d View) Update(c common.Common, msg tea.KeyPressMsg) (next View, closed bool) {
	if keys.Matches(msg, d.keys.Close) {
		return d, true
	}
	if keys.Matches(msg, d.keys.NextFile) {
		d.index = (d.index + 1) % len(d.files)
		d.Refresh(c)
		d.vp.GotoTop()
		return d, false
	}
	keys.ScrollViewport(&d.vp, d.keys.scroll, msg)
	return d, false
}

// Render is a tab line naming the files, then the diff in a pane.
func (d View) Render(c common.Common, height int) string {
	var tabs []string
	for i, f := range d.files {
		label := " " + render.Glyphs[f.Status] + " " + f.File + " "
		if i == d.index {
			label = c.Styles.Selected.Render(label)
		}
		tabs = append(tabs, label)
	}
	tabLine := xansi.Truncate(strings.Join(tabs, " "), c.Width, "…")
	pane := c.Styles.FocusedPane.Width(c.Width).Height(height - 1).Render(d.vp.View())
	return lipgloss.JoinVertical(lipgloss.Left, tabLine, pane)
}

// Wheel scrolls by n lines (negative: up), as the mouse wheel does.
func (d *View) Wheel(n int) {
	if n < 0 {
		d.vp.ScrollUp(-n)
	} else {
		d.vp.ScrollDown(n)
	}
}

// Enable turns the view's keys on while it is open, off otherwise.
func (d *View) Enable(on bool) { d.keys.enable(on) }

// Bindings are the view's own keys (next file, close), as the help screen lists them.
func (d *View) Bindings() []*keys.Binding { return d.keys.all() }

// Scroll are the view's scroll keys.
func (d *View) Scroll() *keys.Scroll { return &d.keys.scroll }

package render

import (
	"image/color"

	"ist2-boot/steps/check"

	"charm.land/lipgloss/v2"
)

// Styles are the looks of the tutorial by role. With NO_COLOR every style is plain: glyphs and
// words carry all the information.
type Styles struct {
	Pane, FocusedPane  lipgloss.Style
	Title, Dim, Status lipgloss.Style
	Selected           lipgloss.Style
	State              map[check.Status]lipgloss.Style
	DiffAdd, DiffDel   lipgloss.Style
	DiffHunk           lipgloss.Style
	Warn               lipgloss.Style
}

// NewStyles builds the styles for a dark or light background, or without colour.
func NewStyles(dark, noColor bool) *Styles {
	pick := lipgloss.LightDark(dark)
	c := func(light, darkc string) color.Color { return pick(lipgloss.Color(light), lipgloss.Color(darkc)) }
	s := &Styles{
		// The focused pane in heavy lines as well as in colour: told apart without colour (zh r14 L35).
		Pane:        lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(c("250", "240")),
		FocusedPane: lipgloss.NewStyle().Border(lipgloss.ThickBorder()).BorderForeground(c("62", "111")),
		Title:       lipgloss.NewStyle().Bold(true),
		Dim:         lipgloss.NewStyle().Foreground(c("245", "244")),
		Status:      lipgloss.NewStyle().Foreground(c("235", "252")).Background(c("254", "236")),
		Selected:    lipgloss.NewStyle().Bold(true).Reverse(true),
		DiffAdd:     lipgloss.NewStyle().Foreground(c("28", "114")),
		DiffDel:     lipgloss.NewStyle().Foreground(c("160", "203")),
		DiffHunk:    lipgloss.NewStyle().Foreground(c("25", "111")),
		Warn:        lipgloss.NewStyle().Foreground(c("130", "214")),
		State: map[check.Status]lipgloss.Style{
			check.Pass:      lipgloss.NewStyle().Foreground(c("28", "114")),
			check.Fail:      lipgloss.NewStyle().Foreground(c("160", "203")),
			check.Missing:   lipgloss.NewStyle().Foreground(c("245", "244")),
			check.NeedsTool: lipgloss.NewStyle().Foreground(c("130", "214")),
		},
	}
	if noColor {
		plain := lipgloss.NewStyle()
		s.Pane = plain.Border(lipgloss.NormalBorder())
		s.FocusedPane = plain.Border(lipgloss.DoubleBorder())
		s.Dim, s.Status, s.DiffAdd, s.DiffDel, s.DiffHunk, s.Warn = plain, plain, plain, plain, plain, plain
		s.Selected = plain.Bold(true)
		for k := range s.State {
			s.State[k] = plain
		}
	}
	return s
}

// Glyphs mark a state without colour: ✓ done, ✗ failed, ○ not yet (not "·", the separator
// beside it: zh r14 M3), ! needs a tool.
var Glyphs = map[check.Status]string{check.Pass: "✓", check.Fail: "✗", check.Missing: "○", check.NeedsTool: "!"}

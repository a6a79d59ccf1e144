// Package render sets text for the terminal, for the tutorial and the commands alike: the
// lesson's markdown through glamour, the one line breaker every surface uses (display cells, the
// rules a CJK typesetter uses), styles and state glyphs, progress bars and the review table. It
// never reads files or runs processes itself.
package render

import (
	"fmt"
	"regexp"
	"strings"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
	xansi "github.com/charmbracelet/x/ansi"
)

// Style is how rendered prose looks: colours for a dark or a light terminal, or none.
type Style int

// The three looks. Plain is for NO_COLOR and for output that is not a terminal.
const (
	Dark Style = iota
	Light
	Plain
)

func (s Style) config() ansi.StyleConfig {
	var c ansi.StyleConfig
	switch s {
	case Light:
		c = styles.LightStyleConfig
	case Plain:
		// A code block goes through chroma with its no-op formatter: glamour's own plain path
		// takes a backslash as an escape and drops it ('filter=^a\.b$' printed as ^a.b$), so
		// a command copied from `show` would not be the lesson's (zh review round 2, M1).
		c = styles.NoTTYStyleConfig
		c.CodeBlock.Theme = "bw"
		return c
	default:
		c = styles.DarkStyleConfig
	}
	// An inline code span is marked by its colours alone: glamour's padding cell on each side
	// left a gap beside full-width punctuation (「（ --flag 、」) and two cells beside a CJK
	// character where the source has one space, and made a line starting with code ragged.
	c.Code.Prefix, c.Code.Suffix = "", ""
	// A heading is marked by its colour and weight, not Markdown's "## " (zh r7 L27); plain
	// output, which has neither, keeps the marks.
	for _, h := range []*ansi.StyleBlock{&c.H2, &c.H3, &c.H4, &c.H5, &c.H6} {
		h.Prefix = ""
	}
	return c
}

// chromaFormatter writes a highlighted code block: as terminal colours, or as the text alone.
func (s Style) chromaFormatter() string {
	if s == Plain {
		return "noop"
	}
	return "terminal256"
}

// RenderMarkdown renders md so that no line is wider than width display cells. glamour wraps
// prose (Chinese and Japanese too, which have no spaces); code blocks it leaves as they are, so
// their long lines are folded here rather than run off the screen. Costs milliseconds: call it
// from a tea.Cmd and cache the result by (page, language, width).
func RenderMarkdown(md string, width int, style Style) (string, error) {
	if width < 20 {
		width = 20
	}
	wrap := width - glamourMargin
	g, err := geometryFor(style, wrap)
	if err != nil {
		return "", fmt.Errorf("markdown renderer: %w", err)
	}
	// glamour gets the room for a hanging comma (see hangRoom); the lines are set to wrap.
	r, err := glamour.NewTermRenderer(glamour.WithStyles(style.config()), glamour.WithWordWrap(wrap+hangRoom), glamour.WithPreservedNewLines(), glamour.WithChromaFormatter(style.chromaFormatter()))
	if err != nil {
		return "", fmt.Errorf("markdown renderer: %w", err)
	}
	out, err := r.Render(prewrap(foldCodeBlocks(md, wrap-2*codeIndent-3), g))
	if err != nil {
		return "", fmt.Errorf("rendering markdown: %w", err)
	}
	// The no-break spaces that kept glamour from breaking are spaces to a reader: a command
	// copied from the terminal must not carry them (ja T7).
	out = strings.ReplaceAll(out, nbsp, " ")
	out = strings.ReplaceAll(out, string(wordJoiner), "") // it held a fact together while setting; no reader needs it
	if style == Plain {
		// Glamour marks a link as an OSC 8 hyperlink in every style: where there is no terminal
		// (a file, a pipe, CI's log) the escape is noise around the URL (ja M17).
		out = hyperlink.ReplaceAllString(out, "")
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		lines = append(lines, foldLine(l, width)...)
	}
	return strings.Join(lines, "\n") + "\n", nil
}

// foldLine cuts a line wider than width cells into pieces that fit; the pieces after the first
// are indented two cells past the line's own indent, so a folded command still reads as one.
func foldLine(line string, width int) []string {
	line = strings.TrimRight(line, " ")
	if xansi.StringWidth(line) <= width {
		return []string{line}
	}
	plain := xansi.Strip(line)
	indent := len(plain) - len(strings.TrimLeft(plain, " "))
	if indent+2 > width/2 {
		indent = 0
	}
	pad := strings.Repeat(" ", indent+2)
	out := []string{xansi.Truncate(line, width, "")}
	rest := xansi.TruncateLeft(line, width, "")
	for room := width - len(pad); xansi.StringWidth(rest) > 0; rest = xansi.TruncateLeft(rest, room, "") {
		out = append(out, strings.TrimRight(pad+xansi.Truncate(rest, room, ""), " "))
	}
	return out
}

// hyperlink is an OSC 8 sequence, opening or closing a link (ended by BEL or ST).
var hyperlink = regexp.MustCompile("\x1b\\]8;[^\x07\x1b]*(?:\x07|\x1b\\\\)")

// codeIndent is how far glamour indents a code block inside the document margin.
const codeIndent = 2

// glamourMargin is the left margin glamour's document style puts before every line (2) plus one
// cell of slack for a wide character that would straddle the edge.
const glamourMargin = 3

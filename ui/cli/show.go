package cli

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"

	"ist2-boot/content"
	"ist2-boot/steps/i18n"
	"ist2-boot/ui/render"
)

// cmdShow prints a page of the lesson rendered for the terminal: the intro, a section, the finish
// or the glossary, in the chosen language, with the active lab paths and, on request, hints.
func cmdShow(args []string, sio IO) int {
	var g global
	fs := newFlags("show", sio, &g)
	width := fs.Int("width", 0, "usage.show.width")
	hints := fs.Int("hints", 0, "usage.show.hints")
	s, pos, code := g.parseAndOpen(fs, args, sio, exactly(1))
	if s == nil {
		return code
	}
	// No terminal is wider than maxWidth; rendering a page to millions of columns would only eat
	// memory. An explicit --width beyond it is refused; a COLUMNS beyond it is not a terminal's.
	if *width > maxWidth {
		fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("cli.bad_width", "width", strconv.Itoa(*width), "max", strconv.Itoa(maxWidth)))
		return exitUsage
	}
	if *width <= 0 {
		*width = columns(sio.Getenv)
	}
	var md string
	if pos[0] == "glossary" {
		terms, err := i18n.LoadGlossary(content.FS)
		if err != nil {
			return g.fail(sio, err)
		}
		md = i18n.GlossaryMarkdown(terms, s.lang)
	} else {
		if _, ok := s.lesson.Page(pos[0]); !ok { // every page show takes, not only the sections (zh r8 ZH-34)
			pages := append(slices.Clone(s.lesson.PageIDs()), "glossary")
			fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("cli.unknown_page", "page", pos[0], "pages", i18n.ListOf(s.lang, pages)))
			return exitUsage
		}
		var err error
		if md, err = s.lesson.Prose(pos[0], s.lang, s.env); err != nil {
			return g.fail(sio, err)
		}
		md += s.hintsMarkdown(pos[0], *hints)
	}
	if sio.Render == nil { // no renderer given: the markdown itself
		fmt.Fprint(sio.Out, md)
		return exitOK
	}
	out, err := sio.Render(md, *width)
	if err != nil {
		return g.fail(sio, err)
	}
	fmt.Fprint(sio.Out, out)
	return exitOK
}

// hintsMarkdown is the first n hints of a section as a numbered list under a heading.
func (s *session) hintsMarkdown(id string, n int) string {
	sec, ok := s.lesson.Section(id)
	if !ok || n <= 0 {
		return ""
	}
	return "\n" + sec.HintsMarkdown(s.lang, n)
}

// stdoutIsTerminal tells main whether to colour what show prints.
func stdoutIsTerminal() bool {
	fi, err := os.Stdout.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// inputIsTerminal: the answers are typed at a terminal, which echoes them (not a pipe or a file).
func inputIsTerminal(in io.Reader) bool {
	f, ok := in.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// columns is the width text is set to on the command line: $COLUMNS, else 80.
func columns(getenv func(string) string) int {
	if c, err := strconv.Atoi(getenv("COLUMNS")); err == nil && c > 0 && c <= maxWidth {
		return c
	}
	return 80
}

// maxWidth is the widest page show renders, in cells.
const maxWidth = 1000

// plainOutput is true when show should print without colour: NO_COLOR, TERM=dumb, or not a
// terminal.
func plainOutput(getenv func(string) string) bool {
	return getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" || !stdoutIsTerminal()
}

// TerminalRenderer renders the pages `show` prints as the tutorial does: glamour, dark styles,
// or plain ones without colour (NO_COLOR, or standard output not a terminal).
func TerminalRenderer(getenv func(string) string) func(md string, width int) (string, error) {
	style := render.Dark
	if plainOutput(getenv) {
		style = render.Plain
	}
	return func(md string, width int) (string, error) { return render.RenderMarkdown(md, width, style) }
}

package cli

import (
	"fmt"
	"io"

	"ist2-boot/steps/i18n"
	"ist2-boot/steps/setup"
	"ist2-boot/ui/render"
)

// progressPrinter shows setup's progress events: on a terminal one line redrawn in place (a bar,
// the amount, the elapsed time); elsewhere (a log, CI) a line at each tenth, so a log stays short.
type progressPrinter struct {
	w        io.Writer
	lang     i18n.Lang
	terminal bool
	open     bool // a redrawn line is on the screen, to be ended before anything else is printed
	tenth    map[string]int64
}

// show prints one progress event.
func (p *progressPrinter) show(e setup.SetupEvent) {
	line := "  " + render.ProgressBar(e.Done, e.Total, 20) + " " + render.ProgressText(e, p.lang)
	if p.terminal {
		fmt.Fprint(p.w, "\r\x1b[K"+line)
		p.open = true
		return
	}
	if p.tenth == nil {
		p.tenth = map[string]int64{}
	}
	tenth := int64(-1)
	if e.Total > 0 {
		tenth = e.Done * 10 / e.Total
	}
	if last, seen := p.tenth[e.Tool]; seen && (tenth == last || tenth < 0) {
		return
	}
	p.tenth[e.Tool] = tenth
	fmt.Fprintln(p.w, line)
}

// end finishes a redrawn line before other output.
func (p *progressPrinter) end() {
	if p.open {
		fmt.Fprintln(p.w)
		p.open = false
	}
}

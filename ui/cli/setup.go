package cli

import (
	"fmt"
	"os"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/setup"
	"ist2-boot/ui/render"

	"github.com/charmbracelet/x/ansi"
)

// cmdSetup installs the missing tools into the tools dir, showing for each what it does, the
// elapsed time and the build's lines, then a table of the tools.
func cmdSetup(args []string, sio IO) int {
	var g global
	fs := newFlags("setup", sio, &g)
	yes := fs.Bool("yes", false, "usage.setup.yes")
	from := fs.String("from", "", "usage.setup.from")
	s, _, code := g.parseAndOpen(fs, args, sio, exactly(0))
	if s == nil {
		return code
	}
	s.progress = &progressPrinter{w: sio.Out, lang: s.lang, terminal: sio.Out == os.Stdout && stdoutIsTerminal()}
	in := &setup.Installer{Lesson: s.lesson, Env: s.env, Envoy: func(runtime, image string) bool {
		if *yes {
			return true
		}
		return s.askYes(s.sayLine("", "setup.offer_wrapper", "runtime", runtime, "image", image))
	}}
	ctx, signalled, stop := signalContext()
	defer stop()
	var tools steps.Tools
	var err error
	if *from != "" {
		if err = in.From(ctx, "envoy", *from, s.printSetup); err != nil {
			s.progress.end()
			return exitNotPass
		}
		tools = steps.FindTools(s.env, s.lesson.Tools)
	} else {
		tools, err = in.Setup(ctx, s.printSetup)
	}
	s.progress.end()
	if tools == nil && err != nil { // nothing could be tried (no tools dir): said, never "all present"
		fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("setup.failed", "error", err.Error()))
		return exitNotPass
	}
	fmt.Fprintln(sio.Out)
	for _, t := range tools {
		state := "✓"
		version := ansi.Truncate(t.VersionIn(s.lang), 60, "…")
		if !t.Found {
			state, version = "✗", s.say("doctor.missing")
		}
		fmt.Fprintf(sio.Out, "%s %-9s %s  %s\n", state, t.Name, version, t.Path)
	}
	if n := signalled(); n != 0 {
		return n // 128+n, as a shell reports a command a signal ended
	}
	for _, t := range tools {
		if !t.Found {
			return exitNotPass
		}
	}
	return exitOK
}

func (s *session) printSetup(e setup.SetupEvent) {
	if e.Kind == setup.SetupProgress {
		s.progress.show(e)
		return
	}
	s.progress.end()
	switch e.Kind {
	case setup.SetupLine:
		fmt.Fprintf(s.io.Out, "    [%s] %s\n", i18n.Duration(s.lang, int(e.Elapsed.Seconds())), e.Text)
	default:
		glyph := map[setup.SetupKind]string{setup.SetupStart: "→", setup.SetupDone: "✓", setup.SetupSkip: "·", setup.SetupFail: "✗"}[e.Kind]
		// The tool is a label: its colon is the language's, as doctor's (zh r22 L13).
		fmt.Fprintln(s.io.Out, glyph+" "+s.say("doctor.label", "label", e.Tool, "value", render.Unmarked(e.Msg.In(s.lang))))
	}
}

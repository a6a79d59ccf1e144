package cli

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/steps/run"
	"ist2-boot/ui/render"
)

func cmdRun(args []string, sio IO) int {
	var g global
	fs := newFlags("run", sio, &g)
	timeout := fs.Duration("timeout", 0, "usage.run.timeout")
	s, pos, code := g.parseAndOpen(fs, args, sio, func(n int) bool { return n >= 1 })
	if s == nil {
		return code
	}
	if code := s.checkSections(pos, true); code != exitOK {
		return code
	}
	// Several sections run in the lesson's order, each once, as `check` takes them; "all" is every one.
	ids := pos
	if slices.Contains(pos, "all") {
		if len(pos) > 1 {
			fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("cli.all_alone"))
			return exitUsage
		}
		ids = s.lesson.SectionIDs()
	} else { // in reading order: a practice page after its section
		ids = slices.DeleteFunc(slices.Clone(s.lesson.PageIDs()), func(id string) bool { return !slices.Contains(pos, id) })
	}
	// 0 is the flag's "not given" (the lesson's default); given, it must be positive (ko KO-41).
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "timeout" })
	if *timeout < 0 || given && *timeout == 0 {
		fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("cli.bad_timeout", "timeout", timeout.String()))
		return exitUsage
	}
	r := &run.Runner{Lesson: s.lesson, Env: s.env, Tools: steps.FindTools(s.env, s.lesson.Tools), Timeout: *timeout, Lang: s.lang}

	// ctrl+c cancels the running commands (their process group), then the run reports it.
	ctx, signalled, stop := signalContext()
	defer stop()
	var mu sync.Mutex // lines arrive from the reader goroutine
	emit := func(l run.Line) {
		mu.Lock()
		defer mu.Unlock()
		s.printLine(l)
	}
	code = exitOK
	for _, id := range ids {
		sec, _ := s.lesson.Section(id)
		fmt.Fprintln(sio.Out, "\n"+s.wrapLine("== "+s.sectionHead(id)+" · ", sec.Title[s.lang])) // wrapped, not cut by the terminal (ko r24 M1)
		res := r.RunSection(ctx, id, emit)
		if res.MissingTool == "" && res.MissingInput == "" { // stopped before a command: its line said why
			fmt.Fprintln(sio.Out, s.say("run.took", "took", i18n.Elapsed(s.lang, res.Duration), "code", fmt.Sprint(res.ExitCode)))
		}
		if res.OK() {
			continue
		}
		if code == exitOK {
			code = res.ExitCode
		}
		// A missing tool or input skips only this section: later ones may still be made.
		if res.MissingTool == "" && res.MissingInput == "" {
			break
		}
	}
	// The sections run are judged at the end, as the tutorial judges a run's end: their verdicts
	// (a pass with its time) are kept for the review, not counted as attempts (zh r16 M4).
	if results, err := check.Check(s.lesson, s.env, ids); err == nil && signalled() == 0 {
		_, _ = s.store.Update(progress.RecordQuiet(results, time.Now()))
	}
	if pid, ok := run.RunningEnvoy(s.env.Path("envoy.pid")); ok {
		fmt.Fprintln(sio.Out, s.say("run.envoy_left", "pid", fmt.Sprint(pid)))
	}
	next := strings.Join(append([]string{"ist2-boot", "check"}, ids...), " ")
	if pos[0] == "all" {
		next = "ist2-boot check" // every section: no names, and no space after the last word
	}
	fmt.Fprintln(sio.Out, s.say("run.next", "command", next))
	if n := signalled(); n != 0 {
		return n // 128+n, as a shell reports a command a signal ended
	}
	return code
}

func (s *session) printLine(l run.Line) {
	switch l.Kind {
	case run.Command:
		// A comment's later lines go on as a comment, as in the tutorial (ko r24 M1); a command
		// is printed as it runs, to be copied whole.
		if comment, ok := strings.CutPrefix(l.Text, "# "); ok {
			width := max(columns(s.io.Getenv), 20)
			for n, c := range render.WrapLines(comment, width-4, 0) {
				lead := "$ # "
				if n > 0 {
					lead = "  # "
				}
				fmt.Fprintln(s.io.Out, lead+c)
			}
			return
		}
		fmt.Fprintln(s.io.Out, "$ "+l.Text)
	case run.Note:
		fmt.Fprintln(s.io.Out, s.wrapLine("==> ", l.Msg.In(s.lang)))
	default:
		fmt.Fprintln(s.io.Out, l.Text)
	}
}

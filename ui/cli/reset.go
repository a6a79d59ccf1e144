package cli

import (
	"bufio"
	"fmt"
	"strings"
	"unicode/utf8"

	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/ui/render"
)

func cmdReset(args []string, sio IO) int {
	var g global
	fs := newFlags("reset", sio, &g)
	all := fs.Bool("all", false, "usage.reset.all")
	yes := fs.Bool("yes", false, "usage.reset.yes")
	ids, code, ok := g.parse(fs, args, sio, anyCount)
	if !ok {
		return code
	}
	if *all == (len(ids) > 0) { // sections or --all, exactly one: said before the usage, as parse says it (ko r8 KO-19)
		msg := i18n.M("cli.no_args.reset")
		if *all {
			msg = i18n.M("cli.wrong_args", "args", strings.Join(ids, " "))
		}
		fmt.Fprintln(sio.Err, "ist2-boot reset: "+render.Unmarked(msg.In(g.helpLanguage(sio))))
		printBrief(sio.Err, fs.Name(), g.helpLanguage(sio))
		return exitUsage
	}
	s, err := g.open(sio)
	if err != nil {
		return g.fail(sio, err)
	}
	if *all {
		ids = s.lesson.SectionIDs()
	}
	if code := s.checkSections(ids, false, "cli.all_reset"); code != exitOK {
		return code
	}
	if !*yes {
		heads := i18n.Ref("reset.every")
		if !*all { // each as check names it: "1단계(args)", not the bare id
			named := make([]string, len(ids))
			for i, id := range ids {
				named[i] = s.sectionHead(id)
			}
			heads = i18n.ListOf(s.lang, named)
		}
		if !s.askYes(s.sayLine("", "reset.confirm", "sections", heads, "dir", s.env.WorkDir)) {
			fmt.Fprintln(sio.Out, s.say("reset.aborted"))
			return exitOK
		}
	}
	res, err := progress.Reset(s.lesson, s.env, s.store, ids)
	if err != nil && len(res.Moved) == 0 {
		return g.fail(sio, err)
	}
	s.warnStore()
	if res.EnvoyStopped > 0 {
		fmt.Fprintln(sio.Out, s.say("run.envoy_stopped", "pid", fmt.Sprint(res.EnvoyStopped)))
	}
	if len(res.Moved) == 0 {
		fmt.Fprintln(sio.Out, s.say("reset.nothing"))
	} else {
		fmt.Fprintln(sio.Out, s.sayLine("", "reset.moved", "count", fmt.Sprint(len(res.Moved)), "dir", res.BackupDir))
		for _, f := range res.Moved {
			fmt.Fprintln(sio.Out, "  "+f)
		}
	}
	if err != nil { // moved, but the progress was not saved: the sections still read as before
		fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("reset.progress_unsaved", "error", err.Error()))
		return exitUsage
	}
	return exitOK
}

// isYes accepts y/yes and the learner's own word for it.
// askYes asks a yes/no question (no unless answered yes); what a terminal did not echo — a piped
// answer, the end of the input — ends the question's line, so the next words start their own
// (zh r18 L5: 「[y/N] 没有做任何更改。」).
func (s *session) askYes(question string) bool {
	// None after a full-width mark in Chinese (zh r22 L14: 「吗？ [y/N]」); Japanese sets a space
	// after 「？」 before what follows (ja r23 L4), as Korean after "?".
	sep := " "
	if r, _ := utf8.DecodeLastRuneInString(question); s.lang == i18n.Chinese && xansi.StringWidth(string(r)) == 2 {
		sep = ""
	}
	fmt.Fprint(s.io.Out, question+sep+"[y/N] ")
	answer, ok := readAnswer(bufio.NewReader(s.io.In))
	if !inputIsTerminal(s.io.In) || !ok {
		fmt.Fprintln(s.io.Out, answer)
	}
	return isYes(answer)
}

func isYes(answer string) bool {
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "y", "yes", "예", "네", "是", "はい":
		return true
	}
	return false
}

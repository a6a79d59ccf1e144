package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	"ist2-boot/steps"
	"ist2-boot/steps/drill"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/steps/run"
	"ist2-boot/ui/render"
)

// cmdDrill draws a drill from the learner's bootstrap.yaml: with --json it prints the drill and
// its answer and asks nothing; in a terminal it shows what an operator would see and asks the
// class, then the field, then for the fix, judging each with the evidence.
func cmdDrill(args []string, sio IO) int {
	var g global
	fs := newFlags("drill", "drill [--seed N] [--json]", sio, &g)
	seedFlag := fs.Int64("seed", -1, "the drill's seed (the same seed gives the same drill)")
	asJSON := fs.Bool("json", false, "print the drill with its answer, ask nothing")
	s, _, code := g.parseAndOpen(fs, args, sio, exactly(0))
	if s == nil {
		return code
	}
	if s.seedRefused(fs, *seedFlag, sio) {
		return exitUsage
	}
	base, from, err := run.DrillBase(context.Background(), s.lesson, s.env)
	if err != nil {
		fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("drill.no_base", "file", s.env.Path("bootstrap.yaml")))
		return exitNotPass
	}
	seed, avoid := uint64(*seedFlag), []string(nil)
	if *seedFlag < 0 {
		seed = rand.Uint64() % 1000000
		if p, err := s.store.Load(); err == nil {
			avoid = p.Drills.Avoid() // not the faults of the last few drills
		}
	}
	envoy := ""
	if t := steps.LocateTools(s.env, s.lesson.Tools).Get("envoy"); t.Found { // its path: no versions needed
		envoy = t.Path
	}
	d, err := drill.NewAvoiding(base, seed, avoid, envoy)
	if errors.Is(err, drill.ErrBaseFails) {
		fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("drill.no_base", "file", s.env.Path("bootstrap.yaml")))
		return exitNotPass
	}
	if err != nil {
		return g.fail(sio, err)
	}
	d.Base = from
	if *asJSON {
		printJSON(sio.Out, d)
		return exitOK
	}
	if s.tutorialOpen() { // its drill page owns drill-bootstrap.yaml: never graded on our file
		fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("cli.tutorial_open_drill"))
		return exitNotPass
	}
	return s.askDrill(d)
}

// tutorialOpen: an interactive tutorial runs on this progress (it holds the instance lock).
func (s *session) tutorialOpen() bool {
	inst, ok, err := s.store.AcquireInstance()
	if err != nil || !ok {
		return err == nil
	}
	inst.Release()
	return false
}

// askDrill is the interactive drill: the pod and the logs, then three questions.
func (s *session) askDrill(d *drill.Drill) int {
	w, in := s.io.Out, bufio.NewReader(s.io.In)
	ask := func(prompt string) (string, bool) {
		fmt.Fprint(w, prompt+" ")
		line, ok := readAnswer(in)
		return line, ok && line != "q"
	}
	say := func(m i18n.Msg) {
		for _, l := range render.WrapLines(m.In(s.lang), max(columns(s.io.Getenv)-4, 20), 0) {
			fmt.Fprintln(w, "  "+l)
		}
	}
	fmt.Fprintln(w, s.say("drill.intro", "seed", fmt.Sprint(d.Seed)))
	fmt.Fprintln(w, "\n$ kubectl get pod\n"+d.Evidence.Pod)
	fmt.Fprintln(w, "\n$ "+d.Evidence.LogsCmd)
	for _, l := range d.Evidence.Logs {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w)
	answer, ok := ask(s.say("drill.ask_class"))
	if !ok {
		return exitNotPass
	}
	class := drill.Rejected
	if answer == "2" || strings.HasPrefix(answer, "n") {
		class = drill.NotReady
	}
	classVerdict := d.JudgeClass(class)
	fmt.Fprintln(w, s.verdictWord(classVerdict.Right))
	say(classVerdict.Why)
	admin := strings.Join(d.AdminLines(), "\n")
	if admin == "" {
		admin = s.say("drill.admin_none")
	}
	fmt.Fprintln(w, "\n$ "+d.Evidence.AdminCmd+"\n"+admin)
	if d.Evidence.Started {
		fmt.Fprintln(w, "\n"+s.say("drill.here"))
		fmt.Fprintln(w, strings.Join(d.HereLines(), "\n"))
	}
	file := s.env.Path("drill-bootstrap.yaml")
	if err := steps.WriteFileAtomic(file, []byte(d.Bootstrap), 0o644); err != nil {
		fmt.Fprintln(s.io.Err, "ist2-boot: "+err.Error())
		return exitNotPass
	}
	answer, ok = ask(s.say("drill.ask_field", "file", file))
	if !ok {
		return exitNotPass
	}
	fieldVerdict := d.JudgeField(answer)
	fmt.Fprintln(w, s.verdictWord(fieldVerdict.Right))
	say(fieldVerdict.Why)
	// Judged at most maxFixes times: an input that answers for ever (`yes | …`) ends.
	const maxFixes = 20
	fixed := false
	for tries := 0; !fixed && tries < maxFixes; tries++ {
		if _, ok := ask(s.say("drill.ask_fix", "file", file)); !ok {
			break
		}
		data, err := os.ReadFile(file)
		if err != nil {
			say(i18n.M("drill.fix_unreadable"))
			continue
		}
		v := d.JudgeFix(data)
		fmt.Fprintln(w, s.verdictWord(v.Right))
		say(v.Why)
		fixed = v.Right
	}
	right := classVerdict.Right && fieldVerdict.Right
	rec, _ := s.store.Update(func(p *progress.Progress) {
		p.Drills.Count(right)
		p.Drills.Drawn(d.Fault)
	})
	if rec != nil {
		fmt.Fprintln(w, s.say("drill.score", "right", fmt.Sprint(rec.Drills.Right), "done", fmt.Sprint(rec.Drills.Done)))
	}
	if right && fixed {
		return exitOK
	}
	return exitNotPass
}

func (s *session) verdictWord(right bool) string {
	if right {
		return "✓ " + s.say("drill.right")
	}
	return "✗ " + s.say("drill.wrong")
}

package cli

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"ist2-boot/steps/drill"
	"ist2-boot/ui/render"
)

// cmdDrill draws a drill from the learner's bootstrap.yaml: with --json it prints the drill and
// its answer and asks nothing; in a terminal it shows what an operator would see and asks the
// class, then the field (for a refused push, its types), then for the fix (none for a push),
// judging each with the evidence.
func cmdDrill(args []string, sio IO) int {
	var g global
	fs := newFlags("drill", sio, &g)
	seedFlag := fs.Int64("seed", -1, "the drill's seed (the same seed gives the same drill)")
	asJSON := fs.Bool("json", false, "print the drill with its answer, ask nothing")
	s, _, code := g.parseAndOpen(fs, args, sio, exactly(0))
	if s == nil {
		return code
	}
	if s.seedRefused(fs, *seedFlag, sio) {
		return exitUsage
	}
	var avoid []string
	if *seedFlag < 0 {
		if p, err := s.store.Load(); err == nil {
			avoid = p.Drills.Avoid() // not the faults of the last few drills
		}
	}
	// TERM, INT, HUP and QUIT while it draws stop the Envoy a drill may start (and its temp dir);
	// once drawn, the signals are the shell's again.
	ctx, signalled, stop := signalContext()
	d, err := drill.Draw(ctx, s.lesson, s.env, *seedFlag, avoid)
	stop()
	if n := signalled(); n != 0 {
		return n
	}
	if errors.Is(err, drill.ErrNoBase) {
		fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("drill.no_base", "file", s.env.Path("bootstrap.yaml")))
		return exitNotPass
	}
	if err != nil {
		return g.fail(sio, err)
	}
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

// maxAsks bounds how often a question is asked again, and a fix judged.
const maxAsks = 20

// askDrill is the interactive drill: the pod and the logs, then the round's three questions
// (steps/drill holds the flow, shared with the tutorial's drill page).
func (s *session) askDrill(d *drill.Drill) int {
	w, in := s.io.Out, bufio.NewReader(s.io.In)
	typedHere := inputIsTerminal(s.io.In) // a terminal echoes the answer and its Enter; a pipe does not
	quit := false
	ask := func(prompt string) (string, bool) {
		fmt.Fprint(w, s.wrapLine("", prompt)+" ")
		line, ok := readAnswer(in)
		if !typedHere || !ok { // end the prompt's line: a piped answer, end of input
			fmt.Fprintln(w, line)
		}
		quit = ok && line == "q"
		return line, ok && !quit
	}
	// The input ended, never answered, or the learner typed q: said, not a silent exit code 1
	// (ko r22 L17, ja r25 L9).
	stopped := func() int {
		if quit { // said too, as the end of the input is (ja r25 L9)
			fmt.Fprintln(w, s.sayLine("", "drill.quit"))
		} else {
			fmt.Fprintln(w, s.sayLine("", "drill.no_answer"))
		}
		return exitNotPass
	}
	judged := func(v drill.Verdict) {
		word := render.VerdictWord(v, s.lang)
		marker := word[:strings.Index(word, " ")+1] // "✓ ", "✗ ": the rest hangs under the words
		fmt.Fprintln(w, s.wrapLine(marker, word[len(marker):]))
		fmt.Fprintln(w, s.drillProse(v.Why.In(s.lang)))
	}
	fmt.Fprintln(w, s.drillProse(s.say("drill.intro", "seed", fmt.Sprint(d.Seed))))
	if first, rest, empty := render.SeenSplit(d); empty { // no Last State: said in words under its command (zh r20 L23)
		fmt.Fprintln(w, "\n"+first+s.drillProse(s.say("drill.state_none"))+"\n\n"+rest)
	} else {
		fmt.Fprintln(w, "\n"+first)
	}
	round := drill.NewRound(d)
	// A choice's number (1, 2, 3), asked again otherwise: another answer was taken for 1 and could
	// be judged right (zh round 2, H2). An input that never names one (`yes | …`) ends the drill.
	answer, ok := ask(s.say("drill.ask_class"))
	choice := classChoice(answer)
	for tries := 0; ok && choice < 0; tries++ {
		if tries == maxAsks {
			ok = false
			break
		}
		answer, ok = ask(s.say("drill.ask_again"))
		choice = classChoice(answer)
	}
	if !ok {
		return stopped()
	}
	round.AnswerClass(drill.ClassChoices[choice].Class)
	judged(round.Class)
	if admin := d.AdminLines(); admin != nil {
		fmt.Fprintln(w, "\n$ "+d.Evidence.AdminCmd+"\n"+strings.Join(admin, "\n"))
	} else { // no answer: our note of why is prose, set as the explanations are (ja r20 M3)
		fmt.Fprintln(w, "\n$ "+d.Evidence.AdminCmd+"\n"+s.drillProse(s.say("drill.admin_none")))
	}
	if d.Evidence.Started {
		fmt.Fprintln(w, "\n"+s.drillProse(s.say("drill.here")))
		fmt.Fprintln(w, strings.Join(d.HereLines(), "\n"))
	}
	file := s.env.Path(drill.File)
	prompt := s.say("drill.ask_pushed") // a push was refused: its types are asked, no file to fix
	if d.Class != drill.ConfigRejected {
		if err := d.WriteFile(s.env); err != nil {
			fmt.Fprintln(s.io.Err, "ist2-boot: "+err.Error())
			return exitNotPass
		}
		prompt = s.say("drill.ask_field", "file", file)
	}
	// An Enter alone names no field: the question again, saying why (ja r15, ko r22 L17).
	again := s.say("drill.ask_field_again")
	if d.Class == drill.ConfigRejected {
		again = s.say("drill.ask_pushed_again")
	}
	// A refused push's question is asked again until the answer names a type: "xyz" is not a
	// wrong answer but none (ko r8 KO-08), as the class question does.
	judgedField := func(answer string) bool {
		if d.Class == drill.ConfigRejected && !d.NamesPushed(answer) {
			return false
		}
		return round.AnswerField(answer)
	}
	answer, ok = ask(prompt)
	for tries := 0; ok && !judgedField(answer); tries++ {
		if tries == maxAsks {
			ok = false
			break
		}
		answer, ok = ask(again)
	}
	if !ok {
		return stopped()
	}
	judged(round.Field)
	// Judged at most maxAsks times: an input that answers for ever (`yes | …`) ends.
	for tries := 0; !round.Complete() && tries < maxAsks; tries++ {
		if _, ok := ask(s.say("drill.ask_fix", "file", file)); !ok {
			break
		}
		round.JudgeFix(s.env)
		judged(*round.Fix)
	}
	if rec, _ := s.store.Update(round.Record()); rec != nil {
		fmt.Fprintln(w, s.sayLine("", "drill.score", "right", fmt.Sprint(rec.Drills.Right), "done", fmt.Sprint(rec.Drills.Done)))
	}
	if round.Right() && round.Complete() {
		return exitOK
	}
	return exitNotPass
}

// classChoice is the index in drill.ClassChoices of the answer's number, -1 for anything else.
func classChoice(answer string) int {
	for i := range drill.ClassChoices {
		if answer == fmt.Sprint(i+1) {
			return i
		}
	}
	return -1
}

// drillProse sets a drill's words as show sets a page's prose: they are markdown (the tutorial's
// drill page renders the same strings), so code spans are marked as the terminal's style marks
// them — no backticks — and are never broken inside, in glamour's two-cell margin.
func (s *session) drillProse(md string) string {
	width := max(columns(s.io.Getenv), 20)
	out, err := TerminalRenderer(s.io.Getenv)(md, width)
	if err != nil { // never for these strings; the words unset rather than none
		return printable(md)
	}
	return strings.Trim(out, "\n")
}

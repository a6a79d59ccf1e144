package cli

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"ist2-boot/steps"
	"ist2-boot/steps/progress"
)

// cmdNewLab writes a fresh lab in sandbox mode: another workload, namespace, log levels, mesh
// ID, trust domain, root namespace, and sometimes an external CA. The produced files go to a
// backup first, and progress starts a new round, the old one kept. Lab mode's fixtures are the
// lab's: never touched.
func cmdNewLab(args []string, sio IO) int {
	var g global
	fs := newFlags("new-lab", sio, &g)
	seedFlag := fs.Int64("seed", -1, "usage.new-lab.seed")
	yes := fs.Bool("yes", false, "usage.new-lab.yes")
	s, _, code := g.parseAndOpen(fs, args, sio, exactly(0))
	if s == nil {
		return code
	}
	if s.seedRefused(fs, *seedFlag, sio) {
		return exitUsage
	}
	if !progress.OwnsFixtures(s.env) {
		fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("newlab.lab_mode", "dir", s.env.Fixtures))
		return exitNotPass
	}
	if s.tutorialOpen() { // the open tutorial reads these fixtures and files: N there does it
		fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("cli.tutorial_open_newlab"))
		return exitNotPass
	}
	seed := uint64(*seedFlag)
	if *seedFlag < 0 {
		seed = rand.Uint64() % 1000000
	}
	if !*yes {
		// What lab it would make, before the question (newcomer L19).
		preview := steps.DrawLab(seed).Done(s.env.Fixtures)
		preview.Key = "newlab.preview" // said as what it would make, not as made (zh M14, ko KM-11)
		fmt.Fprintln(sio.Out, s.wrapLine("", preview.In(s.lang)))
		if !s.askYes(s.sayLine("", "newlab.confirm", "dir", s.env.WorkDir)) {
			fmt.Fprintln(sio.Out, s.say("reset.aborted"))
			return exitOK
		}
	}
	v, res, err := progress.NewLab(s.lesson, s.env, s.store, seed, time.Now())
	if err != nil {
		return g.fail(sio, err)
	}
	if len(res.Moved) > 0 {
		fmt.Fprintln(sio.Out, s.sayLine("", "reset.moved", "count", fmt.Sprint(len(res.Moved)), "dir", res.BackupDir))
	}
	if *yes { // asked, it was said before the question: now that it is made
		fmt.Fprintln(sio.Out, s.wrapLine("", v.Done(s.env.Fixtures).In(s.lang)))
	} else {
		fmt.Fprintln(sio.Out, s.sayLine("", "newlab.made", "seed", strconv.FormatUint(seed, 10)))
	}
	return exitOK
}

package cli

import (
	"encoding/json"
	"fmt"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/progress"
	"ist2-boot/ui/render"
)

// cmdReport writes the review of the round — per section the state, attempts, hints, time to
// pass and whether it passed first time, those needing another look first, and the drills — as
// Markdown in the learner's language or as JSON, to standard output or a file.
func cmdReport(args []string, sio IO) int {
	var g global
	fs := newFlags("report", sio, &g)
	format := fs.String("format", "md", "md or json")
	out := fs.String("o", "", "write to FILE (written through, as > would) instead of standard output")
	s, _, code := g.parseAndOpen(fs, args, sio, exactly(0))
	if s == nil {
		return code
	}
	if *format != "md" && *format != "json" {
		fmt.Fprintln(sio.Err, "ist2-boot: --format md|json")
		return exitUsage
	}
	results, err := check.Check(s.lesson, s.env, nil)
	if err != nil {
		return g.fail(sio, err)
	}
	states := map[string]check.Status{}
	for _, r := range results {
		states[r.ID] = r.Status
	}
	p, err := s.store.Load()
	if err != nil {
		return g.fail(sio, err)
	}
	review := progress.MakeReview(s.lesson.SectionIDs(), states, p)
	var text string
	if *format == "json" {
		raw, _ := json.MarshalIndent(review, "", "  ")
		text = string(raw) + "\n"
	} else {
		text = render.ReviewMarkdown(review, s.lesson, s.lang)
	}
	if *out == "" {
		fmt.Fprint(sio.Out, text)
		return exitOK
	}
	// The learner's path: written through (a device, a FIFO, a link's target) or refused, never
	// replaced by a file of another kind; a full disk or /dev/full is an error.
	if err := steps.WriteOutput(*out, []byte(text), sio.Out); err != nil {
		fmt.Fprintln(sio.Err, "ist2-boot: "+err.Error())
		return exitNotPass
	}
	return exitOK
}

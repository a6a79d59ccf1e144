package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/ui/render"
)

// cmdReport writes the review of the round — per section the state, attempts, hints, time to
// pass and whether it passed first time, those needing another look first, and the drills — as
// Markdown in the learner's language or as JSON, to standard output or a file.
func cmdReport(args []string, sio IO) int {
	var g global
	fs := newFlags("report", sio, &g)
	format := fs.String("format", "md", "usage.report.format")
	out := fs.String("o", "", "usage.report.o")
	s, _, code := g.parseAndOpen(fs, args, sio, exactly(0))
	if s == nil {
		return code
	}
	if *format != "md" && *format != "json" {
		fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("cli.flag_bad_one_of", "flag", "--format", "value", *format, "values", i18n.ListOf(s.lang, []string{"md", "json"})))
		return exitUsage
	}
	results, err := check.Check(s.lesson, s.env, nil)
	if err != nil {
		return g.fail(sio, err)
	}
	states := map[string]check.SectionResult{}
	for _, r := range results {
		states[r.ID] = r
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
		fmt.Fprintln(sio.Err, "ist2-boot: "+s.writeError(*out, err))
		return exitNotPass
	}
	return exitOK
}

// writeError says why path could not be written, in the learner's language where the cause is
// a common one; the system's own words otherwise.
func (s *session) writeError(path string, err error) string {
	if fi, serr := os.Stat(path); serr == nil && fi.IsDir() {
		return s.say("cli.write_is_dir", "file", path)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return s.say("cli.write_no_dir", "file", path, "dir", filepath.Dir(path))
	case errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS):
		return s.say("cli.write_denied", "file", path)
	case errors.Is(err, syscall.ENOSPC):
		return s.say("cli.write_full", "file", path)
	case errors.Is(err, steps.ErrNoReader):
		return s.say("cli.write_no_reader", "file", path, "seconds", strconv.Itoa(int(steps.FIFOWait().Seconds())))
	case errors.Is(err, steps.ErrChangedWhileOpened), errors.Is(err, steps.ErrNotRegular):
		return s.say("cli.write_changed", "file", path)
	}
	return s.say("cli.write_failed", "file", path, "error", err.Error())
}

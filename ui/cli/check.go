package cli

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/ui/render"

	xansi "github.com/charmbracelet/x/ansi"
)

// checkJSON is the shape of `check --json`, which scripts rely on (README, "Commands").
type checkJSON struct {
	Sections []sectionJSON `json:"sections"`
}

type sectionJSON struct {
	ID     string     `json:"id"`
	Status string     `json:"status"`
	Files  []fileJSON `json:"files"`
}

type fileJSON struct {
	File   string `json:"file"`
	Status string `json:"status"`
	Reason string `json:"reason"`
	Diff   string `json:"diff"`
	Note   string `json:"note,omitempty"`
}

func cmdCheck(args []string, sio IO) int {
	// What a check needs set up first — the messages, Envoy's API types — is set up on the other
	// core while the files are read.
	go i18n.Prepare()
	go bootcheck.Prepare()
	var g global
	fs := newFlags("check", sio, &g)
	asJSON := fs.Bool("json", false, "usage.check.json")
	s, ids, code := g.parseAndOpen(fs, args, sio, anyCount)
	if s == nil {
		return code
	}
	if code := s.checkSections(ids, false, "cli.all_check"); code != exitOK {
		return code
	}
	results, err := check.Check(s.lesson, s.env, ids)
	if err != nil {
		return g.fail(sio, err)
	}
	if _, err := s.store.Update(progress.RecordCheck(results, time.Now())); err != nil {
		fmt.Fprintln(sio.Err, s.progressError(err))
	}
	s.warnStore()
	if *asJSON {
		s.printCheckJSON(results)
	} else {
		s.printCheck(results)
	}
	for _, r := range results {
		if r.Status != check.Pass {
			return exitNotPass
		}
	}
	return exitOK
}

func (s *session) progressError(err error) string {
	if le, ok := err.(*progress.LockedError); ok {
		return render.Unmarked(le.Msg().In(s.lang))
	}
	return s.say("progress.save_failed", "error", err.Error())
}

func (s *session) printCheckJSON(results []check.SectionResult) {
	out := checkJSON{Sections: []sectionJSON{}}
	for _, r := range results {
		sj := sectionJSON{ID: r.ID, Status: string(r.Status), Files: []fileJSON{}}
		for _, f := range r.Files {
			sj.Files = append(sj.Files, fileJSON{File: f.File, Status: string(f.Status), Reason: render.Unmarked(f.Reason.In(s.lang)), Diff: f.DiffIn(s.lang), Note: render.Unmarked(f.Note.In(s.lang))})
		}
		out.Sections = append(out.Sections, sj)
	}
	printJSON(s.io.Out, out)
}

// sectionHead names a section by its number and id, or a practice page (not numbered) by its id.
func (s *session) sectionHead(id string) string {
	if s.lesson.IsPractice(id) {
		return s.say("check.practice_head", "id", id)
	}
	return s.say("check.section_head", "n", strconv.Itoa(s.lesson.Number(id)), "id", id)
}

func (s *session) printCheck(results []check.SectionResult) {
	w := s.io.Out
	// Reasons and notes are set to the terminal's width, six cells in, as the tutorial sets them.
	say := func(text string) {
		for _, l := range render.WrapLines(printable(text), max(columns(s.io.Getenv)-6, 20), 0) {
			fmt.Fprintf(w, "      %s\n", l)
		}
	}
	// The file column as wide as the longest name (practice-rejected.txt is longer than the
	// sections' names: ko r7 L12).
	col := 16
	for _, r := range results {
		for _, f := range r.Files {
			col = max(col, len(f.File)+1) // two spaces at least before the state word (ja r8 L21)
		}
	}
	// The state words in one column too: the heads padded to the widest, in cells (zh r20 L22).
	headW := 0
	for _, r := range results {
		headW = max(headW, xansi.StringWidth(s.sectionHead(r.ID)))
	}
	for _, r := range results {
		sec, _ := s.lesson.Section(r.ID)
		// The section by its number, as the pages call it, and its id, as the commands do (ja U20).
		head := s.sectionHead(r.ID)
		head += strings.Repeat(" ", headW-xansi.StringWidth(head))
		// The title set to the terminal's width, its later lines under its start (ko r24 M1).
		// Where the head takes more than half the line, the title starts a line of its own.
		lead := render.Glyphs[r.Status] + " " + head + "  " + s.say(r.StepKey()) + " · "
		leadW := xansi.StringWidth(lead)
		if leadW > columns(s.io.Getenv)/2 {
			fmt.Fprintln(w, strings.TrimSuffix(lead, " · "))
			lead, leadW = "    ", 4
		}
		for n, l := range render.WrapTitle(sec.Title[s.lang], max(columns(s.io.Getenv)-leadW, 20)) {
			if n > 0 {
				lead = strings.Repeat(" ", leadW)
			}
			fmt.Fprintln(w, lead+l)
		}
		for _, f := range r.Files {
			fmt.Fprintf(w, "    %s %-*s %s\n", render.Glyphs[f.Status], col, f.File, f.Status.Word(s.lang))
			if reason := f.Reason.In(s.lang); reason != "" && f.Status != check.Pass {
				say(reason)
			}
			if note := f.Note.In(s.lang); note != "" {
				say(note)
			}
			if f.Diff != "" {
				for _, l := range strings.Split(strings.TrimRight(f.DiffIn(s.lang), "\n"), "\n") {
					fmt.Fprintf(w, "      %s\n", printable(l))
				}
			}
		}
	}
	// The count is of sections: the practice page is not one, and alone it has no count to give
	// (ja r7 L17, ko L12); its own line above says how it stands.
	passed, sections := 0, 0
	for _, r := range results {
		if s.lesson.IsPractice(r.ID) {
			continue
		}
		sections++
		if r.Status == check.Pass {
			passed++
		}
	}
	if sections > 0 {
		fmt.Fprintln(w, s.say("check.summary", "passed", fmt.Sprint(passed), "total", fmt.Sprint(sections)))
	}
	// How to get each missing tool, once, after the verdicts it would drown (ja M11, ko KO-43).
	var tools []string
	for _, r := range results {
		for _, f := range r.Files {
			if f.Tool != "" && !slices.Contains(tools, f.Tool) {
				if len(tools) == 0 {
					fmt.Fprintln(w)
				}
				tools = append(tools, f.Tool)
				fmt.Fprintln(w, s.say("check.get_tool", "tool", f.Tool))
				say(f.HowToGet.In(s.lang)) // its commands are code spans, never parted (ko r24 M2)
			}
		}
	}
}

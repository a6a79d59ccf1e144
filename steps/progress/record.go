package progress

import (
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"time"

	"ist2-boot/steps/check"
)

// RecordCheck keeps the verdict of a check the learner asked for (c, or `ist2-boot check`) and
// counts it as an attempt — unless none of the section's files was there yet: checking an empty
// section is looking, not trying.
func RecordCheck(results []check.SectionResult, now time.Time) func(*Progress) {
	return record(results, now, true)
}

// RecordQuiet keeps the verdict of a check the learner did not ask for — a file saved from outside
// (watch), a run's end — without counting an attempt: a pass reached that way is saved with its
// time like any other.
func RecordQuiet(results []check.SectionResult, now time.Time) func(*Progress) {
	return record(results, now, false)
}

func record(results []check.SectionResult, now time.Time, asked bool) func(*Progress) {
	return func(p *Progress) {
		seen := map[string]bool{} // `check args args` is one attempt at args
		for _, r := range results {
			if seen[r.ID] {
				continue
			}
			seen[r.ID] = true
			sp := p.Sections[r.ID]
			if sp == nil {
				sp = &SectionProgress{}
				p.Sections[r.ID] = sp
			}
			if sp.FirstCheck.IsZero() {
				sp.FirstCheck = now
			}
			sp.Status, sp.LastCheck = r.Status, now
			if asked && !nothingThere(r) && sp.Attempts < math.MaxInt { // saturates: a wrapped, negative count would read as corrupt
				sp.Attempts++
			}
			if r.Status == check.Fail {
				if fp := failureFingerprint(r); fp != sp.LastFailure && sp.Failures < math.MaxInt {
					sp.Failures, sp.LastFailure = sp.Failures+1, fp
				}
			}
			if r.Status == check.Pass && sp.Passed.IsZero() {
				sp.Passed, sp.FirstTime = now, sp.Failures == 0 // no failure seen before this pass
			}
		}
	}
}

// failureFingerprint names what failed: each failing file with what it said, so a file saved
// twice unchanged (an editor's two writes) is one failure, and each new wrong version another.
func failureFingerprint(r check.SectionResult) string {
	h := fnv.New64a()
	for _, f := range r.Files {
		if f.Status == check.Fail {
			fmt.Fprintf(h, "%s\x00%s\x00", f.File, f.Produced)
		}
	}
	return strconv.FormatUint(h.Sum64(), 16)
}

// nothingThere: every file of the section is still missing (or waits for a tool).
func nothingThere(r check.SectionResult) bool {
	if len(r.Files) == 0 {
		return false
	}
	for _, f := range r.Files {
		if f.Status != check.Missing && f.Status != check.NeedsTool {
			return false
		}
	}
	return true
}

// RecordOpen notes the first time a section's page is opened (for the time it took to pass).
func RecordOpen(id string, now time.Time) func(*Progress) {
	return func(p *Progress) {
		sp := p.Sections[id]
		if sp == nil {
			sp = &SectionProgress{}
			p.Sections[id] = sp
		}
		if sp.Opened.IsZero() {
			sp.Opened = now
		}
	}
}

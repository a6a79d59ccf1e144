package progress

import (
	"slices"
	"time"

	"ist2-boot/steps/check"
)

// ReviewRow is one section as the review shows it.
type ReviewRow struct {
	ID        string       `json:"id"`
	Status    check.Status `json:"status"`
	Attempts  int          `json:"attempts"`
	Hints     int          `json:"hints"`
	Seconds   int          `json:"seconds"` // from first opening to first passing; 0 if not both
	FirstTime bool         `json:"first_time"`
	Partly    bool         `json:"partly,omitempty"` // missing, but some of its files pass
	Recorded  bool         `json:"-"`                // a pass was recorded (checked, or after a run): FirstTime is known
	Again     bool         `json:"-"`                // needs another look: not passing, or passed only with help
}

// Review is the review of a round: the sections, those needing another look first, and the
// drills.
type Review struct {
	Sections []ReviewRow `json:"sections"`
	Drills   struct {
		Done  int `json:"done"`
		Right int `json:"right"`
	} `json:"drills"`
	Earlier []RoundSummary `json:"earlier_rounds,omitempty"` // the rounds before this one, oldest first
}

// StepKey is the catalog key of the row's state word (as check.SectionResult.StepKey).
func (row ReviewRow) StepKey() string {
	if row.Partly {
		return check.PartlyKey
	}
	if row.Status == "" {
		return check.Missing.StepKey()
	}
	return row.Status.StepKey()
}

// RoundSummary is an earlier round in a line: when it ended and how many sections had passed.
type RoundSummary struct {
	Ended  time.Time `json:"ended"`
	Passed int       `json:"passed"`
	Total  int       `json:"total"`
}

// MakeReview builds the review from the sections' current results (their state now) and the
// saved progress (attempts, hints, times, drills). A section needs another look when it does not
// pass, or passed only after failing twice or more (however it was checked) or with hints: those
// come first — the unfinished
// before the passed — in lesson order.
func MakeReview(ids []string, results map[string]check.SectionResult, p *Progress) Review {
	var r Review
	for _, id := range ids {
		row := ReviewRow{ID: id, Status: results[id].Status, Partly: results[id].Partly()}
		if p != nil {
			if sp := p.Sections[id]; sp != nil {
				// "Never failed" holds only while no failure was seen at all this round: a pass
				// first time and four failures after it is not one (ja r17 M5, beside ▸).
				row.Attempts, row.Hints, row.FirstTime = sp.Attempts, sp.HintsUsed, sp.FirstTime && sp.Failures == 0
				row.Recorded = !sp.Passed.IsZero()
				if !sp.Opened.IsZero() && !sp.Passed.IsZero() && sp.Passed.After(sp.Opened) {
					row.Seconds = int(sp.Passed.Sub(sp.Opened).Seconds())
				}
			}
		}
		failures := 0
		if p != nil && p.Sections[id] != nil {
			failures = p.Sections[id].Failures
		}
		row.Again = row.Status != check.Pass || failures >= 2 || row.Hints > 0
		r.Sections = append(r.Sections, row)
	}
	// Unfinished sections first, then those passed only with help, then the rest, each in lesson
	// order: `a` goes to what is not done before what could be done better.
	rank := func(row ReviewRow) int {
		switch {
		case row.Status != check.Pass:
			return 0
		case row.Again:
			return 1
		}
		return 2
	}
	slices.SortStableFunc(r.Sections, func(a, b ReviewRow) int { return rank(a) - rank(b) })
	if p != nil {
		r.Drills.Done, r.Drills.Right = p.Drills.Done, p.Drills.Right
		for _, round := range p.Rounds {
			sum := RoundSummary{Ended: round.Ended, Total: len(ids)}
			for _, id := range ids {
				if sp := round.Sections[id]; sp != nil && !sp.Passed.IsZero() {
					sum.Passed++
				}
			}
			r.Earlier = append(r.Earlier, sum)
		}
	}
	return r
}

package drill

import (
	"strings"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
)

// Stage is how far a learner got through a drill: the class is asked, then the field, then the fix.
type Stage int

const (
	AskClass Stage = iota
	AskField
	AskFix
	Fixed // the fix was judged right (it may be judged again)
	// Done: class and field answered, and nothing to fix — the fault is in what istiod pushed
	// (ConfigRejected), not in the bootstrap the learner could edit.
	Done
)

// Round is one learner's way through one drill, the same on the tutorial's drill page and in
// `ist2-boot drill`: the class (rejected, not ready, or a push rejected), then the field (for a
// push, its types), then the fixed file (none for a push), each answer judged with the evidence.
type Round struct {
	Drill        *Drill
	Stage        Stage
	Class, Field Verdict
	Fix          *Verdict // the last judgement of the fix, nil before one
}

// NewRound starts the learner on d.
func NewRound(d *Drill) *Round { return &Round{Drill: d} }

// AnswerClass judges the class; false when the class is not what is asked now.
func (r *Round) AnswerClass(c Class) bool {
	if r.Stage != AskClass {
		return false
	}
	r.Class, r.Stage = r.Drill.JudgeClass(c), AskField
	return true
}

// AnswerField judges the field named (a path, or one of FieldChoices); false when the field is
// not what is asked now, or nothing is named: an Enter alone is no answer, asked again (ja r15).
func (r *Round) AnswerField(field string) bool {
	if r.Stage != AskField || strings.TrimSpace(field) == "" {
		return false
	}
	r.Field, r.Stage = r.Drill.JudgeField(field), AskFix
	if r.Drill.Class == ConfigRejected {
		r.Stage = Done
	}
	return true
}

// Complete: nothing more is asked — the fix was judged right, or there is none to make.
func (r *Round) Complete() bool { return r.Stage == Fixed || r.Stage == Done }

// Answered: the class and the field are judged, so the drill counts in the record.
func (r *Round) Answered() bool { return r.Stage >= AskFix }

// Right: both the class and the field were right.
func (r *Round) Right() bool { return r.Class.Right && r.Field.Right }

// JudgeFix judges File as the learner left it in the work dir; false when the fix is not asked yet.
func (r *Round) JudgeFix(env *steps.Env) bool {
	if r.Stage < AskFix || r.Stage == Done {
		return false
	}
	v := Verdict{Fix: true, Why: i18n.M("drill.fix_unreadable")}
	if data, err := steps.ReadRegularFile(env.Path(File), check.MaxLearnerFile); err == nil {
		v = r.Drill.JudgeFix(data)
	}
	r.Fix = &v
	if v.Right {
		r.Stage = Fixed
	}
	return true
}

// Record is what the round adds to the drill record once answered: one more drill (right or
// not), and its fault among those not to draw again soon.
func (r *Round) Record() func(*progress.Progress) {
	right, fault := r.Right(), r.Drill.Fault
	return func(p *progress.Progress) {
		p.Drills.Count(right)
		p.Drills.Drawn(fault)
	}
}

package ui

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/drill"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/steps/run"
)

// drillPage is the page after the finish page: diagnosis drills.
const drillPage = "drill"

// drillFile is where a drill's broken bootstrap is written for the learner to fix.
const drillFile = "drill-bootstrap.yaml"

// drillState is the drill on the page: the drill, how far the learner got, and the verdicts.
type drillState struct {
	d       *drill.Drill
	problem i18n.Msg // why there is no drill (no bootstrap that passes yet)
	stage   int      // 0 the class asked, 1 the field asked, 2 the fix asked, 3 done
	class   drill.Verdict
	field   drill.Verdict
	fix     *drill.Verdict
	drawing bool
}

type drillDrawnMsg struct {
	d       *drill.Drill
	problem i18n.Msg
}

// drillNewCmd draws a drill from the learner's bootstrap.yaml (another fault than avoid) and
// writes its broken bootstrap into the work dir; Envoy's own check decides where it is installed.
func drillNewCmd(eng *Engine, avoid []string) tea.Cmd {
	return func() tea.Msg {
		base, from, err := run.DrillBase(context.Background(), eng.Lesson, eng.Env)
		if err != nil {
			return drillDrawnMsg{problem: i18n.M("drill.no_base", "file", eng.Env.Path("bootstrap.yaml"))}
		}
		envoy := ""
		if t := steps.LocateTools(eng.Env, eng.Lesson.Tools).Get("envoy"); t.Found {
			envoy = t.Path
		}
		d, err := drill.NewAvoiding(base, rand.Uint64()%1000000, avoid, envoy)
		if err != nil {
			return drillDrawnMsg{problem: i18n.M("drill.no_base", "file", eng.Env.Path("bootstrap.yaml"))}
		}
		d.Base = from
		if err := steps.WriteFileAtomic(eng.Env.Path(drillFile), []byte(d.Bootstrap), 0o644); err != nil {
			return drillDrawnMsg{problem: i18n.M("ui.error", "error", err.Error())}
		}
		return drillDrawnMsg{d: d}
	}
}

type drillFixedMsg struct{ v drill.Verdict }

// drillFixCmd judges the learner's fix of the drill's file.
func drillFixCmd(eng *Engine, d *drill.Drill) tea.Cmd {
	return func() tea.Msg {
		data, err := steps.ReadRegularFile(eng.Env.Path(drillFile), check.MaxLearnerFile)
		if err != nil {
			return drillFixedMsg{v: drill.Verdict{Why: i18n.M("drill.fix_unreadable")}}
		}
		return drillFixedMsg{v: d.JudgeFix(data)}
	}
}

// drillKey: the drill page's own bindings — 1/2 the class, 1–4 the field, c judges the fix, r
// draws the next drill; the page's other keys (n/p, l, ?, q…) go on to the global bindings.
func (m Model) drillKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd, bool) {
	k, st := m.keys, m.drill
	if st == nil || st.d == nil || st.drawing {
		if key.Matches(msg, k.DrillNext) && (st == nil || !st.drawing) {
			return m.newDrill()
		}
		return m, nil, key.Matches(msg, k.DrillFix, k.DrillNext) // not the section's c and r
	}
	switch {
	case st.stage == 0 && key.Matches(msg, k.DrillClass):
		answer := drill.Rejected
		if msg.Text == "2" {
			answer = drill.NotReady
		}
		st.class, st.stage = st.d.JudgeClass(answer), 1
	case st.stage == 1 && key.Matches(msg, k.DrillField):
		choices := st.d.FieldChoices()
		if i := int(msg.Text[0] - '1'); i < len(choices) {
			st.field, st.stage = st.d.JudgeField(choices[i]), 2
			right, fault := st.class.Right && st.field.Right, st.d.Fault
			return m, tea.Batch(m.ensureProse(), saveCmd(m.eng, func(p *progress.Progress) {
				p.Drills.Count(right)
				p.Drills.Drawn(fault)
			})), true
		}
	case st.stage >= 2 && key.Matches(msg, k.DrillFix):
		return m, drillFixCmd(m.eng, st.d), true
	case key.Matches(msg, k.DrillNext):
		nm, cmd, _ := m.newDrill()
		return nm, cmd, true
	case key.Matches(msg, k.DrillClass, k.DrillField, k.DrillFix):
		return m, nil, true // an answer the stage does not ask for: nothing, not the section's c
	default:
		return m, nil, false
	}
	return m, m.ensureProse(), true
}

func (m Model) newDrill() (tea.Model, tea.Cmd, bool) {
	var avoid []string
	if m.progress != nil {
		avoid = m.progress.Drills.Avoid()
	}
	if m.drill != nil && m.drill.d != nil { // the one on the page, answered or not
		avoid = append(slices.Clone(avoid), m.drill.d.Fault)
	}
	m.drill = &drillState{drawing: true}
	return m, tea.Batch(drillNewCmd(m.eng, avoid), m.ensureProse()), true
}

// drillMarkdown is the drill page: what the operator sees, the question of the stage, and the
// verdicts so far with their evidence.
func (m Model) drillMarkdown() string {
	t := i18n.Sayer(m.lang)
	var b strings.Builder
	b.WriteString("# " + t("drill.title") + "\n\n")
	st := m.drill
	switch {
	case st == nil || st.drawing:
		b.WriteString(t("drill.drawing") + "\n")
		return b.String()
	case st.d == nil:
		b.WriteString(st.problem.In(m.lang) + "\n")
		return b.String()
	}
	d := st.d
	b.WriteString(t("drill.intro", "seed", fmt.Sprint(d.Seed)) + "\n\n")
	b.WriteString("```\n$ kubectl get pod\n" + d.Evidence.Pod + "\n\n$ " + d.Evidence.LogsCmd + "\n")
	for _, l := range d.Evidence.Logs {
		b.WriteString(l + "\n")
	}
	b.WriteString("```\n\n")
	verdict := func(v drill.Verdict) {
		word := "✗ " + t("drill.wrong")
		if v.Right {
			word = "✓ " + t("drill.right")
		}
		b.WriteString("**" + word + "** " + v.Why.In(m.lang) + "\n\n")
	}
	if st.stage == 0 {
		b.WriteString(t("drill.ask_class_keys") + "\n")
		return b.String()
	}
	verdict(st.class)
	b.WriteString("```\n$ " + d.Evidence.AdminCmd + "\n" + adminAnswer(d, m.lang) + "\n")
	b.WriteString("```\n\n")
	if d.Evidence.Started {
		b.WriteString(t("drill.here") + "\n\n```\n" + strings.Join(d.HereLines(), "\n") + "\n```\n\n")
	}
	if st.stage == 1 {
		b.WriteString(t("drill.ask_field_keys") + "\n\n")
		for i, c := range d.FieldChoices() {
			fmt.Fprintf(&b, "%d. `%s`\n", i+1, c)
		}
		return b.String()
	}
	verdict(st.field)
	b.WriteString(t("drill.ask_fix_keys", "file", m.eng.Env.Path(drillFile)) + "\n\n")
	if st.fix != nil {
		verdict(*st.fix)
	}
	if m.progress != nil {
		b.WriteString(t("drill.score", "right", fmt.Sprint(m.progress.Drills.Right), "done", fmt.Sprint(m.progress.Drills.Done)) + "\n")
	}
	return b.String()
}

// adminAnswer is what the pod's admin port answers, or, when Envoy has exited, a note saying so.
func adminAnswer(d *drill.Drill, lang i18n.Lang) string {
	if lines := d.AdminLines(); lines != nil {
		return strings.Join(lines, "\n")
	}
	return i18n.T(lang, "drill.admin_none", nil)
}

package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps/drill"
	"ist2-boot/steps/i18n"
)

// drillPageID is the page after the finish page: diagnosis drills.
const drillPageID = "drill"

// drillPage is the drill on the page and its keys: the learner's round through it (steps/drill
// holds the flow, shared with `ist2-boot drill`), why there is none, or that one is being drawn.
type drillPage struct {
	round   *drill.Round
	problem i18n.Msg // why there is no drill (no bootstrap that passes yet)
	drawing bool
	drawn   bool // a drill was asked for since the page was first opened (or a new lab)
	keys    drillKeys
}

type drillKeys struct{ Class, Field, Fix, Next binding }

func newDrillPage() drillPage {
	return drillPage{keys: drillKeys{
		Class: newBinding("1 / 2", "help.drill_class", "1/2", "keys.answer", "1", "2"),
		Field: newBinding("1–4", "help.drill_field", "1–4", "keys.answer", "1", "2", "3", "4"),
		Fix:   newBinding("c", "help.drill_fix", "c", "keys.judge_fix", "c"),
		Next:  newBinding("r", "help.drill_next", "r", "keys.next_drill", "r"),
	}}
}

func (k *drillKeys) all() []*binding { return []*binding{&k.Class, &k.Field, &k.Fix, &k.Next} }

// enableKeys turns on the keys the round asks for now, all off when the page is not the one
// being read (open false) or a drill is being drawn.
func (p *drillPage) enableKeys(open bool) {
	k, r := &p.keys, p.round
	on := open && !p.drawing
	enable(false, k.all()...)
	enable(on, &k.Next)
	if !on || r == nil {
		return
	}
	k.Class.SetEnabled(r.Stage == drill.AskClass)
	k.Field.SetEnabled(r.Stage == drill.AskField)
	k.Fix.SetEnabled(r.Stage >= drill.AskFix)
}

type drillDrawnMsg struct {
	d       *drill.Drill
	problem i18n.Msg
}

// drawCmd draws a drill (another fault than avoid) and writes its broken bootstrap into the work
// dir.
func drawCmd(c common, avoid []string) tea.Cmd {
	eng := c.eng
	return func() tea.Msg {
		d, err := drill.Draw(context.Background(), eng.Lesson, eng.Env, -1, avoid)
		if errors.Is(err, drill.ErrNoBase) {
			return drillDrawnMsg{problem: i18n.M("drill.no_base", "file", eng.Env.Path("bootstrap.yaml"))}
		}
		if err == nil {
			err = d.WriteFile(eng.Env)
		}
		if err != nil {
			return drillDrawnMsg{problem: i18n.M("ui.error", "error", err.Error())}
		}
		return drillDrawnMsg{d: d}
	}
}

type drillFixedMsg struct{ round *drill.Round }

// judgeFixCmd judges the learner's fix of the drill's file, on a copy of the round.
func judgeFixCmd(c common, r drill.Round) tea.Cmd {
	env := c.eng.Env
	return func() tea.Msg {
		r.JudgeFix(env)
		return drillFixedMsg{round: &r}
	}
}

// opened asks for a drill the first time the page is opened.
func (p drillPage) opened(c common) (drillPage, tea.Cmd) {
	if p.drawn {
		return p, nil
	}
	return p.draw(c)
}

// draw asks for the next drill: not the fault of the one on the page, nor of the last few.
func (p drillPage) draw(c common) (drillPage, tea.Cmd) {
	avoid := c.drillsToAvoid()
	if p.round != nil {
		avoid = append(append([]string{}, avoid...), p.round.Drill.Fault)
	}
	p.round, p.problem, p.drawing, p.drawn = nil, i18n.Msg{}, true, true
	return p, drawCmd(c, avoid)
}

// forget drops the drill (a new lab): the next opening draws another.
func (p drillPage) forget() drillPage {
	p.round, p.drawing, p.drawn = nil, false, false
	return p
}

// answered is the record the root saves when the round's class and field are judged.
type answered struct{ round *drill.Round }

// update: the drill's messages, and its keys — 1/2 the class, 1–4 the field, c judges the fix, r
// draws the next drill. A round answered returns what to record.
func (p drillPage) update(c common, msg tea.Msg) (drillPage, *answered, tea.Cmd) {
	switch msg := msg.(type) {
	case drillDrawnMsg:
		p.drawing, p.problem = false, msg.problem
		if msg.d != nil {
			p.round = drill.NewRound(msg.d)
		}
	case drillFixedMsg:
		if p.round != nil && p.round.Drill == msg.round.Drill {
			p.round = msg.round
		}
	case tea.KeyPressMsg:
		return p.key(c, msg)
	}
	return p, nil, nil
}

func (p drillPage) key(c common, msg tea.KeyPressMsg) (drillPage, *answered, tea.Cmd) {
	k := p.keys
	switch {
	case matches(msg, k.Next):
		next, cmd := p.draw(c)
		return next, nil, cmd
	case matches(msg, k.Class):
		r := *p.round
		class := drill.Rejected
		if msg.Text == "2" {
			class = drill.NotReady
		}
		r.AnswerClass(class)
		p.round = &r
	case matches(msg, k.Field):
		choices := p.round.Drill.FieldChoices()
		i := int(msg.Text[0] - '1')
		if i >= len(choices) {
			return p, nil, nil
		}
		r := *p.round
		r.AnswerField(choices[i])
		p.round = &r
		return p, &answered{round: p.round}, nil
	case matches(msg, k.Fix):
		return p, nil, judgeFixCmd(c, *p.round)
	}
	return p, nil, nil
}

// markdown is the drill page: what the operator sees, the question of the stage, and the
// verdicts so far with their evidence.
func (p drillPage) markdown(c common) string {
	t := i18n.Sayer(c.lang)
	var b strings.Builder
	b.WriteString("# " + t("drill.title") + "\n\n")
	switch {
	case p.round == nil && p.problem.Key != "":
		b.WriteString(p.problem.In(c.lang) + "\n")
		return b.String()
	case p.round == nil:
		b.WriteString(t("drill.drawing") + "\n")
		return b.String()
	}
	r, d := p.round, p.round.Drill
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
		b.WriteString("**" + word + "** " + v.Why.In(c.lang) + "\n\n")
	}
	if r.Stage == drill.AskClass {
		b.WriteString(t("drill.ask_class_keys") + "\n")
		return b.String()
	}
	verdict(r.Class)
	b.WriteString("```\n$ " + d.Evidence.AdminCmd + "\n" + adminAnswer(d, c.lang) + "\n")
	b.WriteString("```\n\n")
	if d.Evidence.Started {
		b.WriteString(t("drill.here") + "\n\n```\n" + strings.Join(d.HereLines(), "\n") + "\n```\n\n")
	}
	if r.Stage == drill.AskField {
		b.WriteString(t("drill.ask_field_keys") + "\n\n")
		for i, choice := range d.FieldChoices() {
			fmt.Fprintf(&b, "%d. `%s`\n", i+1, choice)
		}
		return b.String()
	}
	verdict(r.Field)
	b.WriteString(t("drill.ask_fix_keys", "file", c.eng.Env.Path(drill.File)) + "\n\n")
	if r.Fix != nil {
		verdict(*r.Fix)
	}
	if c.progress != nil {
		b.WriteString(t("drill.score", "right", fmt.Sprint(c.progress.Drills.Right), "done", fmt.Sprint(c.progress.Drills.Done)) + "\n")
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

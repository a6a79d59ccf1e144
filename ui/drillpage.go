package ui

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps/drill"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/ui/common"
	"ist2-boot/ui/keys"
	"ist2-boot/ui/render"
)

// drillPageID is the page after the finish page: diagnosis drills.
const drillPageID = "drill"

// drillPage is the drill on the page and its keys: the learner's round through it (steps/drill
// holds the flow, shared with `ist2-boot drill`), why there is none, or that one is being drawn.
type drillPage struct {
	round   *drill.Round
	problem i18n.Msg // why there is no drill (no bootstrap that passes yet)
	drawing bool
	// stopDraw cancels the draw under way (quitting): the Envoy it may start for the drill is
	// stopped and its temp dir removed before the tutorial leaves.
	stopDraw context.CancelFunc
	drawn    bool // a drill was asked for since the page was first opened (or a new lab)
	keys     drillKeys
}

type drillKeys struct{ Class, Field, Fix, Next keys.Binding }

func newDrillPage() drillPage {
	return drillPage{keys: drillKeys{
		Class: keys.New("1 / 2", "help.drill_class", "1/2", "keys.answer", "1", "2"),
		Field: keys.New("1–4", "help.drill_field", "1–4", "keys.answer", "1", "2", "3", "4"),
		Fix:   keys.New("c", "help.drill_fix", "c", "keys.judge_fix", "c"),
		Next:  keys.New("r", "help.drill_next", "r", "keys.next_drill", "r"),
	}}
}

func (k *drillKeys) all() []*keys.Binding {
	return []*keys.Binding{&k.Class, &k.Field, &k.Fix, &k.Next}
}

// enableKeys turns on the keys the round asks for now, all off when the page is not the one
// being read (open false) or a drill is being drawn.
func (p *drillPage) enableKeys(open bool) {
	k, r := &p.keys, p.round
	on := open && !p.drawing
	keys.Enable(false, k.all()...)
	keys.Enable(on, &k.Next)
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

// drawCmd draws a drill (another fault than avoid; the drill of seed when seed is not negative) and
// writes its broken bootstrap into the work dir — unless it resumes the drill of an earlier session
// whose file is there, which may hold the learner's fix in progress.
func drawCmd(ctx context.Context, c common.Common, avoid []string, seed int64) tea.Cmd {
	eng := c.Eng
	return func() tea.Msg {
		d, err := drill.Draw(ctx, eng.Lesson, eng.Env, seed, avoid)
		if errors.Is(err, drill.ErrNoBase) {
			return drillDrawnMsg{problem: i18n.M("drill.no_base", "file", eng.Env.Path("bootstrap.yaml"))}
		}
		switch {
		case err == nil && seed < 0:
			err = d.WriteFile(eng.Env)
		case err == nil:
			err = d.WriteFileIfAbsent(eng.Env)
		}
		if err != nil {
			return drillDrawnMsg{problem: i18n.M("ui.error", "error", err.Error())}
		}
		return drillDrawnMsg{d: d}
	}
}

type drillFixedMsg struct{ round *drill.Round }

// judgeFixCmd judges the learner's fix of the drill's file, on a copy of the round.
func judgeFixCmd(c common.Common, r drill.Round) tea.Cmd {
	env := c.Eng.Env
	return func() tea.Msg {
		r.JudgeFix(env)
		return drillFixedMsg{round: &r}
	}
}

// opened asks for a drill the first time the page is opened: the one left unanswered by an
// earlier session, if any.
func (p drillPage) opened(c common.Common) (drillPage, tea.Cmd) {
	if p.drawn {
		return p, nil
	}
	if c.Progress != nil && c.Progress.Drills.Pending != nil {
		if seed := int64(*c.Progress.Drills.Pending); seed >= 0 {
			return p.drawSeed(c, nil, seed)
		}
	}
	return p.draw(c)
}

// draw asks for the next drill: not the fault of the one on the page, nor of the last few.
func (p drillPage) draw(c common.Common) (drillPage, tea.Cmd) {
	avoid := c.DrillsToAvoid()
	if p.round != nil {
		avoid = append(append([]string{}, avoid...), p.round.Drill.Fault)
	}
	return p.drawSeed(c, avoid, -1)
}

func (p drillPage) drawSeed(c common.Common, avoid []string, seed int64) (drillPage, tea.Cmd) {
	p.round, p.problem, p.drawing, p.drawn = nil, i18n.Msg{}, true, true
	ctx, cancel := context.WithCancel(context.Background())
	p.stopDraw = cancel
	return p, drawCmd(ctx, c, avoid, seed)
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
func (p drillPage) update(c common.Common, msg tea.Msg) (drillPage, *answered, tea.Cmd) {
	switch msg := msg.(type) {
	case drillDrawnMsg:
		if p.stopDraw != nil {
			p.stopDraw()
		}
		p.drawing, p.problem, p.stopDraw = false, msg.problem, nil
		if msg.d != nil {
			p.round = drill.NewRound(msg.d)
			seed := msg.d.Seed
			return p, nil, c.Eng.SaveCmd(func(pr *progress.Progress) { pr.Drills.Pending = &seed })
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

func (p drillPage) key(c common.Common, msg tea.KeyPressMsg) (drillPage, *answered, tea.Cmd) {
	k := p.keys
	switch {
	case keys.Matches(msg, k.Next):
		next, cmd := p.draw(c)
		return next, nil, cmd
	case keys.Matches(msg, k.Class):
		r := *p.round
		class := drill.Rejected
		if msg.Text == "2" {
			class = drill.NotReady
		}
		r.AnswerClass(class)
		p.round = &r
	case keys.Matches(msg, k.Field):
		choices := p.round.Drill.FieldChoices()
		i := int(msg.Text[0] - '1')
		if i >= len(choices) {
			return p, nil, nil
		}
		r := *p.round
		r.AnswerField(choices[i])
		p.round = &r
		return p, &answered{round: p.round}, nil
	case keys.Matches(msg, k.Fix):
		return p, nil, judgeFixCmd(c, *p.round)
	}
	return p, nil, nil
}

// markdown is the drill page: why there is no drill, that one is on its way, or the drill as
// the round stands (render.DrillPage).
func (p drillPage) markdown(c common.Common) string {
	switch {
	case p.round == nil && p.problem.Key != "":
		return "# " + c.T("drill.title") + "\n\n" + p.problem.In(c.Lang) + "\n"
	case p.round == nil:
		return "# " + c.T("drill.title") + "\n\n" + c.T("drill.drawing") + "\n"
	}
	var record *progress.DrillRecord
	if c.Progress != nil {
		record = &c.Progress.Drills
	}
	return render.DrillPage(p.round, c.Lang, c.Eng.Env.Path(drill.File), record)
}

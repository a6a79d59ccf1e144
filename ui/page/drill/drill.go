// Package drill is the drill page, after the finish page: a broken sidecar drawn from the
// learner's own bootstrap, its class and the field at fault asked by keys and judged with their
// evidence, the fix made in the file and judged by c. steps/drill holds the flow, shared with
// `ist2-boot drill`; this package is its page.
package drill

import (
	"context"
	"errors"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps"
	drills "ist2-boot/steps/drill"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/ui/common"
	"ist2-boot/ui/keys"
	"ist2-boot/ui/page"
	"ist2-boot/ui/pane/prose"
	"ist2-boot/ui/render"
)

// ID is the drill page's id.
const ID = "drill"

// Page is the drill on the page and its keys: the learner's round through it, why there is none,
// or that one is being drawn.
type Page struct {
	round   *drills.Round
	problem i18n.Msg // why there is no drill (no bootstrap that passes yet)
	drawing bool
	// stopDraw cancels the draw under way (quitting): the Envoy it may start for the drill is
	// stopped and its temp dir removed before the tutorial leaves.
	stopDraw context.CancelFunc
	drawn    bool // a drill was asked for since the page was first opened (or a new lab)
	keys     pageKeys
}

type pageKeys struct{ Class, Field, Fix, Next keys.Binding }

// New is the drill page before its first drill. Its class keys are 1, 2, … one for each class the
// drills offer (steps/drill.ClassChoices).
func New() Page {
	var nums []string
	for i := range drills.ClassChoices {
		nums = append(nums, strconv.Itoa(i+1))
	}
	return Page{keys: pageKeys{
		Class: keys.New(strings.Join(nums, " / "), "help.drill_class", strings.Join(nums, "/"), "keys.answer", nums...).In(keys.Answers),
		Field: keys.New("1 / 2 / 3 / 4", "help.drill_field", "1/2/3/4", "keys.answer", "1", "2", "3", "4").In(keys.Answers),
		Fix:   keys.New("c", "help.drill_fix", "c", "keys.judge_fix", "c").In(keys.Answers),
		Next:  keys.New("r", "help.drill_next", "r", "keys.next_drill", "r").In(keys.Answers),
	}}
}

// Showing is the page with r on it, as if drawn: opening it draws no other.
func (p Page) Showing(r *drills.Round) Page {
	p.round, p.drawn = r, true
	return p
}

// Round is the drill on the page as the learner's answers stand (nil: none yet).
func (p Page) Round() *drills.Round { return p.round }

// Owns implements page.Page.
func (p Page) Owns(id string) bool { return id == ID }

// Place implements page.Page: the drill page comes after every page of the lesson.
func (p Page) Place(ids []string) []string { return append(ids, ID) }

// Title implements page.Page.
func (p Page) Title(c common.Common, id string) string { return c.T("drill.short") }

// Section implements page.Page: the drill page is no section.
func (p Page) Section(common.Common, string) (*steps.Section, bool) { return nil, false }

// Actions implements page.Page: r and c are the drill's own here.
func (p Page) Actions() bool { return false }

// IdleLine implements page.Page: the drill's own keys, not the sections' r and c.
func (p Page) IdleLine(c common.Common, id string) string {
	switch r := p.round; {
	case r != nil && r.Complete():
		return c.T("ui.output_drill_next")
	case r != nil && r.Stage == drills.AskFix:
		return c.T("ui.output_drill_fix", "file", drills.File)
	}
	return c.T("ui.output_drill") // what the round asks now, not a key it does not take yet
}

// Bindings implements page.Page.
func (p Page) Bindings() []keys.Binding {
	k := p.keys
	return []keys.Binding{k.Class, k.Field, k.Fix, k.Next}
}

// EnableKeys implements page.Page: the keys the round asks for now, all off when the page is not
// the one being read or a drill is being drawn.
func (p Page) EnableKeys(at page.At) page.Page {
	k, r := &p.keys, p.round
	on := at.Keys && at.Reading && at.ID == ID && !p.drawing
	keys.Enable(false, &k.Class, &k.Field, &k.Fix, &k.Next)
	keys.Enable(on, &k.Next)
	if !on || r == nil {
		return p
	}
	k.Class.SetEnabled(r.Stage == drills.AskClass)
	k.Field.SetEnabled(r.Stage == drills.AskField)
	// As many answers as the question offers (a refused push: three types, not four fields),
	// written as the class question's are ("1/2/3", not a range whose dash each language writes
	// its own way: zh r20 L8).
	var nums []string
	for i := range r.Drill.FieldChoices() {
		nums = append(nums, strconv.Itoa(i+1))
	}
	k.Field.SetShort(strings.Join(nums, "/"))
	k.Fix.SetEnabled(r.Stage == drills.AskFix) // a fixed drill is over: r draws the next (ko r8 KO-06)
	return p
}

// Busy implements page.Page: a drill being drawn may have started an Envoy.
func (p Page) Busy() bool { return p.drawing }

// Stop implements page.Page.
func (p Page) Stop() {
	if p.stopDraw != nil {
		p.stopDraw()
	}
}

// Reset implements page.Page: the next opening draws another.
func (p Page) Reset() page.Page {
	p.round, p.drawing, p.drawn = nil, false, false
	return p
}

// Opened implements page.Page: a drill is asked for the first time the page is opened — the one
// left unanswered by an earlier session, if any.
func (p Page) Opened(c common.Common, id string) (page.Page, tea.Cmd) {
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
func (p Page) draw(c common.Common) (Page, tea.Cmd) {
	avoid := c.DrillsToAvoid()
	if p.round != nil {
		avoid = append(append([]string{}, avoid...), p.round.Drill.Fault)
	}
	return p.drawSeed(c, avoid, -1)
}

func (p Page) drawSeed(c common.Common, avoid []string, seed int64) (Page, tea.Cmd) {
	p.round, p.problem, p.drawing, p.drawn = nil, i18n.Msg{}, true, true
	ctx, cancel := context.WithCancel(context.Background())
	p.stopDraw = cancel
	return p, drawCmd(ctx, c, avoid, seed)
}

// Update implements page.Page: the drill's messages, and its keys — the class, the field, c
// judges the fix, r draws the next drill. A round answered is saved in the drill record.
func (p Page) Update(c common.Common, id string, msg tea.Msg) (page.Page, tea.Cmd, []page.Effect) {
	switch msg := msg.(type) {
	case drawnMsg:
		if p.stopDraw != nil {
			p.stopDraw()
		}
		p.drawing, p.problem, p.stopDraw = false, msg.problem, nil
		if msg.d != nil {
			p.round = drills.NewRound(msg.d)
			seed := msg.d.Seed
			return p, nil, []page.Effect{page.Save{Change: func(pr *progress.Progress) { pr.Drills.Pending = &seed }}}
		}
	case fixedMsg:
		if p.round != nil && p.round.Drill == msg.round.Drill {
			p.round = msg.round
			return p, nil, []page.Effect{revealVerdict}
		}
	case tea.KeyPressMsg:
		return p.key(c, msg)
	}
	return p, nil, nil
}

func (p Page) key(c common.Common, msg tea.KeyPressMsg) (page.Page, tea.Cmd, []page.Effect) {
	k := p.keys
	switch {
	case keys.Matches(msg, k.Next):
		next, cmd := p.draw(c)
		return next, cmd, nil
	case keys.Matches(msg, k.Class):
		i := int(msg.Text[0] - '1')
		r := *p.round
		r.AnswerClass(drills.ClassChoices[i].Class)
		p.round = &r
		return p, nil, []page.Effect{revealVerdict}
	case keys.Matches(msg, k.Field):
		choices := p.round.Drill.FieldChoices()
		i := int(msg.Text[0] - '1')
		if i >= len(choices) {
			return p, nil, nil
		}
		r := *p.round
		r.AnswerField(choices[i])
		p.round = &r
		return p, nil, []page.Effect{page.Save{Change: r.Record()}, revealVerdict}
	case keys.Matches(msg, k.Fix):
		return p, judgeFixCmd(c, *p.round), nil
	}
	return p, nil, nil
}

// Document implements page.Page: why there is no drill, that one is on its way, or the drill as
// the round stands (render.DrillPage).
func (p Page) Document(c common.Common, id string, key prose.Key) prose.Document {
	return prose.Markdown(key, p.markdown(c))
}

func (p Page) markdown(c common.Common) string {
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
	return render.DrillPage(p.round, c.Lang, c.Eng.Env.Path(drills.File), record)
}

// revealVerdict shows the answer's verdict, added below the question, where the reader is.
var revealVerdict = page.Reveal{Prefixes: render.VerdictMarks}

// drawnMsg is a drill drawn, or why none could be.
type drawnMsg struct {
	d       *drills.Drill
	problem i18n.Msg
}

// fixedMsg is the round with the learner's fix judged.
type fixedMsg struct{ round *drills.Round }

// Page implements page.Msg: both go to the drill page.
func (drawnMsg) Page() string { return ID }
func (fixedMsg) Page() string { return ID }

// drawCmd draws a drill (another fault than avoid; the drill of seed when seed is not negative)
// and writes its broken bootstrap into the work dir — unless it resumes the drill of an earlier
// session whose file is there, which may hold the learner's fix in progress.
func drawCmd(ctx context.Context, c common.Common, avoid []string, seed int64) tea.Cmd {
	eng := c.Eng
	return func() tea.Msg {
		d, err := drills.Draw(ctx, eng.Lesson, eng.Env, seed, avoid)
		if errors.Is(err, drills.ErrNoBase) {
			return drawnMsg{problem: i18n.M("drill.no_base", "file", eng.Env.Path("bootstrap.yaml"))}
		}
		switch {
		case err == nil && seed < 0:
			err = d.WriteFile(eng.Env)
		case err == nil:
			err = d.WriteFileIfAbsent(eng.Env)
		}
		if err != nil {
			return drawnMsg{problem: i18n.M("ui.error", "error", err.Error())}
		}
		return drawnMsg{d: d}
	}
}

// judgeFixCmd judges the learner's fix of the drill's file, on a copy of the round.
func judgeFixCmd(c common.Common, r drills.Round) tea.Cmd {
	env := c.Eng.Env
	return func() tea.Msg {
		r.JudgeFix(env)
		return fixedMsg{round: &r}
	}
}

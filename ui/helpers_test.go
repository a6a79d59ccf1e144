package ui

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"ist2-boot/steps/drill"
	drillpage "ist2-boot/ui/page/drill"

	"ist2-boot/ui/task"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/content"
	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/steps/steptest"
)

// testEngine is a sandbox on temp dirs with the default fixtures and the real tools on PATH.
func testEngine(t testing.TB) *Engine {
	t.Helper()
	env := steptest.Env(t, os.Getenv("PATH"))
	store, err := progress.NewStore(env.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	l, err := steps.LoadLesson(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	terms, err := i18n.LoadGlossary(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	return &Engine{Lesson: l, Env: env, Store: store, Glossary: terms, Lang: i18n.Korean, NoColor: true, Tick: 10 * time.Millisecond, MessageTTL: -1}
}

// engineWithArgsStep is testEngine with section "args" reduced to one step running script.
func engineWithArgsStep(t testing.TB, script string) *Engine {
	t.Helper()
	eng := testEngine(t)
	sec, _ := eng.Lesson.Section("args")
	sec.Steps = []steps.Step{{Run: script}}
	return eng
}

// press sends one key and runs what it asks for.
func press(t testing.TB, m Model, keys ...string) Model {
	t.Helper()
	for _, k := range keys {
		m = drain(t, m, m.sendKey(k))
	}
	return m
}

// namedKeys are the keys sendKey takes by name; any other string is typed as text.
var namedKeys = map[string]tea.KeyPressMsg{
	"tab":    {Code: tea.KeyTab},
	"enter":  {Code: tea.KeyEnter},
	"esc":    {Code: tea.KeyEscape},
	"down":   {Code: tea.KeyDown},
	"up":     {Code: tea.KeyUp},
	"pgdown": {Code: tea.KeyPgDown},
	"ctrl+c": {Code: 'c', Mod: tea.ModCtrl},
}

// sendKey is Update with a key press, spelled as the learner types it.
func (m *Model) sendKey(k string) tea.Cmd {
	msg, named := namedKeys[k]
	if !named {
		msg = tea.KeyPressMsg{Text: k, Code: []rune(k)[0]}
	}
	nm, cmd := m.Update(msg)
	*m = nm.(Model)
	return cmd
}

// drain runs commands the way the program would, feeding their messages back, until none is
// left (or the test's deadline). A task's ticks are dropped once no task runs; tea.Quit stops.
func drain(t testing.TB, m Model, cmd tea.Cmd) Model {
	t.Helper()
	queue := []tea.Cmd{cmd}
	deadline := time.Now().Add(20 * time.Second)
	for len(queue) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("commands did not settle in 20 s")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		switch msg := msg.(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
			continue
		case tea.QuitMsg:
			m.session.quitting = true
			continue
		case task.TickMsg:
			if !m.runner.running() && !m.toolsPage.Installing() {
				continue
			}
		case nil:
			continue
		}
		if seq := sequence(msg); seq != nil { // in order, before what was queued after it
			queue = append(seq, queue...)
			continue
		}
		if isExec(msg) {
			continue
		}
		nm, next := m.Update(msg)
		m = nm.(Model)
		queue = append(queue, next)
	}
	return m
}

// isExec tells a tea.ExecProcess message (which only a real program can carry out).
func isExec(msg tea.Msg) bool {
	return strings.Contains(strings.ToLower(typeName(msg)), "exec")
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }

// sized starts a model at a terminal size, with progress, tools and states loaded.
func sized(t testing.TB, eng *Engine, w, h int) Model {
	t.Helper()
	m := New(eng)
	m = drain(t, m, m.Init())
	nm, cmd := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return drain(t, nm.(Model), cmd)
}

// screenText is the frame with colours stripped.
func screenText(m Model) string { return xansi.Strip(m.View().Content) }

// checkFits fails when a frame has a line wider than the terminal or more lines than it.
func checkFits(t testing.TB, m Model) {
	t.Helper()
	lines := strings.Split(m.View().Content, "\n")
	if len(lines) != m.Height {
		t.Errorf("frame has %d lines, terminal %d", len(lines), m.Height)
	}
	for i, l := range lines {
		if w := xansi.StringWidth(l); w > m.Width {
			t.Errorf("line %d is %d cells wide, terminal %d: %q", i+1, w, m.Width, xansi.Strip(l))
		}
	}
}

// quits: running cmd (and the batches and sequences it returns) ends in tea.Quit.
func quits(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case tea.QuitMsg:
		return true
	case tea.BatchMsg:
		return slices.ContainsFunc(msg, quits)
	default:
		return slices.ContainsFunc(sequence(msg), quits)
	}
}

// sequence is the commands of a tea.Sequence (its message type is not exported).
func sequence(msg tea.Msg) []tea.Cmd {
	v := reflect.ValueOf(msg)
	if !v.IsValid() || v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeOf(tea.Cmd(nil)) {
		return nil
	}
	cmds := make([]tea.Cmd, v.Len())
	for i := range cmds {
		cmds[i] = v.Index(i).Interface().(tea.Cmd)
	}
	return cmds
}

// drillOf is the drill page kind of the tutorial.
func drillOf(m Model) drillpage.Page {
	for _, p := range m.pages {
		if d, ok := p.(drillpage.Page); ok {
			return d
		}
	}
	panic("no drill page")
}

// withDrill is the tutorial with r on the drill page, as if drawn: opening it draws no other.
func withDrill(m Model, r *drill.Round) Model {
	m.setKind(m.kindOf(drillpage.ID), drillOf(m).Showing(r))
	return m
}

// classKey is the key that answers class c on the drill page: its place among the classes offered.
func classKey(c drill.Class) string {
	return strconv.Itoa(slices.IndexFunc(drill.ClassChoices, func(k drill.ClassChoice) bool { return k.Class == c }) + 1)
}

// nextUntil presses n until the page id is on screen: tests name the page, not how many pages
// come before it (the lesson may gain pages, like the practice page).
func nextUntil(t testing.TB, m Model, id string) Model {
	t.Helper()
	for range 40 {
		if m.pageID() == id {
			return m
		}
		m = press(t, m, "n")
	}
	t.Fatalf("never reached %s (on %s)", id, m.pageID())
	return m
}

package ui

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	drillpage "ist2-boot/ui/page/drill"

	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/drill"
	"ist2-boot/steps/steptest"
)

// The drill page after the finish page: a drill from the learner's bootstrap; the class and the
// field answered by keys, each judged with its evidence; the fix made in the file and judged by c;
// r draws the next, another fault. Ten in a row, in each language.
func TestDrillPageTenInARow(t *testing.T) {
	eng, m := onDrillPage(t)
	base := filepath.Join(steptest.AnswersDir(), "bootstrap.yaml")
	var drawn []string
	for i := 0; i < 10; i++ {
		if drillOf(m).Round() == nil {
			t.Fatalf("drill %d: none drawn: %+v", i, drillOf(m))
		}
		d := drillOf(m).Round().Drill
		// Not again within five: the last four faults are avoided (of nine that all apply).
		if recent := drawn[max(0, len(drawn)-4):]; slices.Contains(recent, d.Fault) {
			t.Errorf("drill %d: %s again after %v", i, d.Fault, recent)
		}
		drawn = append(drawn, d.Fault)
		m = press(t, m, classKey(d.Class))
		if !drillOf(m).Round().Class.Right {
			t.Fatalf("drill %d: the right class judged wrong", i)
		}
		pick := slices.Index(d.FieldChoices(), d.Field)
		m = press(t, m, string(rune('1'+pick)))
		if !drillOf(m).Round().Field.Right {
			t.Fatalf("drill %d: the right field judged wrong", i)
		}
		verdicts := 2
		if d.Class == drill.ConfigRejected { // a refused push: nothing in the file to fix, c does nothing
			if !drillOf(m).Round().Complete() {
				t.Fatalf("drill %d (%s): a push drill still asks for a fix", i, d.Fault)
			}
		} else {
			steptest.CopyFile(t, base, eng.Env.Path(drill.File))
			m = press(t, m, "c")
			if drillOf(m).Round().Fix == nil || !drillOf(m).Round().Fix.Right {
				t.Fatalf("drill %d (%s): the fix judged wrong: %+v", i, d.Fault, drillOf(m).Round().Fix)
			}
			verdicts = 3
		}
		if s := xansi.Strip(m.prose.Viewport().GetContent()); strings.Count(s, "✓") < verdicts {
			t.Errorf("drill %d: the page does not show the verdicts:\n%s", i, s)
		}
		m = press(t, m, "l") // the next drill in the next language: ko, zh, ja, ko…
		m = press(t, m, "r")
	}
	if m.Progress == nil || m.Progress.Drills.Done != 10 || m.Progress.Drills.Right != 10 {
		t.Errorf("record: %+v", m.Progress.Drills)
	}
}

// A wrong class is explained with the evidence on the page.
func TestDrillPageExplainsAWrongAnswer(t *testing.T) {
	_, m := onDrillPage(t)
	wrong := "1" // another class than the drill's
	if classKey(drillOf(m).Round().Drill.Class) == wrong {
		wrong = "2"
	}
	m = press(t, m, wrong)
	s := xansi.Strip(m.prose.Viewport().GetContent())
	if drillOf(m).Round().Class.Right || !strings.Contains(s, "✗") || !strings.Contains(s, "근거") {
		t.Errorf("wrong answer:\n%s", s)
	}
}

// Without a bootstrap that passes, and without the tools to build one from the fixtures, the page
// says what to do.
func TestDrillPageWithoutABootstrap(t *testing.T) {
	eng := testEngine(t)
	getenv := eng.Env.Getenv
	eng.Env.Getenv = func(k string) string {
		if k == "PATH" {
			return "/usr/bin:/bin" // no istioctl
		}
		return getenv(k)
	}
	m := sized(t, eng, 120, 40)
	for m.pageID() != drillpage.ID {
		m = press(t, m, "n")
	}
	if s := xansi.Strip(m.prose.Viewport().GetContent()); !strings.Contains(s, "bootstrap.yaml") {
		t.Errorf("%s", s)
	}
}

// onDrillPage is the tutorial on the drill page, over a work dir holding the right answers.
func onDrillPage(t *testing.T) (*Engine, Model) { return onDrillPageAt(t, 120, 40) }

// onDrillPageAt is onDrillPage in a terminal w×h.
func onDrillPageAt(t *testing.T, w, h int) (*Engine, Model) {
	eng := testEngine(t)
	steptest.CopyAnswers(t, eng.Env)
	m := sized(t, eng, w, h)
	for m.pageID() != drillpage.ID {
		m = press(t, m, "n")
	}
	// A drill whose fault is in the bootstrap (the file to fix): the tests of the fix and of the
	// keys need one; a refused push (nothing to fix) is drawn about a quarter of the time.
	for range 40 {
		if r := drillOf(m).Round(); r != nil && r.Drill.Class != drill.ConfigRejected {
			return eng, m
		}
		m = press(t, m, "r")
	}
	t.Fatal("no drill with a bootstrap fault in 40 draws")
	return eng, m
}

// B3: after the field answer the page shows the verdict and the next question, whatever order the
// rendering and the saved record arrive in: what is shown is what the page wants to show.
func TestDrillPageRedrawsAfterTheFieldAnswer(t *testing.T) {
	_, m := onDrillPage(t)
	d := drillOf(m).Round().Drill
	class := classKey(d.Class)
	m = press(t, m, class)
	m = press(t, m, string(rune('1'+slices.Index(d.FieldChoices(), d.Field))))
	if m.prose.Shown() != m.document().Key() {
		t.Errorf("the page shows an older rendering than it wants")
	}
	// The field's own path may be wrapped on the page: look for the next question instead.
	if s := xansi.Strip(m.prose.Viewport().GetContent()); !strings.Contains(s, drill.File) || strings.Count(s, "✓") < 2 {
		t.Errorf("no field verdict on the page:\n%s", s)
	}
	// The output pane says what the round takes now: the fix, not the answers (ko r8 KO-06).
	if out := xansi.Strip(m.out.View()); !strings.Contains(out, m.T("ui.output_drill_fix", "file", drill.File)[:8]) || strings.Contains(out, m.T("ui.output_drill")) {
		t.Errorf("the output pane still asks for the answers:\n%s", out)
	}
}

// Newcomer L19: a drill left unanswered comes back after a restart — the same drill, and the
// learner's half-made fix in its file kept — instead of another being drawn.
func TestAnUnansweredDrillComesBackAfterARestart(t *testing.T) {
	eng, m := onDrillPage(t)
	first := drillOf(m).Round().Drill
	if m.Progress == nil || m.Progress.Drills.Pending == nil || *m.Progress.Drills.Pending != first.Seed {
		t.Fatalf("the drill on the page is not saved as pending: %+v", m.Progress)
	}
	steptest.WriteFile(t, eng.Env.Path(drill.File), "# my fix, half made\n"+first.Bootstrap)
	again := sized(t, eng, 120, 40) // a restart: a new model on the same progress
	for again.pageID() != drillpage.ID {
		again = press(t, again, "n")
	}
	if drillOf(again).Round() == nil || drillOf(again).Round().Drill.Seed != first.Seed || drillOf(again).Round().Drill.Fault != first.Fault {
		t.Fatalf("another drill after the restart: %+v", drillOf(again).Round())
	}
	if got := steptest.ReadFile(t, eng.Env.Path(drill.File)); !strings.HasPrefix(got, "# my fix, half made\n") {
		t.Error("the half-made fix was overwritten")
	}
	class := classKey(first.Class)
	again = press(t, again, class)
	again = press(t, again, string(rune('1'+slices.Index(first.FieldChoices(), first.Field))))
	if again.Progress.Drills.Pending != nil {
		t.Errorf("an answered drill is still pending")
	}
}

// ja r14 M9: each answer's verdict, added below the question, is scrolled into view at 80×24,
// not left past the pane's end.
func TestDrillPageShowsEachVerdict(t *testing.T) {
	_, m := onDrillPageAt(t, 80, 24)
	d := drillOf(m).Round().Drill
	inView := func(what string) {
		t.Helper()
		vp := m.prose.Viewport()
		lines := strings.Split(xansi.Strip(vp.GetContent()), "\n")
		last := -1
		for i, l := range lines {
			if strings.HasPrefix(strings.TrimLeft(l, " *"), "✓") {
				last = i
			}
		}
		if last < vp.YOffset() || last >= vp.YOffset()+vp.Height() {
			t.Errorf("%s: the verdict (line %d) is not in view (lines %d–%d)", what, last, vp.YOffset(), vp.YOffset()+vp.Height()-1)
		}
	}
	m = press(t, m, classKey(d.Class))
	inView("class")
	m = press(t, m, string(rune('1'+slices.Index(d.FieldChoices(), d.Field))))
	inView("field")
	if m = press(t, m, "r"); m.prose.Viewport().YOffset() != 0 {
		t.Errorf("the next drill opens at line %d, not its start", m.prose.Viewport().YOffset())
	}
}

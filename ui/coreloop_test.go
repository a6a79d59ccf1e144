package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ist2-boot/ui/page/tools"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/steps/steptest"
	"ist2-boot/steps/watch"
)

// Watch: a file of the open section written from outside (another terminal) is checked without a
// key, once its writer is done; its state and reason show.
func TestAFileWrittenFromOutsideIsChecked(t *testing.T) {
	eng := testEngine(t)
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n") // section 1: args
	if m.pageID() != "args" {
		t.Fatalf("page %s", m.pageID())
	}
	w, err := watch.New(eng.Env.WorkDir, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	nm, _ := m.Update(watchStartedMsg{w: w})
	m = nm.(Model)
	steptest.WriteFile(t, eng.Env.Path("01-args.txt"), "role=router\n")
	msg := watchNextCmd(w)()
	nm, cmd := m.Update(msg)
	m = nm.(Model)
	// The batch holds the next wait (it never returns while nothing changes) and the check.
	for _, c := range cmd().(tea.BatchMsg) {
		got := make(chan tea.Msg, 1)
		go func() { got <- c() }()
		select {
		case msg := <-got:
			m = drain(t, m, func() tea.Msg { return msg })
		case <-time.After(2 * time.Second):
		}
	}
	if s := xansi.Strip(m.out.Content()); !strings.Contains(s, "✗ 01-args.txt") || !strings.Contains(s, "inject.yaml") {
		t.Errorf("no check after the outside write:\n%s", s)
	}
}

// B1: what a run printed stays. The run's own writes reach the watcher after the run has ended;
// the check they cause updates the files' states below the output, and the output stays.
func TestRunOutputStaysWhenTheWatchChecks(t *testing.T) {
	eng := engineWithArgsStep(t, "echo the-learning-is-here\necho role=proxy > 01-args.txt")
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n", "r", "y")
	if s := xansi.Strip(m.out.Content()); !strings.Contains(s, "the-learning-is-here") {
		t.Fatalf("the run's output is not shown:\n%s", s)
	}
	m = drain(t, m, quietCheckCmd(eng, "args", false)) // what the watcher's event leads to
	s := xansi.Strip(m.out.Content())
	if !strings.Contains(s, "the-learning-is-here") || !strings.Contains(s, "01-args.txt") {
		t.Errorf("after the watch's check the run's output is gone:\n%s", s)
	}
	if strings.Count(s, " 01-args.txt  ") != 1 {
		t.Errorf("the files' states are listed twice:\n%s", s)
	}
}

// B2: a pass the watcher saw is saved, with its time, and is not an attempt.
func TestAWatchedPassIsSaved(t *testing.T) {
	eng := testEngine(t)
	steptest.CopyAnswers(t, eng.Env)
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n", "n") // section 2: env
	m = drain(t, m, quietCheckCmd(eng, "env", false))
	p, err := eng.Store.Load()
	if err != nil {
		t.Fatal(err)
	}
	e := p.Sections["env"]
	if e == nil || e.Status != check.Pass || e.Passed.IsZero() || e.Attempts != 0 {
		t.Errorf("env after a watched pass: %+v", e)
	}
	if m.Progress == nil || m.Progress.Sections["env"] == nil || m.Progress.Sections["env"].Passed.IsZero() {
		t.Error("the model's progress does not show the pass")
	}
}

// B7: a tool that appears while the tutorial is open is found again on r, c and page open — r
// does not say it is missing once it is there, and the other sections' states follow.
func TestToolsAreLocatedAgain(t *testing.T) {
	eng := testEngine(t)
	bin := t.TempDir() // istioctl "installed" after the tutorial started
	steptest.WriteFile(t, filepath.Join(bin, "istioctl"), "#!/bin/sh\necho 1.31\n")
	if err := os.Chmod(filepath.Join(bin, "istioctl"), 0o755); err != nil {
		t.Fatal(err)
	}
	getenv := eng.Env.Getenv
	eng.Env.Getenv = func(k string) string {
		if k == "PATH" {
			return bin + ":/usr/bin:/bin"
		}
		return getenv(k)
	}
	m := sized(t, eng, 100, 30)
	m = drain(t, m, func() tea.Msg { return tools.FoundMsg{Tools: steps.Tools{{Name: "istioctl"}, {Name: "yq"}}} })
	m = press(t, m, "n", "r") // section 1's first step needs istioctl only
	if !m.Tools.Get("istioctl").Found || m.status.question != askRun {
		t.Errorf("r: istioctl found %v, asking to run %v:\n%s", m.Tools.Get("istioctl").Found, m.status.question == askRun, xansi.Strip(m.out.Content()))
	}
}

// Where am I: the status line names the step and how many are done; a pass says so and that n
// comes next.
func TestStatusLineSaysWhereAndAPassSaysNext(t *testing.T) {
	eng := testEngine(t)
	steptest.CopyAnswers(t, eng.Env)
	answer := steptest.ReadFile(t, eng.Env.Path("02-env.txt"))
	if err := os.Remove(eng.Env.Path("02-env.txt")); err != nil {
		t.Fatal(err)
	}
	m := sized(t, eng, 120, 30)
	m = press(t, m, "n", "n") // section 2
	if s := xansi.Strip(m.statusLine()); !strings.Contains(s, "단계 2/8") {
		t.Errorf("status line: %q", s)
	}
	steptest.WriteFile(t, eng.Env.Path("02-env.txt"), answer)
	m = press(t, m, "c")
	if m.Results["env"].Status != check.Pass || m.status.message.Key != "ui.passed_next" {
		t.Errorf("a pass (%s): message %q", m.Results["env"].Status, m.status.message.Key)
	}
	if s := xansi.Strip(m.statusLine()); !strings.Contains(s, "n으로") {
		t.Errorf("status line after a pass: %q", s)
	}
}

// Write before reading the answer: a section's reference commands stay folded until r (or every
// hint used, or a pass); the hints come before them.
func TestReferenceCommandsAreFoldedUntilAsked(t *testing.T) {
	eng := testEngine(t)
	m := sized(t, eng, 100, 40)
	m = press(t, m, "n") // section 1, not passed
	const command = "mv inject.yaml.tmp inject.yaml"
	folded := i18n.T(i18n.Korean, "ui.commands_folded", nil)
	s := xansi.Strip(m.prose.Viewport().GetContent())
	if strings.Contains(s, command) || !strings.Contains(s, folded[:20]) {
		t.Fatalf("the commands show before they are asked for:\n%s", s)
	}
	m = press(t, m, "h")
	s = xansi.Strip(m.prose.Viewport().GetContent())
	hint := strings.Index(s, i18n.T(i18n.Korean, "hints.title", nil))
	if hint < 0 || hint > strings.Index(s, folded[:20]) {
		t.Errorf("the hints do not come before the commands:\n%s", s)
	}
	m = press(t, m, "r")
	if s := xansi.Strip(m.prose.Viewport().GetContent()); !strings.Contains(s, command) {
		t.Errorf("r did not unfold the commands:\n%s", s)
	}
}

// The reading position survives the glossary, the tools page and a restart; a page opens with the
// prose focused, and the key line names the focused pane; an empty output pane is small.
func TestReadingPositionAndFocus(t *testing.T) {
	eng := testEngine(t)
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n", "n", "n", "n", "tab") // section 4, focus moved away
	m = press(t, m, "n", "p")                  // another page and back
	if m.nav.focus != focusProse || !strings.Contains(xansi.Strip(m.keyLine()), "tab "+m.T("keys.focus", "pane", m.T("ui.focus.prose"))) {
		t.Errorf("focus %d, key line %q", m.nav.focus, xansi.Strip(m.keyLine()))
	}
	m = press(t, m, "pgdown", "pgdown")
	at := m.prose.Viewport().YOffset()
	if at == 0 {
		t.Fatal("nothing to scroll")
	}
	for _, keys := range [][]string{{"t", "t"}, {"D", "D"}, {"D", "esc"}} {
		m = press(t, m, keys...)
		if got := m.prose.Viewport().YOffset(); got != at {
			t.Errorf("after %v: offset %d, was %d", keys, got, at)
		}
	}
	m = drain(t, m, func() tea.Msg { nm, cmd := m.leave(); m = nm; return cmd() })
	p, err := eng.Store.Load()
	if err != nil || p.Scroll <= 0 {
		t.Fatalf("the position is not saved on quit: %v %+v", err, p)
	}
	again := sized(t, eng, 100, 30) // a restart: the last page, where it was read
	if again.pageID() != "bootstrap" || again.prose.Viewport().YOffset() == 0 {
		t.Errorf("after a restart: %s at %d", again.pageID(), again.prose.Viewport().YOffset())
	}
	if g := again.geometry(); g.outH > max(again.out.Rows()+2, minOutH) {
		t.Errorf("an output pane of %d lines is %d rows: taller than what it holds", again.out.Rows(), g.outH)
	}
}

// B10: a question too long for the status bar (N's, with the work dir) shows whole in a popup at
// 80 columns; a message is not carried to the next page.
func TestLongQuestionsPopUpAndMessagesStayOnTheirPage(t *testing.T) {
	eng := testEngine(t)
	eng.Env.Fixtures = filepath.Join(eng.Env.DataDir, "fixtures") // a sandbox's own: N may ask
	m := sized(t, eng, 80, 24)
	for m.pageID() != eng.Lesson.Finish.ID {
		m = press(t, m, "n")
	}
	m = press(t, m, "N")
	if m.status.question != askNewLab {
		t.Fatalf("N did not ask (%q)", m.status.message.Key)
	}
	s := strings.Join(strings.Fields(xansi.Strip(m.View().Content)), "")
	want := strings.Join(strings.Fields(m.status.text(m.Common)), "")
	if !strings.Contains(strings.NewReplacer("│", "", "║", "").Replace(s), want) {
		t.Errorf("the question is not shown whole:\n%s", xansi.Strip(m.View().Content))
	}
	m = press(t, m, "n") // no
	m.status.message = i18n.M("ui.no_diff")
	m = press(t, m, "p")
	if m.status.message.Key != "" {
		t.Errorf("a message carried to another page: %s", m.status.message.Key)
	}
}

// A language chosen with l before the progress is read stays when nothing names another: no
// flag, no saved choice, no locale (a race the language test once lost under load).
func TestLanguageChosenBeforeTheProgressStays(t *testing.T) {
	for _, flag := range []i18n.Lang{"", i18n.Korean} { // no flag; --lang ko, applied at the start
		eng := testEngine(t)
		eng.Lang, eng.Locale = flag, ""
		m := sized(t, eng, 100, 30)
		m.Lang = i18n.Chinese // as l would have set it
		next, _ := m.Update(startedMsg{progress: &progress.Progress{}})
		if got := next.(Model).Lang; got != i18n.Chinese {
			t.Errorf("flag %q: language %s after the progress came, want zh", flag, got)
		}
	}
}

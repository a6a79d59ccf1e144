package ui

import (
	"context"
	xansi "github.com/charmbracelet/x/ansi"
	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/progress"
	"ist2-boot/steps/setup"
	"ist2-boot/steps/steptest"
	"ist2-boot/steps/watch"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps/i18n"
	"ist2-boot/steps/run"
	"ist2-boot/ui/render"
)

func TestStartShowsIntroWithStates(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	s := screenText(m)
	st := m.results["args"].Status // missing, or needs-tool where istioctl is not installed
	first := "1. " + render.Glyphs[st] + " " + i18n.T(i18n.Korean, "ui.state."+string(st), nil)
	for _, want := range []string{"시작하기", first, "샌드박스", "한국어", "부트스트랩을 손으로"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	checkFits(t, m)
}

func TestPagesAndList(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	m = press(t, m, "n")
	if m.pageID() != "args" || !strings.Contains(screenText(m), "pilot-agent") {
		t.Fatalf("n: page %s", m.pageID())
	}
	m = press(t, m, "p", "p")
	if m.pageID() != "intro" {
		t.Errorf("p at the intro: %s", m.pageID())
	}
	m = press(t, m, "tab", "tab") // prose → output → list
	if m.focus != focusList {
		t.Fatalf("focus %d", m.focus)
	}
	m = press(t, m, "down", "down", "down", "enter")
	if m.pageID() != "mesh" {
		t.Errorf("enter on the list opened %s", m.pageID())
	}
	p, _ := m.eng.Store.Load()
	if p.LastSection != "mesh" {
		t.Errorf("last section saved: %q", p.LastSection)
	}
}

func TestScrollKeys(t *testing.T) {
	m := sized(t, testEngine(t), 80, 24)
	m = press(t, m, "n", "n", "n", "n") // bootstrap: a long page
	m = press(t, m, "j", "j")
	if m.prose.vp.YOffset() != 2 {
		t.Fatalf("j j: offset %d", m.prose.vp.YOffset())
	}
	m = press(t, m, "pgdown")
	after := m.prose.vp.YOffset()
	m = press(t, m, "k")
	if after <= 2 || m.prose.vp.YOffset() != after-1 {
		t.Errorf("pgdown %d, k %d", after, m.prose.vp.YOffset())
	}
	m = press(t, m, "G")
	if !m.prose.vp.AtBottom() {
		t.Error("G: not at the bottom")
	}
	m = press(t, m, "g")
	if !m.prose.vp.AtTop() {
		t.Error("g: not at the top")
	}
	nm, _ := m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown, X: 50, Y: 3})
	wheeled := nm.(Model)
	if wheeled.prose.vp.YOffset() != 3 {
		t.Errorf("wheel: %d", wheeled.prose.vp.YOffset())
	}
}

// l cycles through the languages (ko → zh → ja → ko) in place: same page, same relative scroll,
// every string changes.
func TestLanguageSwitchKeepsPlace(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	m = press(t, m, "n", "n", "n", "n")
	m = press(t, m, "pgdown")
	frac := float64(m.prose.vp.YOffset()) / float64(m.prose.vp.TotalLineCount()-m.prose.vp.Height())
	sec, _ := m.eng.Lesson.Section("bootstrap")
	st := m.results["bootstrap"].Status
	wants := map[i18n.Lang]string{}
	for _, lang := range i18n.Langs { // titles are cut to the list's width
		wants[lang] = "4. " + render.Glyphs[st] + " " + i18n.T(lang, "ui.state."+string(st), nil) + " · " + string([]rune(sec.Title[lang])[:4])
	}
	for i := range i18n.Langs {
		lang := i18n.Langs[(i+1)%len(i18n.Langs)] // from the first, the next one, round to it again
		m = press(t, m, "l")
		if m.lang != lang || m.pageID() != "bootstrap" {
			t.Fatalf("l: %s on %s", m.lang, m.pageID())
		}
		s := screenText(m)
		if !strings.Contains(s, wants[lang]) || !strings.Contains(s, i18n.T(lang, "ui.lang_name", nil)) {
			t.Errorf("%s screen:\n%s", lang, s)
		}
		got := float64(m.prose.vp.YOffset()) / float64(m.prose.vp.TotalLineCount()-m.prose.vp.Height())
		if got < frac-0.1 || got > frac+0.1 {
			t.Errorf("%s: relative scroll %.2f, was %.2f", lang, got, frac)
		}
	}
	p, _ := m.eng.Store.Load()
	if p.Lang != i18n.Korean {
		t.Errorf("saved language %s", p.Lang)
	}
}

// A cached rendering is shown in the same frame: no command is needed to switch back.
func TestCachedRenderIsImmediate(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	m = press(t, m, "n", "l", "l", "l") // args rendered in all three
	cmd := m.sendKey("l")
	if m.prose.shown != m.wantKey() {
		t.Error("switching to a cached language waited for a render")
	}
	_ = cmd
}

// r shows the commands and asks; y runs them with output streaming in; the pane ends with the
// exit status; c checks.
func TestRunStreamsAndEndsWithStatus(t *testing.T) {
	eng := engineWithArgsStep(t, "echo one\nsleep 0.2\necho two\nexit 3")
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n", "r")
	if m.confirm != confirmRun || !strings.Contains(screenText(m), "echo one") || !strings.Contains(screenText(m), "y 실행") {
		t.Fatalf("r did not ask:\n%s", screenText(m))
	}
	m = press(t, m, "y")
	s := screenText(m)
	if !m.run.ended || !strings.Contains(s, "one") || !strings.Contains(s, "two") || !strings.Contains(s, "종료 코드 3") {
		t.Fatalf("after the run:\n%s", s)
	}
	checkFits(t, m)
}

func TestRunCanBeRefused(t *testing.T) {
	eng := engineWithArgsStep(t, "echo never") // needs no tool: the question is always asked
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n", "r", "n")
	if m.confirm != confirmNone || m.run != nil || m.pageID() != "args" {
		t.Errorf("n after r: confirm %d run %v page %s", m.confirm, m.run, m.pageID())
	}
}

// x (or ctrl+c) cancels the running commands only: the tutorial stays.
func TestCancelASleep(t *testing.T) {
	for _, k := range []string{"x", "ctrl+c"} {
		eng := engineWithArgsStep(t, "echo started\nsleep 30")
		m := sized(t, eng, 100, 30)
		m = press(t, m, "n", "r")
		cmd := m.sendKey("y")
		// Run the start and the first lines, then cancel while sleep runs.
		start := time.Now()
		msg := cmd().(tea.BatchMsg)
		var started runStartedMsg
		for _, c := range msg {
			if sm, ok := c().(runStartedMsg); ok {
				started = sm
				break
			}
		}
		nm, wait := m.Update(started)
		m = nm.(Model)
		nm, wait = m.Update(wait())
		m = nm.(Model)
		m.sendKey(k)
		m = drain(t, m, wait)
		if !m.run.ended || m.quitting || time.Since(start) > 5*time.Second {
			t.Fatalf("%s: ended %v quitting %v after %v", k, m.run.ended, m.quitting, time.Since(start))
		}
		if s := screenText(m); !strings.Contains(s, "취소했습니다") {
			t.Errorf("%s: no word of the cancel:\n%s", k, s)
		}
	}
}

func TestQuitAsksWhileRunningAndStopsOurEnvoy(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	if cmd == nil {
		t.Fatal("q did nothing")
	}
	if !quits(cmd) {
		t.Error("q did not quit")
	}
	m.run = &runState{id: 1}
	m = press(t, m, "q")
	if m.confirm != confirmQuit || m.quitting || !strings.Contains(screenText(m), "나갈까요") {
		t.Fatalf("q while running: %d %v", m.confirm, m.quitting)
	}
	m = press(t, m, "n")
	if m.confirm != confirmNone || m.quitting {
		t.Fatal("n did not keep the tutorial")
	}
	m.run.ended = true
	m.envoyOurs, m.envoyPid = true, 999999
	m.sendKey("q")
	if !m.quitting || !strings.Contains(screenText(m), "999999") {
		t.Errorf("quit with our Envoy did not say it stops it:\n%s", screenText(m))
	}
}

func TestCheckAndDiff(t *testing.T) {
	eng := testEngine(t)
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n", "d")
	if m.overlay == overlayDiff || m.message.Key != "ui.check_first" {
		// args was checked at start (missing files, no diff)
		if m.message.Key != "ui.no_diff" {
			t.Fatalf("d before a check: open %v message %s", m.overlay == overlayDiff, m.message.Key)
		}
	}
	inject, err := os.ReadFile("../steps/testdata/answers/inject.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(eng.Env.Path("inject.yaml"), inject, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(eng.Env.Path("01-args.txt"), []byte("role=router\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m = press(t, m, "c")
	s := screenText(m)
	if !strings.Contains(s, "01-args.txt  실패") || !strings.Contains(s, "inject.yaml") {
		t.Fatalf("c:\n%s", s)
	}
	m = press(t, m, "d")
	if m.overlay != overlayDiff || !strings.Contains(screenText(m), "+++ 01-args.txt (기대값)") {
		t.Fatalf("d:\n%s", screenText(m))
	}
	m = press(t, m, "tab", "esc")
	if m.overlay == overlayDiff {
		t.Error("esc did not close the diff")
	}
	p, _ := eng.Store.Load()
	if p.Sections["args"] == nil || p.Sections["args"].Attempts != 1 { // c counts; the check at start only shows states
		t.Errorf("attempts: %+v", p.Sections["args"])
	}
}

func TestHintsOneAtATime(t *testing.T) {
	eng := testEngine(t)
	m := sized(t, eng, 100, 30)
	m = press(t, m, "h")
	if m.message.Key != "ui.no_hints_here" {
		t.Errorf("h on the intro: %s", m.message.Key)
	}
	m = press(t, m, "n", "h")
	sec, _ := eng.Lesson.Section("args")
	if !strings.Contains(m.prose.vp.GetContent(), "--revision") && !strings.Contains(m.prose.vp.GetContent(), "--injectConfigFile") {
		t.Errorf("first hint not shown")
	}
	for range sec.Hints {
		m = press(t, m, "h")
	}
	if m.message.Key != "ui.no_more_hints" {
		t.Errorf("after all hints: %s", m.message.Key)
	}
	p, _ := eng.Store.Load()
	if p.Sections["args"].HintsUsed != len(sec.Hints) {
		t.Errorf("hints used saved: %d", p.Sections["args"].HintsUsed)
	}
}

func TestHelpGlossaryAndTooSmall(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	m = press(t, m, "?")
	if m.overlay != overlayHelp || !strings.Contains(screenText(m), "힌트 하나 더 보기") {
		t.Fatalf("?:\n%s", screenText(m))
	}
	m = press(t, m, "l") // keys other than close are ignored in help
	m = press(t, m, "?")
	if m.overlay == overlayHelp {
		t.Fatal("? did not close help")
	}
	m = press(t, m, "t")
	if m.view != viewGlossary || !strings.Contains(screenText(m), "용어 풀이") || !strings.Contains(m.prose.vp.GetContent(), "PRE_INITIALIZING") {
		t.Fatalf("t:\n%s", screenText(m))
	}
	m = press(t, m, "t")
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 50, Height: 15})
	m = nm.(Model)
	if s := screenText(m); !strings.Contains(s, "60×20") {
		t.Errorf("too small:\n%s", s)
	}
	checkFits(t, m)
}

func TestNarrowStacksPanes(t *testing.T) {
	m := sized(t, testEngine(t), 60, 20)
	s := screenText(m)
	if m.geometry().wide || !strings.Contains(s, "시작하기") {
		t.Errorf("60x20:\n%s", s)
	}
	checkFits(t, m)
}

func TestShellCommandIsTheLearnersShell(t *testing.T) {
	eng := testEngine(t)
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n")
	if cmd := m.sendKey("s"); cmd == nil {
		t.Fatal("s gave no command")
	}
	c := run.ShellCommand(eng.Env, eng.Lesson, m.tools)
	env := strings.Join(c.Env, "\n")
	if c.Dir != eng.Env.WorkDir || !strings.Contains(env, "LAB_DIR="+eng.Env.WorkDir) || !strings.Contains(env, "FIXTURES=") || !strings.Contains(env, "MESH_CONFIG=") {
		t.Errorf("shell: dir %s env %s", c.Dir, env)
	}
	// Coming back checks the section.
	nm, cmd := m.Update(shellDoneMsg{})
	m = drain(t, nm.(Model), cmd)
	if m.message.Key != "ui.shell_back" || !strings.Contains(screenText(m), "inject.yaml") {
		t.Errorf("after the shell:\n%s", screenText(m))
	}
}

func TestChattyRunKeepsTheLatestLines(t *testing.T) {
	eng := engineWithArgsStep(t, "seq 1 12000")
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n", "r", "y")
	sec, _ := eng.Lesson.Section("args")
	// The latest lines, the end line, and the section's files as the run's end checked them.
	if len(m.out.items) > maxOutputItems+2+len(sec.Files) || !strings.Contains(screenText(m), "종료 코드 0") {
		t.Fatalf("%d items kept:\n%s", len(m.out.items), screenText(m))
	}
	if m.out.items[0].msg.Key != "ui.lines_dropped" {
		t.Errorf("first item %+v", m.out.items[0])
	}
}

// D opens the tools page with every tool's state; i installs the missing ones in the background
// (here with the go test double), the output pane following; the page shows them found after.
func TestDoctorPageInstalls(t *testing.T) {
	eng := testEngine(t)
	fakego, _ := filepath.Abs("../steps/testdata/fakego")
	path := fakego + ":/usr/bin:/bin"
	getenv := eng.Env.Getenv // keeps steptest.NoNetwork for the Envoy download
	eng.Env.Getenv = func(k string) string {
		if k == "PATH" {
			return path
		}
		return getenv(k)
	}
	t.Setenv("FAKE_GO_LOG", filepath.Join(t.TempDir(), "go.log"))
	m := sized(t, eng, 100, 30)
	m = press(t, m, "D")
	c := m.prose.vp.GetContent()
	if m.view != viewTools || !strings.Contains(c, "istioctl") || !strings.Contains(c, "없음") || !strings.Contains(c, "envoy") {
		t.Fatalf("D:\n%s", c)
	}
	m = press(t, m, "i")
	if m.setup == nil || !m.setup.ended || m.message.Key != "ui.setup_done" {
		t.Fatalf("i: %+v", m.setup)
	}
	if s := xansi.Strip(m.out.vp.GetContent()); !strings.Contains(s, "✓ istioctl") || !strings.Contains(s, "✓ yq") {
		t.Errorf("output pane:\n%s", s)
	}
	if !m.tools.Get("istioctl").Found || !regexp.MustCompile(`✓\W+istioctl`).MatchString(m.prose.vp.GetContent()) {
		t.Errorf("tools after install: %+v\n%s", m.tools.Get("istioctl"), m.prose.vp.GetContent())
	}
	m = press(t, m, "D")
	if m.view == viewTools {
		t.Error("D did not close the tools page")
	}
}

// A cancel pressed before the run's start message arrives is not lost (nor a crash): the run is
// cancelled as it starts.
func TestCancelBeforeTheRunHasStarted(t *testing.T) {
	eng := engineWithArgsStep(t, "sleep 30")
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n", "r")
	cmd := m.sendKey("y")
	m.sendKey("x") // the start message has not been delivered yet
	start := time.Now()
	m = drain(t, m, cmd)
	if !m.run.ended || time.Since(start) > 5*time.Second {
		t.Fatalf("ended %v after %v", m.run.ended, time.Since(start))
	}
}

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
	if s := xansi.Strip(m.out.vp.GetContent()); !strings.Contains(s, "✗ 01-args.txt") || !strings.Contains(s, "inject.yaml") {
		t.Errorf("no check after the outside write:\n%s", s)
	}
}

// B1: what a run printed stays. The run's own writes reach the watcher after the run has ended;
// the check they cause updates the files' states below the output, and the output stays.
func TestRunOutputStaysWhenTheWatchChecks(t *testing.T) {
	eng := engineWithArgsStep(t, "echo the-learning-is-here\necho role=proxy > 01-args.txt")
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n", "r", "y")
	if s := xansi.Strip(m.out.vp.GetContent()); !strings.Contains(s, "the-learning-is-here") {
		t.Fatalf("the run's output is not shown:\n%s", s)
	}
	m = drain(t, m, quietCheckCmd(eng, "args", false)) // what the watcher's event leads to
	s := xansi.Strip(m.out.vp.GetContent())
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
	if m.progress == nil || m.progress.Sections["env"] == nil || m.progress.Sections["env"].Passed.IsZero() {
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
	m = drain(t, m, func() tea.Msg { return toolsMsg{tools: steps.Tools{{Name: "istioctl"}, {Name: "yq"}}} })
	m = press(t, m, "n", "r") // section 1's first step needs istioctl only
	if !m.tools.Get("istioctl").Found || m.confirm != confirmRun {
		t.Errorf("r: istioctl found %v, asking to run %v:\n%s", m.tools.Get("istioctl").Found, m.confirm == confirmRun, xansi.Strip(m.out.vp.GetContent()))
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
	if m.results["env"].Status != check.Pass || m.message.Key != "ui.passed_next" {
		t.Errorf("a pass (%s): message %q", m.results["env"].Status, m.message.Key)
	}
	if s := xansi.Strip(m.statusLine()); !strings.Contains(s, "n 으로") {
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
	s := xansi.Strip(m.prose.vp.GetContent())
	if strings.Contains(s, command) || !strings.Contains(s, folded[:20]) {
		t.Fatalf("the commands show before they are asked for:\n%s", s)
	}
	m = press(t, m, "h")
	s = xansi.Strip(m.prose.vp.GetContent())
	hint := strings.Index(s, i18n.T(i18n.Korean, "hints.title", nil))
	if hint < 0 || hint > strings.Index(s, folded[:20]) {
		t.Errorf("the hints do not come before the commands:\n%s", s)
	}
	m = press(t, m, "r")
	if s := xansi.Strip(m.prose.vp.GetContent()); !strings.Contains(s, command) {
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
	if m.focus != focusProse || !strings.Contains(xansi.Strip(m.keyLine()), "▸ 본문") {
		t.Errorf("focus %d, key line %q", m.focus, xansi.Strip(m.keyLine()))
	}
	m = press(t, m, "pgdown", "pgdown")
	at := m.prose.vp.YOffset()
	if at == 0 {
		t.Fatal("nothing to scroll")
	}
	for _, keys := range [][]string{{"t", "t"}, {"D", "D"}, {"D", "esc"}} {
		m = press(t, m, keys...)
		if got := m.prose.vp.YOffset(); got != at {
			t.Errorf("after %v: offset %d, was %d", keys, got, at)
		}
	}
	m = drain(t, m, func() tea.Msg { nm, cmd := m.leave(); m = nm.(Model); return cmd() })
	p, err := eng.Store.Load()
	if err != nil || p.Scroll <= 0 {
		t.Fatalf("the position is not saved on quit: %v %+v", err, p)
	}
	again := sized(t, eng, 100, 30) // a restart: the last page, where it was read
	if again.pageID() != "bootstrap" || again.prose.vp.YOffset() == 0 {
		t.Errorf("after a restart: %s at %d", again.pageID(), again.prose.vp.YOffset())
	}
	if again.out.idle && again.geometry().outH != idleOutH {
		t.Errorf("an empty output pane is %d lines", again.geometry().outH)
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
	if m.confirm != confirmNewLab {
		t.Fatalf("N did not ask (%q)", m.message.Key)
	}
	s := strings.Join(strings.Fields(xansi.Strip(m.View().Content)), "")
	want := strings.Join(strings.Fields(m.statusText()), "")
	if !strings.Contains(strings.NewReplacer("│", "", "║", "").Replace(s), want) {
		t.Errorf("the question is not shown whole:\n%s", xansi.Strip(m.View().Content))
	}
	m = press(t, m, "n") // no
	m.message = i18n.M("ui.no_diff")
	m = press(t, m, "p")
	if m.message.Key != "" {
		t.Errorf("a message carried to another page: %s", m.message.Key)
	}
}

// D20: q while an install runs stops it and quits only once it has ended (its build's process
// group stopped), never leaving it behind.
func TestQuitWaitsForTheInstall(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	cancelled := make(chan struct{})
	j := startJob(func(ctx context.Context, emit func(setup.SetupEvent)) setupResult {
		<-ctx.Done()
		close(cancelled)
		return setupResult{}
	})
	m.setup = &setupState{id: 1, start: time.Now(), job: j}
	nm, cmd := m.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	m = nm.(Model)
	if quits(cmd) {
		t.Fatal("quit while the install runs")
	}
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the install was not stopped")
	}
	nm, cmd = m.Update(setupDoneMsg{id: 1})
	if !quits(cmd) {
		t.Error("did not quit once the install ended")
	}
}

// D16: the renderings kept are bounded, whatever widths a resizing terminal passes through.
func TestRenderingsAreBounded(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	for w := 60; w < 60+3*maxRendered; w++ {
		nm, cmd := m.Update(tea.WindowSizeMsg{Width: w, Height: 30})
		m = drain(t, nm.(Model), cmd)
	}
	if n := len(m.prose.cache); n > maxRendered || len(m.prose.order) != n {
		t.Errorf("%d renderings kept (order %d), bound %d", n, len(m.prose.order), maxRendered)
	}
	if _, ok := m.prose.cache[m.prose.shown]; !ok {
		t.Error("the rendering shown was dropped")
	}
}

// D9: the work dir gone is said, and when it is back the open section is judged again.
func TestTheWatchSaysWhenTheDirGoes(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	m = press(t, m, "n")
	nm, _ := m.Update(watchMsg{names: []string{watch.DirGone}, open: true})
	m = nm.(Model)
	if m.message.Key != "ui.watch_gone" {
		t.Errorf("gone: %q", m.message.Key)
	}
	nm, cmd := m.Update(watchMsg{names: []string{watch.DirBack}, open: true})
	if nm.(Model).message.Key != "ui.watch_back" || cmd == nil {
		t.Errorf("back: %q", nm.(Model).message.Key)
	}
}

// D11: a corrupt progress file a command put aside is said by the tutorial's next start, once.
func TestTheTutorialSaysAPutAsideFile(t *testing.T) {
	eng := testEngine(t)
	os.WriteFile(filepath.Join(eng.Store.Dir, "progress.json"), []byte("{not json"), 0o644)
	if _, err := progress.NewStore(eng.Store.Dir); err != nil {
		t.Fatal(err)
	}
	other, _ := progress.NewStore(eng.Store.Dir) // a command: it moves the file aside
	other.Load()
	m := sized(t, eng, 100, 30) // the tutorial's next start
	if m.message.Key != "progress.corrupt" || !strings.Contains(m.message.Args["file"], "progress.json.corrupt-") {
		t.Errorf("start: %+v", m.message)
	}
	if again := sized(t, eng, 100, 30); again.message.Key == "progress.corrupt" {
		t.Error("said twice")
	}
}

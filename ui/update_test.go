package ui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/run"
	"ist2-boot/steps/steptest"
	"ist2-boot/ui/render"
)

func TestStartShowsIntroWithStates(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	s := screenText(m)
	st := m.results["args"].Status // missing, or needs-tool where istioctl is not installed
	first := "1. " + render.Glyphs[st] + " " + i18n.T(i18n.Korean, "status."+string(st), nil)
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
	if m.nav.focus != focusList {
		t.Fatalf("focus %d", m.nav.focus)
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
	for _, lang := range i18n.Langs { // the list shows the short titles (cut at 100 columns, some)
		wants[lang] = "4. " + render.Glyphs[st] + " " + i18n.T(lang, "status."+string(st), nil) + " · " + string([]rune(sec.Short[lang])[:4])
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
	if m.prose.shown != m.document().key {
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
	if m.status.question != askRun || !strings.Contains(screenText(m), "echo one") || !strings.Contains(screenText(m), "y 실행") {
		t.Fatalf("r did not ask:\n%s", screenText(m))
	}
	m = press(t, m, "y")
	s := screenText(m)
	if !m.runner.task.ended || !strings.Contains(s, "one") || !strings.Contains(s, "two") || !strings.Contains(s, "종료 코드 3") {
		t.Fatalf("after the run:\n%s", s)
	}
	checkFits(t, m)
}

func TestRunCanBeRefused(t *testing.T) {
	eng := engineWithArgsStep(t, "echo never") // needs no tool: the question is always asked
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n", "r", "n")
	if m.status.question != noQuestion || m.runner.task != nil || m.pageID() != "args" {
		t.Errorf("n after r: confirm %d run %v page %s", m.status.question, m.runner.task, m.pageID())
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
		var started taskStartedMsg[run.Line, run.RunResult]
		for _, c := range msg {
			if sm, ok := c().(taskStartedMsg[run.Line, run.RunResult]); ok {
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
		if !m.runner.task.ended || m.session.quitting || time.Since(start) > 5*time.Second {
			t.Fatalf("%s: ended %v quitting %v after %v", k, m.runner.task.ended, m.session.quitting, time.Since(start))
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
	m.runner.task = &runTask{id: 1}
	m = press(t, m, "q")
	if m.status.question != askQuit || m.session.quitting || !strings.Contains(screenText(m), "나갈까요") {
		t.Fatalf("q while running: %d %v", m.status.question, m.session.quitting)
	}
	m = press(t, m, "n")
	if m.status.question != noQuestion || m.session.quitting {
		t.Fatal("n did not keep the tutorial")
	}
	m.runner.task.ended = true
	m.session.envoyPid = 999999
	m.sendKey("q")
	if !m.session.quitting || !strings.Contains(screenText(m), "999999") {
		t.Errorf("quit with our Envoy did not say it stops it:\n%s", screenText(m))
	}
}

func TestCheckAndDiff(t *testing.T) {
	eng := testEngine(t)
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n", "d")
	if m.overlay == overlayDiff || m.status.message.Key != "ui.check_first" {
		// args was checked at start (missing files, no diff)
		if m.status.message.Key != "ui.no_diff" {
			t.Fatalf("d before a check: open %v message %s", m.overlay == overlayDiff, m.status.message.Key)
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
	if m.status.message.Key != "ui.no_hints_here" {
		t.Errorf("h on the intro: %s", m.status.message.Key)
	}
	m = press(t, m, "n", "h")
	sec, _ := eng.Lesson.Section("args")
	if !strings.Contains(m.prose.vp.GetContent(), "--revision") && !strings.Contains(m.prose.vp.GetContent(), "--injectConfigFile") {
		t.Errorf("first hint not shown")
	}
	for range sec.Hints {
		m = press(t, m, "h")
	}
	if m.status.message.Key != "ui.no_more_hints" {
		t.Errorf("after all hints: %s", m.status.message.Key)
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
	if m.nav.view != viewGlossary || !strings.Contains(screenText(m), "용어 풀이") || !strings.Contains(m.prose.vp.GetContent(), "PRE_INITIALIZING") {
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
	if m.status.message.Key != "ui.shell_back" || !strings.Contains(screenText(m), "inject.yaml") {
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
	if m.nav.view != viewTools || !strings.Contains(c, "istioctl") || !strings.Contains(c, "없음") || !strings.Contains(c, "envoy") {
		t.Fatalf("D:\n%s", c)
	}
	m = press(t, m, "i")
	// Envoy cannot be downloaded here: the status says it is still missing, never "done" (L2).
	if m.toolsPage.install == nil || !m.toolsPage.install.ended || m.status.message.Key != "ui.setup_missing" || !strings.Contains(m.status.message.Args["tools"], "envoy") {
		t.Fatalf("i: %+v", m.toolsPage.install)
	}
	if s := xansi.Strip(m.out.vp.GetContent()); !strings.Contains(s, "✓ istioctl") || !strings.Contains(s, "✓ yq") {
		t.Errorf("output pane:\n%s", s)
	}
	if !m.tools.Get("istioctl").Found || !regexp.MustCompile(`✓\W+istioctl`).MatchString(m.prose.vp.GetContent()) {
		t.Errorf("tools after install: %+v\n%s", m.tools.Get("istioctl"), m.prose.vp.GetContent())
	}
	m = press(t, m, "D")
	if m.nav.view == viewTools {
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
	if !m.runner.task.ended || time.Since(start) > 5*time.Second {
		t.Fatalf("ended %v after %v", m.runner.task.ended, time.Since(start))
	}
}

// M4: what a run printed on a page is there again when the learner comes back to it.
func TestARunsOutputStaysWithItsPage(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	m = press(t, m, "n")
	m.out.show(m.pageID(), []outItem{{line: run.Line{Kind: run.Command, Text: "istioctl kube-inject"}}, {line: run.Line{Kind: run.Output, Text: "output-of-the-run"}}})
	m.refreshOutput()
	m = press(t, m, "n", "p")
	if !strings.Contains(screenText(m), "output-of-the-run") {
		t.Errorf("the run's output is gone:\n%s", screenText(m))
	}
}

// M5: a tool installed while the tutorial is open is seen by c: each check looks its tools up.
func TestACheckSeesAToolInstalledMeanwhile(t *testing.T) {
	eng := testEngine(t)
	eng.Env.Getenv = func(k string) string {
		if k == "PATH" {
			return "/nonexistent"
		}
		return os.Getenv(k)
	}
	status := func() check.Status {
		msg := checkCmd(eng, "ready")().(checkedMsg)
		for _, f := range msg.results[0].Files {
			if f.File == "06-ready.txt" {
				return f.Status
			}
		}
		return ""
	}
	if s := status(); s != check.NeedsTool {
		t.Fatalf("without Envoy: %s", s)
	}
	if err := os.MkdirAll(eng.Env.ToolsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"envoy", "curl"} {
		src := filepath.Join(steptest.FakeEnvoyPath(t), "envoy")
		if name == "curl" {
			src = "/usr/bin/curl"
		}
		if err := os.Symlink(src, filepath.Join(eng.Env.ToolsDir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if s := status(); s == check.NeedsTool {
		t.Errorf("with Envoy installed meanwhile: still %s", s)
	}
}

// Newcomer L8: each h opens the page at the hint it revealed — the last one too, though the
// reference commands it unfolds come after it — in every language, at 80×24.
func TestEachHintOpensWhereItIs(t *testing.T) {
	for _, lang := range i18n.Langs {
		eng := testEngine(t)
		m := sized(t, eng, 80, 24)
		for m.lang != lang {
			m = press(t, m, "l")
		}
		m = press(t, m, "n", "n", "n")
		sec, _ := eng.Lesson.Section(m.pageID())
		for n := 1; n <= len(sec.Hints); n++ {
			m = press(t, m, "h")
			line, ok := hintAnchor{i18n.T(lang, "hints.title", nil), n}.find(m.prose.vp.GetContent())
			if top := m.prose.vp.YOffset(); !ok || line < top || line >= top+m.prose.vp.Height() {
				t.Errorf("%s, hint %d at line %d (found %v); the pane shows %d–%d", lang, n, line, ok, top, top+m.prose.vp.Height())
			}
		}
	}
}

// Newcomer L9: a restart opens the page where it was left, however often — not a little higher
// each time (the first rendering, before the states arrive, had the commands folded).
func TestARestartOpensWhereThePageWasLeft(t *testing.T) {
	eng := testEngine(t)
	steptest.CopyAnswers(t, eng.Env)
	m := sized(t, eng, 80, 24)
	for m.pageID() != "bootstrap" {
		m = press(t, m, "n")
	}
	m = press(t, m, "pgdown", "pgdown")
	want := m.prose.vp.YOffset()
	if want == 0 {
		t.Fatal("the page did not scroll")
	}
	for i := range 3 {
		press(t, m, "q")
		m = sized(t, eng, 80, 24)
		if m.pageID() != "bootstrap" || m.prose.vp.YOffset() != want {
			t.Fatalf("restart %d: page %s at line %d, left at %d", i+1, m.pageID(), m.prose.vp.YOffset(), want)
		}
	}
}

// Newcomer L7: at 80×24 the list is one line; moved off the open page, it says that enter opens
// the page it shows, so it is not read as the page open.
func TestTheOneLineListSaysItIsNotTheOpenPage(t *testing.T) {
	m := sized(t, testEngine(t), 80, 24)
	m = press(t, m, "l", "n", "n", "n", "tab") // zh, section 3, the list focused
	for m.nav.focus != focusList {
		m = press(t, m, "tab")
	}
	m = press(t, m, "g")
	if m.nav.cursor == m.nav.page {
		t.Fatal("g did not move the list's cursor")
	}
	if s := screenText(m); !strings.Contains(s, "（按 enter 打开）") {
		t.Errorf("the one-line list does not say so:\n%s", s)
	}
	checkFits(t, m)
}

// Issue 32: the glossary closes with esc, and its key line says so.
func TestTheGlossaryClosesWithEsc(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	m = press(t, m, "t")
	if m.nav.view != viewGlossary {
		t.Fatal("t did not open the glossary")
	}
	if line := xansi.Strip(m.keyLine()); !strings.Contains(line, "esc "+i18n.T(m.lang, "keys.close", nil)) {
		t.Errorf("the key line does not say esc closes: %q", line)
	}
	m = press(t, m, "esc")
	if m.nav.view == viewGlossary {
		t.Error("esc did not close the glossary")
	}
}

// Issue 32 (B5, M23): at 120×40 the page list shows every page's short title whole, in each
// language, whatever its state.
func TestThePageListShowsShortTitlesWhole(t *testing.T) {
	for _, lang := range i18n.Langs {
		m := sized(t, testEngine(t), 120, 40)
		for m.lang != lang {
			m = press(t, m, "l")
		}
		for i := range m.nav.pages {
			line := xansi.Strip(m.nav.listItem(m.common, i, m.geometry().listW-2))
			if strings.Contains(line, "…") {
				t.Errorf("%s: %q is cut", lang, line)
			}
		}
	}
}

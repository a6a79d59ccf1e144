package ui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/run"
	"ist2-boot/steps/steptest"
	"ist2-boot/ui/pane/output"
	"ist2-boot/ui/render"
)

func TestStartShowsIntroWithStates(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	s := screenText(m)
	st := m.Results["args"].Status // missing, or needs-tool where istioctl is not installed
	// A step's word, not a file's.
	first := "1. " + render.Glyphs[st] + " " + i18n.T(i18n.Korean, st.StepKey(), nil)
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
	p, _ := m.Eng.Store.Load()
	if p.LastSection != "mesh" {
		t.Errorf("last section saved: %q", p.LastSection)
	}
}

func TestScrollKeys(t *testing.T) {
	m := sized(t, testEngine(t), 80, 24)
	m = press(t, m, "n", "n", "n", "n") // bootstrap: a long page
	m = press(t, m, "j", "j")
	if m.prose.Viewport().YOffset() != 2 {
		t.Fatalf("j j: offset %d", m.prose.Viewport().YOffset())
	}
	m = press(t, m, "pgdown")
	after := m.prose.Viewport().YOffset()
	m = press(t, m, "k")
	if after <= 2 || m.prose.Viewport().YOffset() != after-1 {
		t.Errorf("pgdown %d, k %d", after, m.prose.Viewport().YOffset())
	}
	m = press(t, m, "G")
	if !m.prose.Viewport().AtBottom() {
		t.Error("G: not at the bottom")
	}
	m = press(t, m, "g")
	if !m.prose.Viewport().AtTop() {
		t.Error("g: not at the top")
	}
	nm, _ := m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown, X: 50, Y: 3})
	wheeled := nm.(Model)
	if wheeled.prose.Viewport().YOffset() != 3 {
		t.Errorf("wheel: %d", wheeled.prose.Viewport().YOffset())
	}
}

// l cycles through the languages (ko → zh → ja → ko) in place: same page, same relative scroll,
// every string changes.
func TestLanguageSwitchKeepsPlace(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	m = press(t, m, "n", "n", "n", "n")
	m = press(t, m, "pgdown")
	frac := float64(m.prose.Viewport().YOffset()) / float64(m.prose.Viewport().TotalLineCount()-m.prose.Viewport().Height())
	sec, _ := m.Eng.Lesson.Section("bootstrap")
	st := m.Results["bootstrap"].Status
	wants := map[i18n.Lang]string{}
	for _, lang := range i18n.Langs { // the list shows the short titles (cut at 100 columns, some)
		wants[lang] = "4. " + render.Glyphs[st] + " " + i18n.T(lang, st.StepKey(), nil) + " · " + string([]rune(sec.Short[lang])[:4])
	}
	for i := range i18n.Langs {
		lang := i18n.Langs[(i+1)%len(i18n.Langs)] // from the first, the next one, round to it again
		m = press(t, m, "l")
		if m.Lang != lang || m.pageID() != "bootstrap" {
			t.Fatalf("l: %s on %s", m.Lang, m.pageID())
		}
		s := screenText(m)
		if !strings.Contains(s, wants[lang]) || !strings.Contains(s, i18n.T(lang, "ui.lang_name", nil)) {
			t.Errorf("%s screen:\n%s", lang, s)
		}
		got := float64(m.prose.Viewport().YOffset()) / float64(m.prose.Viewport().TotalLineCount()-m.prose.Viewport().Height())
		if got < frac-0.1 || got > frac+0.1 {
			t.Errorf("%s: relative scroll %.2f, was %.2f", lang, got, frac)
		}
	}
	p, _ := m.Eng.Store.Load()
	if p.Lang != i18n.Korean {
		t.Errorf("saved language %s", p.Lang)
	}
}

// A cached rendering is shown in the same frame: no command is needed to switch back.
func TestCachedRenderIsImmediate(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	m = press(t, m, "n", "l", "l", "l") // args rendered in all three
	cmd := m.sendKey("l")
	if m.prose.Shown() != m.document().Key() {
		t.Error("switching to a cached language waited for a render")
	}
	_ = cmd
}

func TestCheckAndDiff(t *testing.T) {
	eng := testEngine(t)
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n", "d")
	if m.overlay == overlayDiff || m.status.message.Key != "ui.check_first" {
		// args was checked at start (missing files, no diff)
		if m.status.message.Key != "ui.no_diff_yet" { // nothing to compare yet, not "all as expected" (zh r9 M9)
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
	if m.overlay != overlayDiff || !strings.Contains(screenText(m), "+++ 01-args.txt (기댓값)") {
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
	if !strings.Contains(m.prose.Viewport().GetContent(), "--revision") && !strings.Contains(m.prose.Viewport().GetContent(), "--injectConfigFile") {
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
	if m.nav.view != viewGlossary || !strings.Contains(screenText(m), "용어 풀이") || !strings.Contains(m.prose.Viewport().GetContent(), "PRE_INITIALIZING") {
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
	c := run.ShellCommand(eng.Env, eng.Lesson, m.Tools)
	env := strings.Join(c.Env, "\n")
	if c.Dir != eng.Env.WorkDir || !strings.Contains(env, "LAB_DIR="+eng.Env.WorkDir) || !strings.Contains(env, "FIXTURES=") || !strings.Contains(env, "MESH_CONFIG=") {
		t.Errorf("shell: dir %s env %s", c.Dir, env)
	}
	// Coming back checks the section.
	nm, cmd := m.Update(shellDoneMsg{})
	if said := nm.(Model).status.message.Key; said != "ui.shell_back" {
		t.Errorf("back from the shell: %q", said)
	}
	m = drain(t, nm.(Model), cmd)
	if m.status.message.Key != "" || !strings.Contains(screenText(m), "inject.yaml") {
		t.Errorf("after the shell:\n%s", screenText(m))
	}
}

func TestChattyRunKeepsTheLatestLines(t *testing.T) {
	eng := engineWithArgsStep(t, "seq 1 12000")
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n", "r", "y")
	sec, _ := eng.Lesson.Section("args")
	// The latest lines, the end line, and the section's files as the run's end checked them.
	if len(m.out.Items()) > output.MaxItems+2+len(sec.Files) || !strings.Contains(screenText(m), "종료 코드 0") {
		t.Fatalf("%d items kept:\n%s", len(m.out.Items()), screenText(m))
	}
	if m.out.Items()[0].MessageKey() != "ui.lines_dropped" {
		t.Errorf("first item %+v", m.out.Items()[0])
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
	c := m.prose.Viewport().GetContent()
	if m.nav.view != viewTools || !strings.Contains(c, "istioctl") || !strings.Contains(c, "없음") || !strings.Contains(c, "envoy") {
		t.Fatalf("D:\n%s", c)
	}
	m = press(t, m, "i")
	// Envoy cannot be downloaded here: the status says it is still missing, never "done" (L2).
	if m.toolsPage.Task() == nil || !m.toolsPage.Task().Ended() || m.status.message.Key != "ui.setup_missing" || !strings.Contains(m.status.message.Args["tools"], "envoy") {
		t.Fatalf("i: %+v", m.toolsPage.Task())
	}
	if s := xansi.Strip(m.out.Content()); !strings.Contains(s, "✓ istioctl") || !strings.Contains(s, "✓ yq") {
		t.Errorf("output pane:\n%s", s)
	}
	if !m.Tools.Get("istioctl").Found || !regexp.MustCompile(`✓\W+istioctl`).MatchString(m.prose.Viewport().GetContent()) {
		t.Errorf("tools after install: %+v\n%s", m.Tools.Get("istioctl"), m.prose.Viewport().GetContent())
	}
	m = press(t, m, "D")
	if m.nav.view == viewTools {
		t.Error("D did not close the tools page")
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

// A new check of the page makes the status line's word on the last one old: it goes (zh r11 M4).
func TestANewCheckClearsTheOldWordOnTheLast(t *testing.T) {
	eng := testEngine(t)
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n", "d")
	if m.status.message.Key == "" {
		t.Fatal("d said nothing")
	}
	if err := os.WriteFile(eng.Env.Path("01-args.txt"), []byte("role=proxy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	nm, _ := m.Update(checkCmd(eng, "args")())
	if m = nm.(Model); m.status.message.Key != "" {
		t.Errorf("after a new check the status line still says %s", m.status.message.In(m.Lang))
	}
}

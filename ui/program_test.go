package ui

import (
	"bytes"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
)

// These drive the real program (renderer, commands on their goroutines) and wait for text.

func startProgram(t *testing.T, eng *Engine) *teatest.TestModel {
	t.Helper()
	t.Cleanup(eng.Flush) // before the temp dirs go: the program may quit with a save under way
	return teatest.NewTestModel(t, New(eng), teatest.WithInitialTermSize(100, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
}

// screenLog keeps everything the program wrote, so a wait sees text that arrived during an
// earlier wait too (the renderer sends only what changed).
type screenLog struct{ seen []byte }

func (l *screenLog) waitFor(t *testing.T, tm *teatest.TestModel, text string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		if bytes.Contains(append(l.seen, b...), []byte(text)) {
			l.seen = append(l.seen, b...)
			return true
		}
		return false
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}

// forget drops what was seen: the next waitFor looks only at what is drawn from now on (a line
// drawn earlier, such as a section's last verdict shown when its page opened, must not count).
func (l *screenLog) forget() { l.seen = nil }

func typed(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

func TestProgramSwitchesLanguages(t *testing.T) {
	tm := startProgram(t, testEngine(t))
	var screen screenLog
	screen.waitFor(t, tm, "시작하기")
	tm.Send(typed('l'))
	screen.waitFor(t, tm, "开始")
	tm.Send(typed('l'))
	screen.waitFor(t, tm, "はじめに")
	tm.Send(typed('q'))
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
	if fm.Lang != i18n.Japanese {
		t.Errorf("final language %s", fm.Lang)
	}
}

func TestProgramRunsAndChecks(t *testing.T) {
	eng := engineWithArgsStep(t, "echo streamed-one\nsleep 0.3\necho streamed-two")
	tm := startProgram(t, eng)
	var screen screenLog
	screen.waitFor(t, tm, "시작하기")
	tm.Send(typed('n'))
	tm.Send(typed('r'))
	screen.waitFor(t, tm, "y 실행")
	tm.Send(typed('y'))
	screen.waitFor(t, tm, "streamed-two")
	screen.waitFor(t, tm, "파일의 상태는 아래에") // the run ended (and its check follows by itself)
	// The run's end checks the section (states only, below the output); c checks it with the
	// reasons: the first file with its state (missing, or needs-tool where istioctl is not
	// installed) and its reason, derived from the engine's own verdict.
	results, err := check.Check(eng.Lesson, eng.Env, []string{"args"})
	if err != nil {
		t.Fatal(err)
	}
	first := results[0].Files[0]
	screen.waitFor(t, tm, first.File+"  "+i18n.T(i18n.Korean, "status."+string(first.Status), nil))
	screen.forget()
	tm.Send(typed('c'))
	reason := []rune(first.Reason.In(i18n.Korean))
	screen.waitFor(t, tm, string(reason[:min(12, len(reason))]))
	tm.Send(typed('q'))
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
	if len(fm.out.Items()) == 0 || !fm.out.Items()[0].IsFile() {
		t.Errorf("c did not show the check: %+v", fm.out.Items())
	}
	if fm.runner.task == nil || !fm.runner.task.Ended() {
		t.Error("the run did not end")
	}
}

// BenchmarkStartToFirstFrame is the start-up: the model, its start command (progress, tools,
// states of every section), the first size and the rendering of the open page.
func BenchmarkStartToFirstFrame(b *testing.B) {
	eng := testEngine(b)
	for b.Loop() {
		m := sized(b, eng, 100, 30)
		if m.prose.Shown().Page == "" {
			b.Fatal("no prose in the first frame")
		}
	}
}

package ui

import (
	"strings"
	"testing"
	"time"

	"ist2-boot/ui/pane/output"
	"ist2-boot/ui/task"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps/run"
)

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
	if !m.runner.task.Ended() || !strings.Contains(s, "one") || !strings.Contains(s, "two") || !strings.Contains(s, "종료 코드 3") {
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
		var started task.StartedMsg[run.Line, run.RunResult]
		for _, c := range msg {
			if sm, ok := c().(task.StartedMsg[run.Line, run.RunResult]); ok {
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
		if !m.runner.task.Ended() || m.session.quitting || time.Since(start) > 5*time.Second {
			t.Fatalf("%s: ended %v quitting %v after %v", k, m.runner.task.Ended(), m.session.quitting, time.Since(start))
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
	m.runner.task = task.New[run.Line, run.RunResult](time.Second)
	m = press(t, m, "q")
	if m.status.question != askQuit || m.session.quitting || !strings.Contains(screenText(m), "나갈까요") {
		t.Fatalf("q while running: %d %v", m.status.question, m.session.quitting)
	}
	m = press(t, m, "n")
	if m.status.question != noQuestion || m.session.quitting {
		t.Fatal("n did not keep the tutorial")
	}
	m = press(t, m, "q")                                                   // asked again, and the run ends while the question stands
	nm, _ := m.Update(task.DoneMsg[run.RunResult]{ID: m.runner.task.ID()}) // the run ends
	m = nm.(Model)
	if m.status.question != askQuitIdle || !strings.Contains(screenText(m), "명령이 끝났습니다") { // "commands are running" no longer holds (ja r12 L32)
		t.Errorf("after the run ended the question is %d", m.status.question)
	}
	page := m.pageID()
	if m = press(t, m, "n"); m.status.question != noQuestion || m.pageID() != page || m.session.quitting {
		t.Error("n to the question after the run opened another page or quit (ko r16)") // n is also the next page's key
	}
	m.session.envoyPid = 999999
	m.sendKey("q")
	if !m.session.quitting || !strings.Contains(screenText(m), "999999") {
		t.Errorf("quit with our Envoy did not say it stops it:\n%s", screenText(m))
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
	if !m.runner.task.Ended() || time.Since(start) > 5*time.Second {
		t.Fatalf("ended %v after %v", m.runner.task.Ended(), time.Since(start))
	}
}

// M4: what a run printed on a page is there again when the learner comes back to it.
func TestARunsOutputStaysWithItsPage(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	m = press(t, m, "n")
	m.out.Show(m.pageID(), []output.Item{output.Run(run.Line{Kind: run.Command, Text: "istioctl kube-inject"}), output.Run(run.Line{Kind: run.Output, Text: "output-of-the-run"})})
	m.refreshOutput()
	m = press(t, m, "n", "p")
	if !strings.Contains(screenText(m), "output-of-the-run") {
		t.Errorf("the run's output is gone:\n%s", screenText(m))
	}
}

package ui

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"ist2-boot/ui/page/tools"

	"ist2-boot/ui/task"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/steps/run"
	"ist2-boot/steps/setup"
)

// A shell whose last command failed still ran: the section is checked as after any shell; a shell
// that could not start at all is said to have failed.
func TestShellExitStatusIsNotAFailure(t *testing.T) {
	err := exec.Command("bash", "-c", "ls /nonexistent-dir 2>/dev/null").Run()
	if msg := shellDone(err).(shellDoneMsg); msg.err != nil {
		t.Errorf("exit status %v taken for a failure", err)
	}
	if msg := shellDone(errors.New("fork/exec /bin/nosh: no such file")).(shellDoneMsg); msg.err == nil {
		t.Error("a shell that did not start is not a failure")
	}
	eng := testEngine(t)
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n")
	nm, cmd := m.Update(shellDone(err))
	if said := nm.(Model).status.message.Key; said != "ui.shell_back" {
		t.Errorf("back from the shell: %q", said)
	}
	m = drain(t, nm.(Model), cmd) // the check's result ends "checking…" (zh r11 M4)
	if m.status.message.Key != "" || len(m.out.Items()) == 0 || !m.out.Items()[0].IsFile() {
		t.Errorf("after a shell whose last command failed: message %q, items %d", m.status.message.Key, len(m.out.Items()))
	}
}

// q at a y/n question answers no (it used to be ignored): the question closes, nothing runs, the
// tutorial stays.
func TestQAtAQuestionAnswersNo(t *testing.T) {
	eng := engineWithArgsStep(t, "echo never")
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n", "r")
	if m.status.question != askRun {
		t.Fatalf("r asked nothing: %d", m.status.question)
	}
	m = press(t, m, "q")
	if m.status.question != noQuestion || m.runner.task != nil || m.session.quitting || m.pageID() != "args" {
		t.Errorf("q at the question: confirm %d run %v quitting %v page %s", m.status.question, m.runner.task, m.session.quitting, m.pageID())
	}
}

// While an install runs, the status bar's clock is redrawn every tick, not only when a key comes.
func TestInstallTicksWhileItRuns(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	m.toolsPage, _ = m.toolsPage.Install(m.Common, func(context.Context, func(setup.SetupEvent)) tools.Result { return tools.Result{} })
	install := m.toolsPage.Task() // its job is not started: only its ticks are sent here
	if _, cmd := m.Update(task.TickMsg{ID: install.ID()}); cmd == nil {
		t.Error("no next tick while the install runs")
	}
	nm, _ := m.Update(task.DoneMsg[tools.Result]{ID: install.ID()})
	if _, cmd := nm.(Model).Update(task.TickMsg{ID: install.ID()}); cmd != nil {
		t.Error("ticking after the install ended")
	}
}

// Quitting while a run goes waits for the run to stop, so no process of its group outlives the
// tutorial (it used to quit at once and leave a TERM-ignoring tool running).
func TestQuitDuringARunLeavesNothingBehind(t *testing.T) {
	// The step says "started-42": text only its run prints (the command shown, with $((40+2)),
	// must not count — it is on screen before the script has run).
	eng := engineWithArgsStep(t, "echo $$ > group.pid\necho started-$((40+2))\nbash -c 'trap \"\" TERM; sleep 100 & sleep 100; wait'")
	m := sized(t, eng, 100, 30)
	m = press(t, m, "n", "r")
	cmd := m.sendKey("y")
	// Start the run and read until the step has said it started.
	msg := cmd().(tea.BatchMsg)
	var started task.StartedMsg[run.Line, run.RunResult]
	for _, c := range msg {
		if sm, ok := c().(task.StartedMsg[run.Line, run.RunResult]); ok {
			started = sm
		}
	}
	nm, wait := m.Update(started)
	m = nm.(Model)
	for !strings.Contains(screenText(m), "started-42") {
		nm, wait = m.Update(wait())
		m = nm.(Model)
	}
	m = press(t, m, "q") // a run goes: asks first
	if m.status.question != askQuit {
		t.Fatalf("q during a run asked nothing")
	}
	// Yes: the run is told to stop, and the tutorial does not quit before it has.
	if quit := m.sendKey("y"); quit != nil && !m.runner.task.Ended() {
		if _, isQuit := quit().(tea.QuitMsg); isQuit {
			t.Fatal("quit at once while the run still goes")
		}
	}
	m = drain(t, m, wait)
	if !m.session.quitting || !m.runner.task.Ended() {
		t.Fatalf("quitting %v, run ended %v", m.session.quitting, m.runner.task.Ended())
	}
	raw, err := os.ReadFile(eng.Env.Path("group.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pgid, _ := strconv.Atoi(strings.TrimSpace(string(raw)))
	if run.GroupAlive(pgid) {
		syscall.Kill(-pgid, syscall.SIGKILL)
		t.Errorf("process group %d of the run outlived the tutorial", pgid)
	}
}

// A program's escape sequences and control characters never reach the screen: a clear screen, a
// cursor move or a bell in a step's output would act on the tutorial's frame. The text stays.
func TestProgramOutputCannotDrawOnTheScreen(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	m.runner.task, m.runner.section = task.New[run.Line, run.RunResult](time.Second), m.pageID()
	m.out.Show(m.pageID(), nil)
	nm, _ := m.Update(task.EventsMsg[run.Line]{ID: m.runner.task.ID(), Events: []run.Line{{Kind: run.Output, Text: "\x1b[2J\x1b[H\x1b[31mred\x1b[0m\tend\a\x1b]0;title\a"}}})
	m = nm.(Model)
	m.refreshOutput()
	view := m.out.View()
	for _, bad := range []string{"\x1b[2J", "\x1b[H", "\a", "\x1b]0", "\x1b[31m"} {
		if strings.Contains(view, bad) {
			t.Errorf("the pane holds %q: %q", bad, view)
		}
	}
	if !strings.Contains(view, "red end") {
		t.Errorf("the text is gone: %q", view)
	}
}

// A message too long for the status bar pops up inside the panes, above their bottom border:
// no pane is left open below it at 60×20 (ja r7 L22).
func TestPopupLeavesThePanesClosed(t *testing.T) {
	m := sized(t, testEngine(t), 60, 20)
	m.Lang = i18n.Japanese
	m = press(t, m, "n", "n")
	m.status.message = i18n.M("ui.passed_next")
	m.status = m.status.layout(m.Common, m.nav.where(m.Common))
	lines := strings.Split(xansi.Strip(m.screen()), "\n")
	body := lines[:len(lines)-2]
	if last := body[len(body)-1]; !strings.HasPrefix(last, "└") && !strings.HasPrefix(last, "╚") {
		t.Errorf("the body's last line is not a pane's bottom:\n%s", strings.Join(lines, "\n"))
	}
	if !strings.Contains(strings.Join(body, "\n"), "合格しました") {
		t.Errorf("no popup:\n%s", strings.Join(lines, "\n"))
	}
}

// A save whose goroutine reaches the lock only after Flush writes nothing: the program has
// returned and its temp dirs may be going (a bare go test saw one land during their removal).
func TestASaveAfterFlushWritesNothing(t *testing.T) {
	eng := testEngine(t)
	save := eng.SaveCmd(func(p *progress.Progress) { p.Lang = "ja" })
	eng.Flush()
	if msg := save(); msg != nil {
		t.Errorf("a save after Flush ran: %+v", msg)
	}
	if p, _ := eng.Store.Load(); p.Lang == "ja" {
		t.Error("a save after Flush was written")
	}
}

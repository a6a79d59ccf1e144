package ui

import (
	"errors"
	"os/exec"
	"testing"
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
	m = drain(t, nm.(Model), cmd)
	if m.message.Key != "ui.shell_back" || len(m.out.items) == 0 || m.out.items[0].file == nil {
		t.Errorf("after a shell whose last command failed: message %q, items %d", m.message.Key, len(m.out.items))
	}
}

package main

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"ist2-boot/content"
	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
)

// openPTY opens a pseudo-terminal of 100×30 cells: the controller and the terminal a child gets.
func openPTY(tb testing.TB) (controller, terminal *os.File) {
	tb.Helper()
	c, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		tb.Skipf("no pseudo-terminals here: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(c.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		tb.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(c.Fd()), unix.TIOCGPTN)
	if err != nil {
		tb.Fatal(err)
	}
	if err := unix.IoctlSetWinsize(int(c.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 30, Col: 100}); err != nil {
		tb.Fatal(err)
	}
	t, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		tb.Fatal(err)
	}
	return c, t
}

// startUpTimes starts the tutorial on a terminal and returns how long until the intro's title is
// on screen and until a section's state is: what a learner waits for, from exec.
func startUpTimes(tb testing.TB, bin string, env []string, title string, states []string) (text, state time.Duration) {
	c, term := openPTY(tb)
	defer c.Close()
	cmd := exec.Command(bin)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = term, term, term
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	term.Close()
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	var screen bytes.Buffer
	buf := make([]byte, 64<<10)
	for time.Since(start) < 30*time.Second {
		_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
		n, err := c.Read(buf)
		if err != nil {
			break
		}
		chunk := buf[:n]
		screen.Write(chunk)
		// Answer the terminal's usual questions (cursor position, background colour) as a terminal would.
		if bytes.Contains(chunk, []byte("\x1b[6n")) {
			_, _ = c.Write([]byte("\x1b[1;1R"))
		}
		if bytes.Contains(chunk, []byte("\x1b]11;?")) {
			_, _ = c.Write([]byte("\x1b]11;rgb:0000/0000/0000\x1b\\"))
		}
		s := screen.String()
		if text == 0 && strings.Contains(s, title) {
			text = time.Since(start)
		}
		for _, st := range states {
			if state == 0 && strings.Contains(s, st+" · ") { // as the section list draws it
				state = time.Since(start)
			}
		}
		if text != 0 && state != 0 {
			return text, state
		}
	}
	tb.Fatalf("after %v the screen has no %q or no section state:\n%q", time.Since(start), title, screen.String())
	return 0, 0
}

// BenchmarkStartOnATerminal is the start-up as a learner sees it, from exec on a 100×30
// pseudo-terminal: ms-to-text (the intro's title drawn) and ms-to-states (a section's state
// drawn), each start with the same state dir as the last (tool identities cached).
func BenchmarkStartOnATerminal(b *testing.B) {
	bin := binary(b)
	l, err := steps.LoadLesson(content.FS)
	if err != nil {
		b.Fatal(err)
	}
	title := l.Intro.Title[i18n.Korean]
	states := sectionStates(b)
	dir := b.TempDir()
	env := append(os.Environ(), "TERM=xterm-256color", "LANG=ko_KR.UTF-8", "XDG_DATA_HOME="+dir+"/data", "XDG_STATE_HOME="+dir+"/state")
	var text, state time.Duration
	for b.Loop() {
		t, s := startUpTimes(b, bin, env, title, states)
		text, state = text+t, state+s
	}
	b.ReportMetric(float64(text.Milliseconds())/float64(b.N), "ms-to-text")
	b.ReportMetric(float64(state.Milliseconds())/float64(b.N), "ms-to-states")
}

// The tutorial starts on a real terminal (no timing asserted: the benchmark measures) and draws
// the intro and every section's state.
func TestStartOnATerminal(t *testing.T) {
	l, err := steps.LoadLesson(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	env := append(os.Environ(), "TERM=xterm-256color", "LANG=ko_KR.UTF-8", "XDG_DATA_HOME="+dir+"/data", "XDG_STATE_HOME="+dir+"/state")
	text, state := startUpTimes(t, binary(t), env, l.Intro.Title[i18n.Korean], sectionStates(t))
	t.Logf("intro drawn after %v, section states after %v", text, state)
}

// sectionStates are the words the section list shows a state with, in Korean.
func sectionStates(tb testing.TB) []string {
	keys, err := i18n.CatalogKeys()
	if err != nil {
		tb.Fatal(err)
	}
	var states []string
	for _, k := range keys {
		if strings.HasPrefix(k, "status.") {
			states = append(states, i18n.T(i18n.Korean, k, nil))
		}
	}
	return states
}

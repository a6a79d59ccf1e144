package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ist2-boot/steps/i18n"

	"golang.org/x/sys/unix"
)

// fakeIstioctl stands in for istioctl: it starts a child that would outlive a careless parent
// (a sleep with a marker in its arguments), says so, and waits.
func fakeIstioctl(t *testing.T, marker string) string {
	dir := t.TempDir()
	script := "#!/bin/sh\nif [ \"$1\" = version ]; then echo 1.31.0; exit 0; fi\nsleep " + marker + " &\necho started-" + marker + " >&2\nwait\n"
	if err := os.WriteFile(filepath.Join(dir, "istioctl"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// processes lists the running processes' pids with their command lines and parents, read from
// /proc: pgrep (procps) is not on every bare machine.
func processes() (cmdline map[int]string, parent map[int]int) {
	cmdline, parent = map[int]string{}, map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		raw, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || len(raw) == 0 {
			continue // gone, or a zombie
		}
		cmdline[pid] = strings.TrimSpace(string(bytes.ReplaceAll(raw, []byte{0}, []byte{' '})))
		stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 {
			if f := strings.Fields(string(stat[i+1:])); len(f) > 1 {
				parent[pid], _ = strconv.Atoi(f[1])
			}
		}
	}
	return cmdline, parent
}

// alive: a process whose command line holds marker is running.
func alive(marker string) bool {
	cmdline, _ := processes()
	for _, c := range cmdline {
		if strings.Contains(c, "sleep "+marker) {
			return true
		}
	}
	return false
}

// killMarked ends what a failed test left running.
func killMarked(marker string) {
	cmdline, _ := processes()
	for pid, c := range cmdline {
		if strings.Contains(c, "sleep "+marker) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// childOf: a running child of pid, or 0.
func childOf(pid int) int {
	_, parent := processes()
	for child, p := range parent {
		if p == pid {
			return child
		}
	}
	return 0
}

// waitGone waits up to 20 s for the marked processes to end.
func waitGone(marker string) bool {
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if !alive(marker) {
			return true
		}
	}
	return false
}

// waitAlive waits up to 30 s for a marked process: the script says "started" after forking the
// sleep, which under load may not have become a sleep yet.
func waitAlive(marker string) bool {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if alive(marker) {
			return true
		}
	}
	return false
}

// D7: `run` stops its commands' process group on TERM, INT, HUP and QUIT, and exits 128+n.
func TestRunStopsItsProcessesOnSignals(t *testing.T) {
	bin := binary(t)
	for i, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT} {
		marker := "7" + string(rune('1'+i)) + "3.25"
		defer killMarked(marker) // a failed round leaves no sleep for the next to see
		dir := t.TempDir()
		cmd := exec.Command(bin, "run", "args")
		cmd.Env = append(os.Environ(), "PATH="+fakeIstioctl(t, marker)+":/usr/bin:/bin", "XDG_DATA_HOME="+dir+"/data", "XDG_STATE_HOME="+dir+"/state")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(30 * time.Second); !strings.Contains(out.String(), "started-"+marker) && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		if !waitAlive(marker) {
			cmd.Process.Kill()
			t.Fatalf("%v: the run's child is not seen running before the signal:\n%s", sig, out.String())
		}
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		code := cmd.ProcessState.ExitCode()
		if code != 128+int(sig) {
			t.Errorf("%v: exit %d (%v), want %d:\n%s", sig, code, err, 128+int(sig), out.String())
		}
		if !waitGone(marker) {
			t.Errorf("%v: the run's child outlived it", sig)
			killMarked(marker)
		}
	}
}

// D6: the tutorial, on TERM, INT, HUP or QUIT (the hostile report's M5) while a run goes, stops
// the run's process group as q does, restores the terminal (cooked mode again) and exits 128+n.
func TestTutorialStopsItsProcessesOnSignals(t *testing.T) {
	bin := binary(t)
	for i, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT} {
		marker := "8" + string(rune('1'+i)) + "4.25"
		defer killMarked(marker) // a failed round leaves no sleep for the next to see
		c, term := openPTY(t)
		before, err := unix.IoctlGetTermios(int(term.Fd()), unix.TCGETS)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), "TERM=xterm-256color", "LANG=ko_KR.UTF-8", "PATH="+fakeIstioctl(t, marker)+":/usr/bin:/bin",
			"XDG_DATA_HOME="+dir+"/data", "XDG_STATE_HOME="+dir+"/state")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = term, term, term
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		screen := newScreen(c)
		screen.waitFor(t, "시작하기") // the intro's first key hint
		c.Write([]byte("n"))
		screen.waitFor(t, "단계 1/8")
		c.Write([]byte("r"))
		screen.waitFor(t, "y "+i18n.T(i18n.Korean, "keys.yes.run", nil)) // the question asked (the key line says so), then answered
		c.Write([]byte("y"))
		screen.waitFor(t, "started-"+marker)
		if !waitAlive(marker) {
			cmd.Process.Kill()
			t.Fatalf("%v: the run's child is not seen running before the signal", sig)
		}
		cmd.Process.Signal(sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v: the tutorial did not end", sig)
		}
		if code := cmd.ProcessState.ExitCode(); code != 128+int(sig) {
			t.Errorf("%v: exit %d, want %d", sig, code, 128+int(sig))
		}
		if !waitGone(marker) {
			t.Errorf("%v: the run's child outlived the tutorial", sig)
			killMarked(marker)
		}
		if after, err := unix.IoctlGetTermios(int(term.Fd()), unix.TCGETS); err != nil || after.Lflag&(unix.ICANON|unix.ECHO) != before.Lflag&(unix.ICANON|unix.ECHO) {
			t.Errorf("%v: the terminal is left in raw mode (%v)", sig, err)
		}
		term.Close()
		c.Close()
	}
}

// ptyScreen reads what the program draws, all the time (a program whose terminal is not read
// blocks on its writes), and answers a terminal's usual questions.
type ptyScreen struct {
	c        *os.File
	mu       sync.Mutex
	seen     bytes.Buffer
	answered int // background-colour queries answered: the tutorial asks once at start
}

func newScreen(c *os.File) *ptyScreen {
	s := &ptyScreen{c: c}
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := c.Read(buf)
			chunk := buf[:n]
			s.mu.Lock()
			s.seen.Write(chunk)
			s.mu.Unlock()
			if bytes.Contains(chunk, []byte("\x1b[6n")) {
				_, _ = c.Write([]byte("\x1b[1;1R"))
			}
			if bytes.Contains(chunk, []byte("\x1b]11;?")) {
				_, _ = c.Write([]byte("\x1b]11;rgb:0000/0000/0000\x1b\\"))
				s.mu.Lock()
				s.answered++
				s.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	return s
}

func (s *ptyScreen) has(text string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Contains(s.seen.String(), text)
}

func (s *ptyScreen) forget() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen.Reset()
}

func (s *ptyScreen) waitFor(t *testing.T, text string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if s.has(text) {
			return
		}
	}
	s.mu.Lock()
	tail := s.seen.String()
	s.mu.Unlock()
	t.Fatalf("no %q on screen; the last of it: %q", text, tail[max(0, len(tail)-600):])
}

// D17: a TSTP from outside (as when a shell's job is stopped) hands the terminal back before the
// tutorial stops; fg takes it again, draws the screen anew, and keys work at once (raw mode).
// The tutorial runs as a job of an interactive bash, as a learner's would: a process with no
// parent in its session would be an orphaned group, which TSTP does not stop.
func TestTutorialSuspendsAndResumes(t *testing.T) {
	bin := binary(t)
	c, term := openPTY(t)
	defer c.Close()
	defer term.Close()
	dir := t.TempDir()
	shell := exec.Command("bash", "--norc", "--noprofile", "-i")
	shell.Env = append(os.Environ(), "TERM=xterm-256color", "LANG=ko_KR.UTF-8", "PS1=$ ", "XDG_DATA_HOME="+dir+"/data", "XDG_STATE_HOME="+dir+"/state")
	shell.Stdin, shell.Stdout, shell.Stderr = term, term, term
	shell.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := shell.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { shell.Process.Kill(); shell.Wait() }()
	screen := newScreen(c)
	c.Write([]byte(bin + "\n"))
	screen.waitFor(t, "시작하기")
	var pid int
	for deadline := time.Now().Add(20 * time.Second); pid == 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		pid = childOf(shell.Process.Pid)
	}
	if pid == 0 {
		t.Fatal("the tutorial's pid is not found")
	}
	defer syscall.Kill(pid, syscall.SIGKILL)
	// The tutorial has read all the terminal's answers to its start-up queries (our screen answers
	// them, late under load): a stop before that would leave them for the shell to read as a command.
	// Its query may come after the first frame: wait for our answer to be written, then read.
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		screen.mu.Lock()
		answered := screen.answered > 0
		screen.mu.Unlock()
		if n, err := unix.IoctlGetInt(int(term.Fd()), unix.TIOCINQ); answered && err == nil && n == 0 {
			break
		}
	}
	syscall.Kill(pid, syscall.SIGTSTP)
	stopped := false
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && !stopped; time.Sleep(50 * time.Millisecond) {
		raw, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		stopped = strings.Contains(string(raw), ") T ")
	}
	if !stopped {
		t.Fatal("TSTP did not stop the tutorial")
	}
	screen.forget()
	c.Write([]byte("fg\n"))
	screen.waitFor(t, "시작하기")          // drawn anew
	time.Sleep(300 * time.Millisecond) // the terminal taken again (raw) before the redraw settles
	screen.forget()
	c.Write([]byte("n")) // no Enter: only a terminal in raw mode passes it on
	screen.waitFor(t, "단계 1/8")
}

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Neither validate nor a --mesh given as a FIFO or a device hangs or grows: validate says the file
// is not a regular file (exit 1, the file is the problem); a --mesh that is one is an environment
// error (exit 2).
func TestFIFOsAndDevicesAreRefusedAtOnce(t *testing.T) {
	sb := newSandbox(t, os.Getenv("PATH"))
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"validate", fifo}, exitNotPass, fifo},
		{[]string{"validate", "/dev/zero"}, exitNotPass, "/dev/zero"},
		{[]string{"check", "--mesh", fifo, "mesh"}, exitUsage, "not a regular file"},
	} {
		type result struct {
			code      int
			out, errs string
		}
		done := make(chan result, 1)
		go func() {
			code, out, errs := sb.main("", tt.args...)
			done <- result{code, out, errs}
		}()
		select {
		case got := <-done:
			if got.code != tt.code || !strings.Contains(got.errs, tt.want) {
				t.Errorf("%v: exit %d\n%s%s", tt.args, got.code, got.out, got.errs)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%v still running after 10 s", tt.args)
		}
	}
}

// show renders no wider than a terminal can be: a huge --width is refused at once (exit 2), a huge
// COLUMNS falls back to 80 columns (it used to render to the width it said, gigabytes of it).
func TestShowWidthIsCapped(t *testing.T) {
	sb := newSandbox(t, os.Getenv("PATH"))
	start := time.Now()
	if code, _, errs := sb.main("", "show", "intro", "--width", "100000000"); code != exitUsage || !strings.Contains(errs, "100000000") {
		t.Errorf("--width 100000000: exit %d %s", code, errs)
	}
	sb.vars["COLUMNS"] = "1000000"
	rendered := 0
	var out, errb bytes.Buffer
	code := Main([]string{"show", "intro"}, IO{In: strings.NewReader(""), Out: &out, Err: &errb,
		Getenv: func(k string) string { return sb.vars[k] }, LabMarker: filepath.Join(sb.vars["HOME"], "no-lab"),
		Render: func(md string, width int) (string, error) { rendered = width; return md, nil }})
	if code != exitOK || rendered != 80 || time.Since(start) > 10*time.Second {
		t.Fatalf("COLUMNS=1000000: exit %d, rendered at %d columns, after %v\n%s", code, rendered, time.Since(start), errb.String())
	}
}

// Global flags may come before the command (`--workdir X check` is not "unknown command"), and a
// negative --timeout is refused.
func TestFlagsBeforeTheCommandAndBadTimeout(t *testing.T) {
	sb := newSandbox(t, os.Getenv("PATH"))
	if !IsCommand([]string{"--workdir", sb.work, "check"}) || IsCommand([]string{"--lang", "ja"}) {
		t.Error("IsCommand")
	}
	code, out, errs := sb.main("", "--workdir", sb.work, "--lang", "ja", "check", "mesh")
	if code == exitUsage || strings.Contains(errs, "unknown command") || !strings.Contains(out, "mesh") {
		t.Errorf("--workdir X check: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := sb.main("", "run", "mesh", "--timeout", "-5s"); code != exitUsage || !strings.Contains(errs, "-5s") {
		t.Errorf("--timeout -5s: exit %d %s", code, errs)
	}
}

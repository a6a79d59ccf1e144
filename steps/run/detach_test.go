package run

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
)

// The intro's detach snippet does what the intro says in both shells a learner has: with job
// control on (an interactive shell, what `s` opens) and off (a script). The pid it records is the
// running stand-in Envoy's, and the snippet's own kill line stops that process. The old
// `setsid envoy … &` form fails this test with job control on: $! names setsid's exited parent.
func TestIntroDetachSnippetRecordsEnvoysPid(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("bash is needed: the lab's commands run in it")
	}
	start, kill := introDetachSnippet(t)
	for _, jobControl := range []bool{true, false} {
		name := map[bool]string{true: "interactive (set -m)", false: "script (set +m)"}[jobControl]
		t.Run(name, func(t *testing.T) {
			bin, dir := t.TempDir(), t.TempDir()
			// A stand-in that runs until TERM, under the name envoy, with its arguments visible.
			standIn := "#!/bin/sh\ntrap 'exit 0' TERM\nwhile :; do sleep 0.05; done\n"
			if err := os.WriteFile(filepath.Join(bin, "envoy"), []byte(standIn), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { stopStandIns(bin) })
			mode := "set +m"
			if jobControl {
				mode = "set -m"
			}
			shell(t, dir, bin, mode+"\n"+start)
			raw, err := os.ReadFile(filepath.Join(dir, "envoy.pid"))
			if err != nil {
				t.Fatal(err)
			}
			pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
			if err != nil {
				t.Fatalf("envoy.pid holds %q", raw)
			}
			// The background job may still be between fork and exec: give it a moment.
			deadline := time.Now().Add(3 * time.Second)
			for alive(pid) && !slicesHasEnvoy(cmdline(pid), bin) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if args := cmdline(pid); !alive(pid) || !slicesHasEnvoy(args, bin) {
				t.Fatalf("envoy.pid names %d, which is not the running stand-in (alive %v, command line %q)", pid, alive(pid), args)
			}
			shell(t, dir, bin, kill)
			deadline = time.Now().Add(3 * time.Second)
			for alive(pid) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if alive(pid) {
				t.Errorf("%q left Envoy %d running", kill, pid)
			}
		})
	}
}

// introDetachSnippet is the intro's two shell blocks (the same in every language): the one that
// starts Envoy, and the one that stops it (kept apart, so that the first pasted alone leaves Envoy
// running: newcomer L17).
func introDetachSnippet(t *testing.T) (start, kill string) {
	t.Helper()
	l := steptest.Lesson(t)
	for _, lang := range i18n.Langs {
		md, err := l.Prose(l.Intro.ID, lang, &steps.Env{WorkDir: "/w", Fixtures: "/f", Mesh: "/m.yaml"})
		if err != nil {
			t.Fatal(err)
		}
		var blocks []string
		for rest := md; ; {
			_, after, ok := strings.Cut(rest, "```sh\n")
			if !ok {
				break
			}
			block, tail, closed := strings.Cut(after, "```")
			if !closed {
				t.Fatalf("%s intro: an sh block is not closed", lang)
			}
			blocks, rest = append(blocks, strings.TrimRight(block, "\n")), tail
		}
		if len(blocks) != 2 || !strings.HasPrefix(blocks[1], "kill ") || strings.Contains(blocks[0], "kill ") {
			t.Fatalf("%s intro: want a start block, then a block that kills: %q", lang, blocks)
		}
		if start == "" {
			start, kill = blocks[0], blocks[1]
		} else if start != blocks[0] || kill != blocks[1] {
			t.Fatalf("%s intro's blocks differ from the others", lang)
		}
	}
	return start, kill
}

// shell runs script with bash in dir, bin first on PATH, and fails the test if bash fails.
func shell(t *testing.T, dir, bin, script string) {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bash -c %q: %v\n%s", script, err, out)
	}
}

// cmdline is a process's arguments, or nil when it is gone.
func cmdline(pid int) []string {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || len(raw) == 0 {
		return nil
	}
	return strings.Split(string(bytes.TrimRight(raw, "\x00")), "\x00")
}

// slicesHasEnvoy: the command line runs bin/envoy (as "sh bin/envoy …") with -c bootstrap.yaml.
func slicesHasEnvoy(args []string, bin string) bool {
	joined := strings.Join(args, " ")
	return strings.Contains(joined, filepath.Join(bin, "envoy")) && strings.Contains(joined, "-c bootstrap.yaml")
}

// stopStandIns kills every process still running this test's stand-in: only processes whose
// command line names the stand-in in this test's own temp dir, so nothing else is touched.
func stopStandIns(bin string) {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if slicesHasEnvoy(cmdline(pid), bin) {
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill()
			}
		}
	}
}

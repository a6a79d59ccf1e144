package steps

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The Envoy path of sections 4-6 with the Envoy test double: the lab's own commands validate,
// start Envoy detached, record its pid, wait for the admin port, and the engine stops only that
// pid. Needs curl and jq, as the lab does.
func TestEnvoySectionsWithTheTestDouble(t *testing.T) {
	l := testLesson(t)
	env := testEnv(t, fakeEnvoyPath(t)+string(os.PathListSeparator)+os.Getenv("PATH"))
	copyAnswers(t, env)
	for _, f := range []string{"04-validate.txt", "05-typo.txt", "06-node.json", "06-ready.txt", "08-report.md", "boot-typo.yaml"} {
		os.Remove(env.Path(f))
	}
	tools := FindTools(env, l.Tools)
	for _, name := range []string{"envoy", "curl", "jq", "yq"} {
		if !tools.Get(name).Found {
			t.Fatalf("%s not found: install it (scripts/test.sh does)", name)
		}
	}
	r := &Runner{Lesson: l, Env: env, Tools: tools}
	run := func(id string) RunResult {
		var out []string
		res := r.RunSection(context.Background(), id, func(l Line) { out = append(out, l.Text+l.Msg.In(Korean)) })
		if !res.OK() {
			t.Fatalf("run %s: %+v\n%s", id, res, strings.Join(out, "\n"))
		}
		return res
	}
	run("bootstrap")
	run("typo")
	run("ready")
	pidFile := env.Path("envoy.pid")
	t.Cleanup(func() { StopEnvoy(pidFile) })
	first, ok := RunningEnvoy(pidFile)
	if !ok {
		t.Fatal("no running Envoy recorded")
	}
	// Job control gives Envoy a process group of its own: it outlives the step, and ending the
	// step's group (cancel, timeout) does not reach it.
	if pgid, _ := syscall.Getpgid(first); pgid != first {
		t.Errorf("Envoy %d does not lead its own process group (pgid %d)", first, pgid)
	}
	run("report")
	results, err := Check(l, env, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range results {
		if s.Status != Pass {
			t.Errorf("%s: %s %+v", s.ID, s.Status, s.Files)
		}
	}
	// Running section 6 again stops the Envoy it started before starting a new one.
	run("ready")
	second, ok := RunningEnvoy(pidFile)
	if !ok || second == first || alive(first) {
		t.Errorf("first Envoy %d, second %d (running %v)", first, second, ok)
	}
	if pid, stopped := StopEnvoy(pidFile); !stopped || pid != second || alive(second) {
		t.Errorf("stop: %d %v", pid, stopped)
	}
	if _, err := os.Stat(pidFile); !os.IsNotExist(err) {
		t.Error("pid file kept after stop")
	}
}

// alive: the process runs (see exited).
func alive(pid int) bool { return !exited(pid) }

// A pid file naming a process that is not our Envoy (a reused pid, a program of another name) is
// never acted on.
func TestStopEnvoyLeavesOtherProcessesAlone(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	pidFile := dir + "/envoy.pid"
	writeFile(t, pidFile, strconv.Itoa(cmd.Process.Pid)+"\n")
	if _, stopped := StopEnvoy(pidFile); stopped {
		t.Fatal("stopped a process that is not Envoy")
	}
	time.Sleep(50 * time.Millisecond)
	if !alive(cmd.Process.Pid) {
		t.Fatal("the other process is gone")
	}
	for _, junk := range []string{"", "x", "1", "-5"} {
		writeFile(t, pidFile, junk)
		if _, stopped := StopEnvoy(pidFile); stopped {
			t.Errorf("pid file %q acted on", junk)
		}
	}
}

func TestIsOurEnvoy(t *testing.T) {
	tests := []struct {
		cmdline string
		want    bool
	}{
		{"/usr/bin/envoy\x00-c\x00/w/bootstrap.yaml\x00--log-level\x00warn\x00", true},
		{"envoy\x00-c\x00bootstrap.yaml\x00", true},
		{"envoy\x00--config-path=/w/bootstrap.yaml\x00", true},
		{"envoy\x00-c\x00/elsewhere/bootstrap.yaml\x00", false},
		{"/usr/bin/envoy-proxy\x00-c\x00/w/bootstrap.yaml\x00", false},
		{"bash\x00-c\x00envoy -c /w/bootstrap.yaml\x00", false},
		{"envoy\x00--version\x00", false},
	}
	for _, tt := range tests {
		if got := isOurEnvoy([]byte(tt.cmdline), "/w"); got != tt.want {
			t.Errorf("%q: %v", tt.cmdline, got)
		}
	}
}

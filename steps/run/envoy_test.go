package run

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"ist2-boot/steps/steptest"
)

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
	steptest.WriteFile(t, pidFile, strconv.Itoa(cmd.Process.Pid)+"\n")
	if _, stopped := StopEnvoy(pidFile); stopped {
		t.Fatal("stopped a process that is not Envoy")
	}
	time.Sleep(50 * time.Millisecond)
	if !alive(cmd.Process.Pid) {
		t.Fatal("the other process is gone")
	}
	for _, junk := range []string{"", "x", "1", "-5"} {
		steptest.WriteFile(t, pidFile, junk)
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

// Only the Envoy this program recorded when it started it is stopped: the user's own Envoy, even
// one that looks like ours (named envoy, a relative -c, the same directory), is left alone, and so
// is a process whose pid matches a record but whose start time does not (a reused pid).
func TestOnlyTheRecordedEnvoyIsStopped(t *testing.T) {
	dir, bin := t.TempDir(), t.TempDir()
	standIn := filepath.Join(bin, "envoy")
	steptest.WriteFile(t, standIn, "#!/bin/sh\ntrap 'exit 0' TERM\nwhile :; do sleep 0.05; done\n")
	if err := os.Chmod(standIn, 0o755); err != nil {
		t.Fatal(err)
	}
	start := func() *exec.Cmd {
		cmd := exec.Command(standIn, "-c", "envoy.yaml")
		cmd.Dir = dir
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		return cmd
	}
	pidFile := filepath.Join(dir, "envoy.pid")

	users := start() // the learner's own envoy -c envoy.yaml, named in a stale pid file
	steptest.WriteFile(t, pidFile, strconv.Itoa(users.Process.Pid)+"\n")
	if _, stopped := StopEnvoy(pidFile); stopped || !alive(users.Process.Pid) {
		t.Fatalf("stopped the learner's own Envoy (stopped %v)", stopped)
	}

	if err := RecordEnvoy(pidFile); err != nil { // as a run of ours does right after starting it
		t.Fatal(err)
	}
	rec := steptest.ReadFile(t, pidFile+".ours")
	steptest.WriteFile(t, pidFile+".ours", strings.Replace(rec, `"start":`, `"start":1`, 1)) // another start time
	if _, stopped := StopEnvoy(pidFile); stopped || !alive(users.Process.Pid) {
		t.Fatal("stopped a process whose start time is not the recorded one")
	}

	steptest.WriteFile(t, pidFile+".ours", rec)
	pid, stopped := StopEnvoy(pidFile)
	deadline := time.Now().Add(3 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !stopped || pid != users.Process.Pid || alive(pid) {
		t.Errorf("the recorded Envoy: stopped %v pid %d alive %v", stopped, pid, alive(pid))
	}
}

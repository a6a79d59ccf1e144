package run

import (
	"os/exec"
	"strconv"
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

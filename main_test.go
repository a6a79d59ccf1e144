package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ist2-boot/steps/steptest"
)

// binary is this program, built once per test run: main's wiring is only seen from outside.
func binary(tb testing.TB) string { return steptest.Build(tb, ".", "ist2-boot") }

func TestMain(m *testing.M) { steptest.Main(m) } // the built programs are removed after

// runBinary runs the built program with stdin not a terminal and returns its exit code and output.
func runBinary(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Env = append(os.Environ(), "LANG=ko_KR.UTF-8", "XDG_DATA_HOME="+t.TempDir())
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%v: %v", args, err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

// The exit status is what scripts and CI read: 0 for a bootstrap Envoy would take, 1 for one it
// would refuse (and the report names the file and line), 2 for a tutorial that cannot open.
func TestExitStatusFromOutside(t *testing.T) {
	good := filepath.Join("steps", "bootcheck", "testdata", "istio", "all_golden.json")
	if code, out, errOut := runBinary(t, "validate", good); code != 0 {
		t.Errorf("validate %s: exit %d\n%s%s", good, code, out, errOut)
	}
	bad := filepath.Join("steps", "bootcheck", "testdata", "envoy", "invalid", "local_admin_host_name.yaml")
	code, out, _ := runBinary(t, "validate", bad)
	if code != 1 || !strings.Contains(out, bad+":") {
		t.Errorf("validate %s: exit %d, want 1 and the file named\n%s", bad, code, out)
	}
	code, out, errOut := runBinary(t)
	if code != 2 || errOut == "" || out != "" {
		t.Errorf("tutorial without a terminal: exit %d, stdout %q, stderr %q; want 2 and a message on stderr", code, out, errOut)
	}
}

// BenchmarkValidateProcess is the wall time a learner waits for `ist2-boot validate` on a 21 KB
// bootstrap as Istio's pilot-agent writes it: process start, package init (the Envoy API registry,
// the markdown stack), protobuf's first-use set-up, and the validation itself.
func BenchmarkValidateProcess(b *testing.B) {
	bin := binary(b)
	file := filepath.Join("steps", "bootcheck", "testdata", "istio", "all_golden.json")
	for b.Loop() {
		if out, err := exec.Command(bin, "validate", file).CombinedOutput(); err != nil {
			b.Fatalf("validate: %v\n%s", err, out)
		}
	}
}

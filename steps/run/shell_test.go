package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ist2-boot/steps/steptest"
)

// The newcomer review's M2: in the s shell, `ist2-boot` is the program that opened it.
func TestTheShellHasUsOnItsPath(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := steptest.Env(t, "/usr/bin:/bin")
	cmd := ShellCommand(env, steptest.Lesson(t), nil)
	for _, kv := range cmd.Env {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			if first := filepath.SplitList(p)[0]; first != filepath.Dir(exe) {
				t.Errorf("PATH starts with %s, not %s", first, filepath.Dir(exe))
			}
			return
		}
	}
	t.Error("no PATH")
}

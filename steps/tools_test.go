package steps_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ist2-boot/steps"
	"ist2-boot/steps/steptest"
)

// A program reachable from two PATH entries that are one directory (/bin and /usr/bin on Debian)
// is asked its version once: a refused tool (Debian's yq, a Python program) used to be asked twice
// at every start.
func TestAToolIsAskedOnceThroughTwoPaths(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "asked.log")
	steptest.WriteFile(t, filepath.Join(real, "yq"), "#!/bin/sh\necho asked >> "+log+"\necho 'yq 0.0.1 (a jq wrapper)'\n")
	if err := os.Chmod(filepath.Join(real, "yq"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := steptest.Env(t, real+string(os.PathListSeparator)+link)
	spec, _ := steptest.Lesson(t).Tool("yq")
	got := steps.FindTools(env, []steps.ToolSpec{spec})
	if got.Get("yq").Found {
		t.Fatalf("a yq that is not mikefarah's was taken: %+v", got)
	}
	if n := strings.Count(steptest.ReadFile(t, log), "asked"); n != 1 {
		t.Errorf("asked %d times", n)
	}
}

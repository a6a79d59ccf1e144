package check

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"ist2-boot/steps/steptest"
)

// A FIFO in place of a learner file is judged at once (not a regular file), not waited on.
func TestAFIFOAsALearnerFileIsRefusedAtOnce(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, steptest.PathWithout("envoy"))
	if err := syscall.Mkfifo(filepath.Join(env.WorkDir, "02-env.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan FileResult, 1)
	go func() { done <- fileResult(t, l, env, "02-env.txt") }()
	select {
	case r := <-done:
		if r.Status != Fail || r.Reason.Key != "reason.not_regular" {
			t.Errorf("%s %s", r.Status, r.Reason.Key)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the check waits on the FIFO")
	}
}

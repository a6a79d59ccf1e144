package steps

import (
	"context"
	"os/exec"
	"testing"
	"time"
)

// The hostile report's M4: a child that leaves a grandchild holding its output ends at the time
// limit all the same, group and all; a flood is kept to the cap.
func TestOutputHoldsItsBounds(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	began := time.Now()
	_, _, err := Output(exec.CommandContext(ctx, "sh", "-c", "sleep 60 & echo started; sleep 60"), 1024)
	if err == nil || time.Since(began) > 5*time.Second {
		t.Errorf("a held pipe: %v after %s", err, time.Since(began))
	}
	out, truncated, err := Output(exec.CommandContext(context.Background(), "sh", "-c", "head -c 50000000 /dev/zero"), 4096)
	if err != nil || len(out) != 4096 || !truncated {
		t.Errorf("a flood: %d bytes kept, truncated %v, %v", len(out), truncated, err)
	}
}

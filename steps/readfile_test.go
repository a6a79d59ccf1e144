package steps_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"ist2-boot/steps"
)

// within fails the test when fn has not returned after d (a read that hangs on a FIFO).
func within(t *testing.T, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { fn(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still reading after %v", d)
	}
}

// Nothing but a regular file is read, and never more than the limit and a byte: a FIFO with no
// writer does not hang it, /dev/zero does not grow it, a directory is not a file.
func TestReadRegularFileRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, "/dev/zero", dir} {
		within(t, 3*time.Second, func() {
			if _, err := steps.ReadRegularFile(path, 1<<20); !errors.Is(err, steps.ErrNotRegular) {
				t.Errorf("%s: %v", path, err)
			}
		})
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 11), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := steps.ReadRegularFile(big, 10); !errors.Is(err, steps.ErrTooBig) {
		t.Errorf("11 bytes, limit 10: %v", err)
	}
	if data, err := steps.ReadRegularFile(big, 11); err != nil || len(data) != 11 {
		t.Errorf("11 bytes, limit 11: %d %v", len(data), err)
	}
}

package watch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// A burst of writes to a file (an editor's save) is one change, reported after the burst ends;
// two files changed together come as one batch.
func TestABurstIsOneChange(t *testing.T) {
	dir := t.TempDir()
	w, err := New(dir, 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	file := filepath.Join(dir, "02-env.txt")
	start := time.Now()
	for i := 0; i < 5; i++ {
		if err := os.WriteFile(file, []byte(time.Now().String()), 0o644); err != nil {
			t.Fatal(err)
		}
		time.Sleep(40 * time.Millisecond)
	}
	os.WriteFile(filepath.Join(dir, "03-mesh.txt"), []byte("x"), 0o644)
	select {
	case names := <-w.Changes:
		if !slices.Equal(names, []string{"02-env.txt", "03-mesh.txt"}) {
			t.Errorf("changes %v", names)
		}
		if since := time.Since(start); since < 250*time.Millisecond {
			t.Errorf("reported after %v, before the burst ended", since)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no change reported")
	}
	select {
	case names := <-w.Changes:
		t.Errorf("a second report for the same burst: %v", names)
	case <-time.After(300 * time.Millisecond):
	}
}

// Close ends the watch: Changes is closed.
func TestCloseEndsTheWatch(t *testing.T) {
	w, err := New(t.TempDir(), 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	select {
	case _, ok := <-w.Changes:
		if ok {
			t.Error("a change after Close")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Changes not closed")
	}
}

package watch

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
)

// A burst of writes to a file (an editor's save) is one change, reported after the burst ends;
// two files changed together come as one batch.
func TestABurstIsOneChange(t *testing.T) {
	dir := t.TempDir()
	w, err := New(dir, 400*time.Millisecond) // ten times the burst's gaps: still one under load
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	file := filepath.Join(dir, "02-env.txt")
	start := time.Now()
	for i := 0; i < 5; i++ {
		if i > 0 {
			time.Sleep(40 * time.Millisecond)
		}
		if err := os.WriteFile(file, []byte(time.Now().String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "03-mesh.txt"), []byte("x"), 0o644) // with the burst's last write
	select {
	case names := <-w.Changes:
		if !slices.Equal(names, []string{"02-env.txt", "03-mesh.txt"}) {
			t.Errorf("changes %v", names)
		}
		if since := time.Since(start); since < 560*time.Millisecond {
			t.Errorf("reported after %v, before the burst ended", since)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no change reported")
	}
	select {
	case names := <-w.Changes:
		t.Errorf("a second report for the same burst: %v", names)
	case <-time.After(800 * time.Millisecond):
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

// D8: a file written all the time (section 6's Envoy writes envoy.log) delays no other file: each
// has its own quiet time.
func TestABusyFileDelaysNoOther(t *testing.T) {
	dir := t.TempDir()
	w, err := New(dir, 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(30 * time.Millisecond):
				f, _ := os.OpenFile(filepath.Join(dir, "envoy.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
				f.WriteString("warn\n")
				f.Close()
			}
		}
	}()
	time.Sleep(100 * time.Millisecond)
	os.WriteFile(filepath.Join(dir, "bootstrap.yaml"), []byte("x"), 0o644)
	deadline := time.After(3 * time.Second)
	for {
		select {
		case names := <-w.Changes:
			if slices.Contains(names, "bootstrap.yaml") {
				return
			}
		case <-deadline:
			t.Fatal("bootstrap.yaml starved by envoy.log")
		}
	}
}

// D9: the dir deleted is said (DirGone); made again, it is watched again (DirBack) and its files
// are reported as before.
func TestTheDirGoesAndComesBack(t *testing.T) {
	defer func(d time.Duration) { regainEvery = d }(regainEvery)
	regainEvery = 50 * time.Millisecond
	parent := t.TempDir()
	dir := filepath.Join(parent, "work")
	os.Mkdir(dir, 0o755)
	w, err := New(dir, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	expect := func(want string) {
		t.Helper()
		deadline := time.After(3 * time.Second)
		for {
			select {
			case names := <-w.Changes:
				if slices.Contains(names, want) {
					return
				}
			case <-deadline:
				t.Fatalf("no %q", want)
			}
		}
	}
	os.RemoveAll(dir)
	expect(DirGone)
	os.Mkdir(dir, 0o755)
	expect(DirBack)
	os.WriteFile(filepath.Join(dir, "02-env.txt"), []byte("x"), 0o644)
	expect("02-env.txt")
}

// D21: a burst of many names keeps a bounded set: the batch says Overflow past the bound.
func TestManyNamesAreBounded(t *testing.T) {
	dir := t.TempDir()
	w, err := New(dir, 3*time.Second) // all the names pending at once
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i := 0; i < maxPending+200; i++ {
		os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(i)), nil, 0o644)
	}
	deadline := time.After(20 * time.Second)
	total := 0
	for {
		select {
		case names := <-w.Changes:
			total += len(names)
			if slices.Contains(names, Overflow) {
				if total > maxPending+1 {
					t.Errorf("%d names reported, bound %d", total, maxPending)
				}
				return
			}
		case <-deadline:
			t.Fatal("no Overflow")
		}
	}
}

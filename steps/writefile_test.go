package steps

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// D1: a path the learner names is written through or refused, never replaced. A link keeps being
// a link (its target gets the text); an existing file keeps its mode; a FIFO is written through; a
// directory is refused; "-" is standard output.
func TestWriteOutputNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.md")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteOutput(link, []byte("new"), nil); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced")
	}
	if got, _ := os.ReadFile(target); string(got) != "new" {
		t.Errorf("target: %q", got)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, was 0600", fi.Mode().Perm())
	}
	if err := WriteOutput(dir, []byte("x"), nil); err == nil {
		t.Error("a directory was written")
	}
	var out bytes.Buffer
	if err := WriteOutput("-", []byte("to stdout"), &out); err != nil || out.String() != "to stdout" {
		t.Errorf("-: %v %q", err, out.String())
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		b := make([]byte, 64)
		n, _ := f.Read(b)
		got <- b[:n]
	}()
	if err := WriteOutput(fifo, []byte("through"), nil); err != nil {
		t.Fatal(err)
	}
	select {
	case b := <-got:
		if string(b) != "through" {
			t.Errorf("fifo read %q", b)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("nothing came through the FIFO")
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&os.ModeNamedPipe == 0 {
		t.Error("the FIFO was replaced")
	}
}

// D1 as root, where the lab pod runs: device nodes stay devices; /dev/full's ENOSPC is an error.
func TestWriteOutputThroughDevices(t *testing.T) {
	dir := t.TempDir()
	null, full := filepath.Join(dir, "null"), filepath.Join(dir, "full")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		if os.Geteuid() != 0 {
			t.Skip("mknod needs root (CI and the lab pod run as root)")
		}
		t.Fatal(err)
	}
	if err := syscall.Mknod(full, syscall.S_IFCHR|0o666, 1<<8|7); err != nil {
		t.Fatal(err)
	}
	if err := WriteOutput(null, []byte("report"), nil); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(null); fi.Mode()&os.ModeCharDevice == 0 {
		t.Error("the device node was replaced by a file")
	}
	err := WriteOutput(full, []byte("report"), nil)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("/dev/full: %v, want ENOSPC", err)
	}
	if fi, _ := os.Lstat(full); fi.Mode()&os.ModeCharDevice == 0 {
		t.Error("/dev/full was replaced by a file")
	}
}

// Our own files: what stands at the path must be a regular file; a link or a device is refused.
func TestWriteFileAtomicRefusesOtherKinds(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	link := filepath.Join(dir, "progress.json")
	os.Symlink(victim, link)
	if err := WriteFileAtomic(link, []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("a link: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Error("written through a link")
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced")
	}
}

// Hostile L2: what -o names is written through as `>` would: a hard link stays one file, a pipe
// behind a /proc magic link (/dev/stdout in a pipeline) is written, and a FIFO nobody reads is
// said, not waited on for ever.
func TestWriteOutputWritesThrough(t *testing.T) {
	dir := t.TempDir()
	one, two := filepath.Join(dir, "hl1"), filepath.Join(dir, "hl2")
	os.WriteFile(one, []byte("old"), 0o644)
	if err := os.Link(one, two); err != nil {
		t.Skip("no hard links:", err)
	}
	if err := WriteOutput(one, []byte("new"), nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(two); string(got) != "new" {
		t.Errorf("the other link reads %q: the file was replaced, not written", got)
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	magic := fmt.Sprintf("/proc/self/fd/%d", w.Fd())
	if err := WriteOutput(magic, []byte("piped"), nil); err != nil {
		t.Fatalf("into a pipe: %v", err)
	}
	w.Close()
	if got, _ := io.ReadAll(r); string(got) != "piped" {
		t.Errorf("the pipe read %q", got)
	}

	fifo := filepath.Join(dir, "lonely")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	old := fifoWait
	fifoWait = 200 * time.Millisecond
	defer func() { fifoWait = old }()
	done := make(chan error, 1)
	go func() { done <- WriteOutput(fifo, []byte("x"), nil) }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "nobody reads") {
			t.Errorf("a FIFO without a reader: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("waits for ever on a FIFO nobody reads")
	}
}

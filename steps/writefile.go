package steps

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// WriteFileAtomic writes a regular file of ours through a temp file in the same directory renamed
// into place, so a reader never sees half a file. What is at path already must be a regular file
// (not a link, a device, a FIFO or a directory): anything else is refused, never replaced. An
// existing file keeps its mode; a new one gets perm.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	if fi, err := os.Lstat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("%s: %w: refused, not replaced", path, ErrNotRegular)
		}
		perm = fi.Mode().Perm()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr, os.Chmod(tmp.Name(), perm)); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// WriteOutput writes a file the learner names (report -o) as `>` would, never replacing it: "-"
// is standard output; links are followed (/dev/stdout's included); what exists — a regular file,
// a device, a FIFO — is written through, so a hard link, the owner and the mode stay and a file
// the user may not write is refused by the system; a new file is created whole (temp file, then
// rename); a directory is refused. A FIFO nobody reads is said after fifoWait, not waited on.
func WriteOutput(path string, data []byte, stdout io.Writer) error {
	if path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if dest, lerr := os.Readlink(path); lerr == nil { // a dangling link: create what it names
			if !filepath.IsAbs(dest) {
				dest = filepath.Join(filepath.Dir(path), dest)
			}
			return WriteFileAtomic(dest, data, 0o644)
		}
		return WriteFileAtomic(path, data, 0o644)
	case err != nil:
		return err
	case fi.IsDir():
		return fmt.Errorf("%s: is a directory: name a file", path)
	}
	f, err := openThrough(path, fi)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	return errors.Join(werr, f.Close())
}

// What WriteOutput refuses of its own: a path swapped for another kind of file while it was
// opened, and a FIFO nobody reads within fifoWait (the callers say these in the user's words).
var (
	ErrChangedWhileOpened = errors.New("changed while it was opened: refused, not replaced")
	ErrNoReader           = errors.New("a FIFO nobody reads")
)

// FIFOWait is how long WriteOutput waits for a FIFO's reader.
func FIFOWait() time.Duration { return fifoWait }

// fifoWait is how long WriteOutput waits for a FIFO's reader.
var fifoWait = 10 * time.Second

// openThrough opens what exists at path for writing, without creating anything: a regular file is
// truncated as `>` truncates it; a FIFO is opened only once it has a reader.
func openThrough(path string, fi os.FileInfo) (*os.File, error) {
	// Opened without blocking, and held to the kind stat saw: a FIFO swapped in after the stat
	// cannot hang the write, nor a regular file's truncation reach something else.
	flags := os.O_WRONLY | syscall.O_NOCTTY | syscall.O_NONBLOCK
	if fi.Mode().IsRegular() {
		flags |= os.O_TRUNC
	}
	deadline := time.Now().Add(fifoWait)
	for {
		f, err := os.OpenFile(path, flags, 0)
		if err == nil {
			if now, serr := f.Stat(); serr != nil || now.Mode().Type() != fi.Mode().Type() {
				f.Close()
				return nil, fmt.Errorf("%s: %w", path, ErrChangedWhileOpened)
			}
			return f, syscall.SetNonblock(int(f.Fd()), false)
		}
		if fi.Mode()&fs.ModeNamedPipe == 0 || !errors.Is(err, syscall.ENXIO) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s: %w (waited %v)", path, ErrNoReader, fifoWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

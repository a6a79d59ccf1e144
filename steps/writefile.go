package steps

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
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

// WriteOutput writes a file the learner names (report -o): "-" is standard output; a link is
// followed to what it names; a device or a FIFO is written through, as `>` would (a full device is
// an error); a regular file is replaced atomically, keeping its mode; a directory is refused.
// Nothing the learner named is ever replaced by something of another kind.
func WriteOutput(path string, data []byte, stdout io.Writer) error {
	if path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	target, err := filepath.EvalSymlinks(path)
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
	}
	fi, err := os.Stat(target)
	if err != nil {
		return err
	}
	switch {
	case fi.Mode().IsRegular():
		return WriteFileAtomic(target, data, fi.Mode().Perm())
	case fi.IsDir():
		return fmt.Errorf("%s: is a directory: name a file", path)
	}
	// A device, a FIFO, a socket: written through, never created or truncated by us.
	f, err := os.OpenFile(target, os.O_WRONLY|syscall.O_NOCTTY, 0)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	return errors.Join(werr, f.Close())
}

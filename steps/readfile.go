package steps

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"ist2-boot/steps/i18n"
)

// ErrNotRegular: the path is a FIFO, a device, a directory or a socket. Reading one could hang (a
// FIFO with no writer) or never end (/dev/zero), so nothing of the kind is opened for reading.
var ErrNotRegular = errors.New("not a regular file")

// ErrDirectory is ErrNotRegular for a directory, which a reason can name as such (ko r14 L14).
var ErrDirectory = fmt.Errorf("a directory: %w", ErrNotRegular)

// ErrTooBig: the file is larger than the reader's limit; no more than limit+1 bytes were read.
var ErrTooBig = errors.New("larger than the limit")

// ReadRegularFile reads a regular file of at most limit bytes. It refuses anything else before
// opening it, opens without blocking (a FIFO swapped in after the check cannot hang it), checks the
// opened file again, and never reads more than limit+1 bytes. A missing file is fs.ErrNotExist.
func ReadRegularFile(path string, limit int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s: %w", path, ErrDirectory)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: %w of %d bytes", path, ErrTooBig, limit)
	}
	return data, nil
}

// NotRegularReason says that file is not a regular file: a directory as a directory.
func NotRegularReason(file string, err error) i18n.Msg {
	if errors.Is(err, ErrDirectory) {
		return i18n.M("reason.is_dir", "file", file)
	}
	return i18n.M("reason.not_regular", "file", file)
}

// ReadProblem is why a file the learner named could not be read, in words: not there, not a
// regular file, too big, else the system's error (validate and control-plane say it alike).
func ReadProblem(file string, err error) i18n.Msg {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return i18n.M("doctor.file_missing", "file", file)
	case errors.Is(err, ErrNotRegular):
		return NotRegularReason(file, err)
	case errors.Is(err, ErrTooBig):
		return i18n.M("reason.too_big", "file", file)
	}
	return i18n.M("reason.unreadable", append([]string{"file", file}, i18n.ErrorArgs("error", err)...)...)
}

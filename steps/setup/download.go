package setup

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// downloadAttempts is how often a download broken off mid-body is resumed before setup gives up
// (the part file stays for the next setup to resume).
const downloadAttempts = 4

// stallTimeout ends a download that has received nothing for this long.
var stallTimeout = 60 * time.Second

// The slowest a download may go: less than minBytesPerWindow in a window of rateWindow ends it
// (a server sending a byte every few seconds would never finish), and downloadDeadline bounds it
// whole.
// (Variables, so the tests can shorten them.)
var (
	rateWindow        = 60 * time.Second
	minBytesPerWindow = int64(256 << 10)
	downloadDeadline  = 30 * time.Minute
)

// Errors a download ends with, each said to the learner.
var (
	errTooBig   = errors.New("the server sent more than the pinned size")
	errTooSlow  = errors.New("the download was too slow (under 256 KiB a minute)")
	errPartKind = errors.New("the part file is not a regular file of its own (a link, or hard-linked): setup did not make it; remove it")
	errStalled  = errors.New("no data for a minute")
)

// errStatus is a server's refusal (404, 500…).
type errStatus struct {
	url  string
	code int
}

func (e errStatus) Error() string { return fmt.Sprintf("HTTP %d", e.code) }

// download fetches url into part, resuming what part already holds (an interrupted setup, or a
// connection broken mid-body in this one), and reports bytes as they come: done and total (total
// is 0 where the server does not say). A server that ignores the range starts the file again; one
// that answers a range with another is asked again without one. Never more than limit bytes.
func download(ctx context.Context, client *http.Client, url, part string, limit int64, progress func(done, total int64)) error {
	ctx, cancel := context.WithTimeout(ctx, downloadDeadline)
	defer cancel()
	var err error
	fresh := false
	for attempt := 0; attempt < downloadAttempts; attempt++ {
		err = downloadOnce(ctx, client, url, part, limit, fresh, progress)
		if err == nil || ctx.Err() != nil {
			return err
		}
		var status errStatus
		var uerr *neturl.Error
		switch {
		case errors.As(err, &uerr) && uerr.Timeout():
			return err // no answer in time (headers): asking again would only wait as long again
		case errors.As(err, &status) && status.code == http.StatusPartialContent:
			fresh = true // a 206 for another range: the whole file, from the start
		case errors.Is(err, errTooBig):
			removeOwnPart(part) // not the pinned file, whatever it holds: nothing to resume
			return err
		case errors.As(err, &status), errors.Is(err, errTooSlow), errors.Is(err, errPartKind), errors.Is(err, errStalled):
			return err // asking again will not change it (a server silent for a minute stays so)
		}
	}
	return err
}

// removeOwnPart deletes the part file where it is still a regular file of its own.
func removeOwnPart(part string) {
	if fi, err := os.Lstat(part); err == nil && fi.Mode().IsRegular() && linkCount(fi) == 1 {
		_ = os.Remove(part)
	}
}

// openPart opens the part file for writing without following a link (O_NOFOLLOW) and refuses
// anything but a regular file at that path: a planted link or device is not written through.
func openPart(part string, flags int) (*os.File, error) {
	f, err := os.OpenFile(part, flags|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if errors.Is(err, syscall.ELOOP) {
		return nil, errPartKind
	}
	if err != nil {
		return nil, err
	}
	// A hard link would be written through to a file that is not ours (hostile L3).
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || linkCount(fi) > 1 {
		f.Close()
		return nil, errPartKind
	}
	return f, nil
}

// linkCount is a file's number of hard links (1 where the system does not say).
func linkCount(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

func downloadOnce(ctx context.Context, client *http.Client, url, part string, limit int64, fresh bool, progress func(done, total int64)) error {
	have := int64(0)
	if fi, err := os.Lstat(part); err == nil {
		if !fi.Mode().IsRegular() {
			return errPartKind
		}
		if !fresh {
			have = fi.Size()
		}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	if have > 0 {
		req.Header.Set("Range", "bytes="+strconv.FormatInt(have, 10)+"-")
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	flags := os.O_CREATE | os.O_WRONLY
	switch {
	case resp.StatusCode == http.StatusRequestedRangeNotSatisfiable && have > 0:
		return nil // the part is the whole file already: the checksum will tell
	case resp.StatusCode == http.StatusPartialContent && have > 0 && strings.HasPrefix(resp.Header.Get("Content-Range"), fmt.Sprintf("bytes %d-", have)):
		flags |= os.O_APPEND
	case resp.StatusCode == http.StatusOK:
		flags |= os.O_TRUNC
		have = 0
	default:
		return errStatus{url: url, code: resp.StatusCode}
	}
	total := int64(0)
	if resp.ContentLength > 0 {
		total = have + resp.ContentLength
	}
	if total > limit {
		return errTooBig
	}
	f, err := openPart(part, flags)
	if err != nil {
		return err
	}
	defer f.Close()
	// A stalled connection is cut after stallTimeout without a byte; each read pushes it back.
	stall := time.AfterFunc(stallTimeout, func() { cancel(errStalled) })
	defer stall.Stop()
	progress(have, total)
	buf := make([]byte, 64<<10)
	windowStart, windowBytes := time.Now(), int64(0)
	for {
		n, rerr := resp.Body.Read(buf)
		if n > 0 {
			stall.Reset(stallTimeout)
			if have+int64(n) > limit {
				return errTooBig
			}
			if _, err := f.Write(buf[:n]); err != nil {
				return err
			}
			have += int64(n)
			windowBytes += int64(n)
			progress(have, total)
		}
		if time.Since(windowStart) >= rateWindow {
			if windowBytes < minBytesPerWindow {
				return errTooSlow
			}
			windowStart, windowBytes = time.Now(), 0
		}
		if rerr == io.EOF {
			if total > 0 && have < total {
				return io.ErrUnexpectedEOF
			}
			return f.Sync()
		}
		if rerr != nil {
			if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil && !errors.Is(cause, context.Canceled) {
				return cause
			}
			return rerr
		}
	}
}

// fileSHA256 is the hex sha256 of a file, reporting the bytes read as it goes (a file of
// gigabytes is not a silent wait).
func fileSHA256(path string, progress func(done, total int64)) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	total := int64(0)
	if fi, err := f.Stat(); err == nil {
		total = fi.Size()
	}
	h := sha256.New()
	buf := make([]byte, 1<<20)
	done, last := int64(0), time.Time{}
	for {
		n, err := f.Read(buf)
		h.Write(buf[:n])
		done += int64(n)
		if progress != nil && time.Since(last) > 200*time.Millisecond {
			last = time.Now()
			progress(done, total)
		}
		if err == io.EOF {
			return hex.EncodeToString(h.Sum(nil)), nil
		}
		if err != nil {
			return "", err
		}
	}
}

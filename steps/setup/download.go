package setup

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// downloadAttempts is how often a download broken off mid-body is resumed before setup gives up
// (the part file stays for the next setup to resume).
const downloadAttempts = 4

// stallTimeout ends a download that has received nothing for this long.
const stallTimeout = 60 * time.Second

// errStatus is a server's refusal (404, 500…).
type errStatus struct {
	url  string
	code int
}

func (e errStatus) Error() string { return fmt.Sprintf("HTTP %d", e.code) }

// download fetches url into part, resuming what part already holds (an interrupted setup, or a
// connection broken mid-body in this one), and reports bytes as they come: done and total (total
// is 0 where the server does not say). A server that ignores the range starts the file again.
func download(ctx context.Context, client *http.Client, url, part string, progress func(done, total int64)) error {
	var err error
	for attempt := 0; attempt < downloadAttempts; attempt++ {
		if err = downloadOnce(ctx, client, url, part, progress); err == nil || ctx.Err() != nil {
			return err
		}
		var status errStatus
		if errors.As(err, &status) {
			return err // the server said no: asking again will not change it
		}
	}
	return err
}

func downloadOnce(ctx context.Context, client *http.Client, url, part string, progress func(done, total int64)) error {
	have := int64(0)
	if fi, err := os.Stat(part); err == nil && fi.Mode().IsRegular() {
		have = fi.Size()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
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
	f, err := os.OpenFile(part, flags, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	// A stalled connection is cut after stallTimeout without a byte; each read pushes it back.
	stall := time.AfterFunc(stallTimeout, cancel)
	defer stall.Stop()
	progress(have, total)
	buf := make([]byte, 64<<10)
	for {
		n, rerr := resp.Body.Read(buf)
		if n > 0 {
			stall.Reset(stallTimeout)
			if _, err := f.Write(buf[:n]); err != nil {
				return err
			}
			have += int64(n)
			progress(have, total)
		}
		if rerr == io.EOF {
			if total > 0 && have < total {
				return io.ErrUnexpectedEOF
			}
			return f.Sync()
		}
		if rerr != nil {
			return rerr
		}
	}
}

// fileSHA256 is the hex sha256 of a file.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

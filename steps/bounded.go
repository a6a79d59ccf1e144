package steps

import (
	"bytes"
	"os/exec"
	"syscall"
	"time"
)

// Output runs a command made by exec.CommandContext as every short child of ours runs: in its own
// process group, the whole group killed when its context ends (a child that keeps the output open neither hangs us nor
// outlives the call: WaitDelay), its stdout and stderr together kept to limit bytes (the rest read
// and dropped). truncated says the cap was reached.
func Output(cmd *exec.Cmd, limit int) (out []byte, truncated bool, err error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	w := &cappedWriter{limit: limit}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		return nil, false, err
	}
	err = cmd.Wait()
	return w.buf.Bytes(), w.dropped, err
}

// cappedWriter keeps the first limit bytes written to it.
type cappedWriter struct {
	buf     bytes.Buffer
	limit   int
	dropped bool
}

func (w *cappedWriter) Write(p []byte) (int, error) {
	if room := w.limit - w.buf.Len(); room < len(p) {
		w.dropped = true
		if room > 0 {
			w.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return w.buf.Write(p)
}

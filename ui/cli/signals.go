package cli

import (
	"context"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// signalContext is a context ended by TERM, INT, HUP or QUIT — a command that starts processes stops
// their groups when it ends — and the exit code the signal asks for (128+n; 0 while none came).
func signalContext() (ctx context.Context, code func() int, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT)
	var got atomic.Int32
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			got.Store(int32(s.(syscall.Signal)))
			cancel()
		case <-done:
		}
	}()
	code = func() int {
		if n := got.Load(); n != 0 {
			return 128 + int(n)
		}
		return 0
	}
	return ctx, code, func() { signal.Stop(sigs); close(done); cancel() }
}

package drill

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The hostile report's M3: a drill cancelled while its Envoy starts (a signal, q) stops that
// Envoy and removes its temp dir before returning.
func TestACancelledStartLeavesNothing(t *testing.T) {
	envoy, err := filepath.Abs("../testdata/silentenvoy/envoy") // never answers on its admin port
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	began := time.Now()
	if _, _, _, ok := envoyStart(ctx, envoy, string(base(t))); ok {
		t.Fatal("a silent Envoy answered")
	}
	if took := time.Since(began); took > 7*time.Second {
		t.Errorf("the cancelled start took %s", took)
	}
	if left, _ := filepath.Glob(filepath.Join(os.Getenv("TMPDIR"), "ist2-boot-drill-*")); len(left) > 0 {
		t.Errorf("temp dirs left: %v", left)
	}
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if raw, err := os.ReadFile(p); err == nil && strings.Contains(string(raw), envoy) && strings.Contains(string(raw), os.Getenv("TMPDIR")) {
			t.Errorf("the drill's Envoy still runs: %s", strings.ReplaceAll(string(raw), "\x00", " "))
		}
	}
}

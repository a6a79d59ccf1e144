package sidecar

import (
	"strings"
	"testing"
	"time"
)

// The lab's startup probe: every second, killed after 600 failures (the fixtures' injection).
var labProbe = Probe{Period: time.Second, Threshold: 600}

var labProxy = Proxy{Shape: Classic, Probe: labProbe}

// Each pod row at a moment, worked by hand from kubelet's rules. A rejected proxy starts at 3 s,
// exits 0.8 s later, is restarted at once (4.8 s), then after back-offs of 10, 20, 40, 80, 160 s
// counted from each exit: starts 15.6, 36.4, 77.2, 158, 318.8 s. A proxy that never gets ready is
// killed after 600 probes and pilot-agent's 5 s drain (ends 608 s), started again a second later
// (609 s), killed again (1214 s), started again (1215 s).
func TestPodRowsFromKubeletsRules(t *testing.T) {
	for _, tt := range []struct {
		shape   Shape
		failure Failure
		age     time.Duration
		row     string
	}{
		{Classic, Rejected, 180 * time.Second, "1/2 CrashLoopBackOff 5 (21s ago) 3m"},
		{Native, Rejected, 180 * time.Second, "0/2 Init:CrashLoopBackOff 5 (21s ago) 3m"},
		{Classic, Rejected, 318*time.Second + 900*time.Millisecond, "1/2 Running 6 (2m40s ago) 5m18s"},
		{Classic, NotReady, 200 * time.Second, "1/2 Running 0 3m20s"},
		{Native, NotReady, 200 * time.Second, "0/2 Init:1/2 0 3m20s"},
		{Classic, NotReady, 1500 * time.Second, "1/2 Running 2 (4m46s ago) 25m"},
		{Native, NotReady, 1500 * time.Second, "0/2 Init:1/2 2 (4m54s ago) 25m"}, // the preStop drained it: it stops in a second
	} {
		m := At(tt.failure, Proxy{Shape: tt.shape, Probe: labProbe}, tt.age)
		ready, reason, restarts := m.Pod("p", tt.shape, tt.failure).Row()
		got := strings.Join([]string{ready, reason, restarts, HumanDuration(tt.age)}, " ")
		if got != tt.row {
			t.Errorf("%s %d at %s: %s, want %s", tt.shape, tt.failure, tt.age, got, tt.row)
		}
	}
}

// The back-off doubles to 5 minutes and stays there.
func TestBackOffCaps(t *testing.T) {
	runs := Runs(Rejected, labProxy, 2*time.Hour)
	var gaps []time.Duration
	for i := 1; i < len(runs); i++ {
		gaps = append(gaps, runs[i].Start-runs[i-1].End)
	}
	want := []time.Duration{time.Second, 10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second, 160 * time.Second, 300 * time.Second, 300 * time.Second}
	for i, w := range want {
		if gaps[i] != w {
			t.Fatalf("gap %d: %s, want %s (all: %v)", i, gaps[i], w, gaps[:len(want)])
		}
	}
	for _, g := range gaps[len(want):] {
		if g != 300*time.Second {
			t.Fatalf("a gap of %s after the cap", g)
		}
	}
}

// The recorder stores the refused probe at once, then nothing for five minutes: pilot-agent's 503
// (Envoy LIVE at 30 s) is dropped until a token comes back. A rejected pod has only the back-off.
func TestWarningEvents(t *testing.T) {
	at := func(f Failure, age, live time.Duration) []Event {
		return WarningEvents(f, labProxy, age, live, "10.0.0.7", "p_ns(uid)", func() bool { return false })
	}
	refused := `Startup probe failed: Get "http://10.0.0.7:15021/healthz/ready": dial tcp 10.0.0.7:15021: connect: connection refused`
	if e := at(NotReady, 4*time.Minute, 30*time.Second); len(e) != 1 || e[0].Message != refused {
		t.Errorf("at 4m: %v", e)
	}
	if e := at(NotReady, 6*time.Minute, 30*time.Second); len(e) != 2 || e[1].Message != "Startup probe failed: HTTP probe failed with statuscode: 503" {
		t.Errorf("at 6m: %v", e)
	}
	if e := at(NotReady, time.Hour, 0); len(e) != 1 || e[0].Message != refused {
		t.Errorf("never LIVE, an hour in: %v", e)
	}
	if e := at(Rejected, 5*time.Second, 0); len(e) != 0 {
		t.Errorf("before the first back-off: %v", e)
	}
	if e := at(Rejected, 3*time.Minute, 0); len(e) != 1 || e[0] != (Event{"BackOff", "Back-off restarting failed container istio-proxy in pod p_ns(uid)"}) {
		t.Errorf("rejected: %v", e)
	}
	if got := EventsTable(nil, "default"); got[0] != "No resources found in default namespace." {
		t.Errorf("%v", got)
	}
}

// describe's block: the current container, the one before (Completed, exit code 0 in both
// cases), Ready and the count; nothing before a restart.
func TestLastState(t *testing.T) {
	created := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	got := strings.Join(LastState(At(NotReady, labProxy, 1500*time.Second), created, NotReady), "\n")
	want := `    State:          Running
      Started:      Tue, 01 Dec 2026 09:20:15 +0000
    Last State:     Terminated
      Reason:       Completed
      Exit Code:    0
      Started:      Tue, 01 Dec 2026 09:10:09 +0000
      Finished:     Tue, 01 Dec 2026 09:20:14 +0000
    Ready:          False
    Restart Count:  2`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if l := LastState(At(NotReady, labProxy, 5*time.Minute), created, NotReady); l != nil {
		t.Errorf("before a restart: %v", l)
	}
}

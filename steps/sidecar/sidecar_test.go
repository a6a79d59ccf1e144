package sidecar

import (
	"strings"
	"testing"
	"time"
)

// The four pods as kubectl prints them: classic and native, rejected and not ready.
func TestPodRows(t *testing.T) {
	for _, tt := range []struct {
		shape                   Shape
		failure                 Failure
		ready, reason, restarts string
	}{
		{Classic, Rejected, "1/2", "CrashLoopBackOff", "4 (25s ago)"},
		{Classic, NotReady, "1/2", "Running", "0"},
		{Native, Rejected, "0/2", "Init:CrashLoopBackOff", "4 (25s ago)"},
		{Native, NotReady, "0/2", "Init:1/2", "0"},
	} {
		restarts := 0
		if tt.failure == Rejected {
			restarts = 4
		}
		ready, reason, rs := NewPod("p", tt.shape, tt.failure, restarts, "25s", "3m").Row()
		if ready != tt.ready || reason != tt.reason || rs != tt.restarts {
			t.Errorf("%s %d: %s %s %s, want %s %s %s", tt.shape, tt.failure, ready, reason, rs, tt.ready, tt.reason, tt.restarts)
		}
	}
}

// kubectl's tab writer: each column as wide as its widest cell plus 3.
func TestTable(t *testing.T) {
	got := Table(NewPod("payments-6d5f9-x7k2q", Native, Rejected, 4, "25s", "3m"))
	want := "NAME                   READY   STATUS                  RESTARTS      AGE\n" +
		"payments-6d5f9-x7k2q   0/2     Init:CrashLoopBackOff   4 (25s ago)   3m"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A rejection in serve mode: Envoy's critical line (two lines: the config proto's DebugString
// ends in a newline), the bare message, pilot-agent's exit line; never validate mode's words.
func TestRejection(t *testing.T) {
	at := time.Date(2026, 12, 1, 11, 20, 58, 123456789, time.UTC)
	got := Rejection(at, 21, DefaultLogFormat, "Unknown gRPC client cluster 'istiod-xds'")
	want := []string{
		"[2026-12-01 11:20:58.123][21][critical][main] [external/envoy/source/server/server.cc:…] error `Unknown gRPC client cluster 'istiod-xds'` initializing config 'goo.gle/debugproto",
		"  etc/istio/proxy/envoy-rev.json'",
		"Unknown gRPC client cluster 'istiod-xds'",
		"2026-12-01T11:20:58.130456Z\terror\tEnvoy exited with error: exit status 1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !AllowsUnknownFields(EnvoyArgs("warning", "misc:error", 2)) {
		t.Error("pilot-agent's flags lack --allow-unknown-static-fields")
	}
}

// Istio's own text format, once the bootstrap carrying it is applied.
func TestIstioFormat(t *testing.T) {
	l := EnvoyLine{At: time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC), Thread: 9, Level: "warning", Logger: "config", File: "x.cc", Msg: "m"}
	if got := l.Format("%Y-%m-%dT%T.%fZ\t%l\tenvoy %n %g:%#\t%v\tthread=%t"); got != "2026-01-02T03:04:05.000006Z\twarning\tenvoy config external/envoy/x.cc:…\tm\tthread=9" {
		t.Errorf("%q", got)
	}
}

package sidecar

import (
	"strings"
	"testing"
	"time"
)

// Each of pilot-agent's sentences comes from the counters as checkConfigStatus reads them,
// including the one that asks for istiod when every update was rejected.
func TestConfigStatus(t *testing.T) {
	for _, tt := range []struct {
		counts XDSCounts
		want   string
	}{
		{XDSCounts{}, "config not received from XDS server (is Istiod running?): cds updates: 0 successful, 0 rejected; lds updates: 0 successful, 0 rejected"},
		{XDSCounts{CDSRejected: 1, LDSRejected: 2}, "config not received from XDS server (is Istiod running?): cds updates: 0 successful, 1 rejected; lds updates: 0 successful, 2 rejected"},
		{XDSCounts{CDSRejected: 1, LDSSuccess: 1}, "config received from XDS server, but was rejected: cds updates: 0 successful, 1 rejected; lds updates: 1 successful, 0 rejected"},
		{XDSCounts{CDSSuccess: 1}, "config not fully received from XDS server: cds updates: 1 successful, 0 rejected; lds updates: 0 successful, 0 rejected"},
		{XDSCounts{CDSSuccess: 1, LDSSuccess: 1, LDSRejected: 3}, ""},
	} {
		if got := tt.counts.ConfigStatus(); got != tt.want {
			t.Errorf("%+v:\n got %q\nwant %q", tt.counts, got, tt.want)
		}
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if line := NotReadyLine(at, XDSCounts{CDSRejected: 1, LDSSuccess: 1}); !strings.HasSuffix(line, "\twarn\tEnvoy proxy is NOT ready: config received from XDS server, but was rejected: cds updates: 0 successful, 1 rejected; lds updates: 1 successful, 0 rejected") {
		t.Errorf("line: %q", line)
	}
	if line := NotReadyLine(at, XDSCounts{CDSSuccess: 1, LDSSuccess: 1}); line != "" {
		t.Errorf("ready counters logged %q", line)
	}
}

package sidecar

import (
	"strings"
	"testing"
	"time"
)

// A push's error joins its refusals as each API does: CDS with ", ", LDS one per line, ending in a
// newline; the counters count each push once, per type and outcome.
func TestUpdateErrorAndCounts(t *testing.T) {
	two := []Refused{{"a", "x"}, {"b", "y"}}
	if got := UpdateError(ClusterType, two); got != "Error adding/updating cluster(s) a: x, b: y" {
		t.Errorf("CDS: %q", got)
	}
	if got := UpdateError(ListenerType, two); got != "Error adding/updating listener(s) a: x\nb: y\n" {
		t.Errorf("LDS: %q", got)
	}
	var c XDSCounts
	c.Count(ClusterType, true)
	c.Count(ListenerType, false)
	c.Count(ListenerType, true)
	if c != (XDSCounts{CDSRejected: 1, LDSSuccess: 1, LDSRejected: 1}) {
		t.Errorf("%+v", c)
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	lines := PushRejected(at, 7, ListenerType, "m", true)
	if len(lines) != 2 || !strings.HasPrefix(lines[0].Msg, "delta config for ") || !strings.HasPrefix(lines[1].Msg, "gRPC config for ") {
		t.Errorf("%+v", lines)
	}
	if l := ResourceRejected(at, 7, ListenerType, Refused{"l", "r"}); l.Logger != "upstream" || l.Msg != "lds: listener 'l' config rejected: r" {
		t.Errorf("%+v", l)
	}
}

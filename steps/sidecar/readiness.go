package sidecar

import (
	"fmt"
	"time"
)

// XDSCounts are the four counters pilot-agent's readiness probe reads from Envoy's admin port
// (`/stats?usedonly&filter=^(cluster_manager\.cds|listener_manager\.lds)\.(update_success|update_rejected)$`,
// pilot/cmd/pilot-agent/status/util/stats.go:30-40, 104-127); a counter never used reads 0.
type XDSCounts struct {
	CDSSuccess  uint64 `json:"cds_success"`  // cluster_manager.cds.update_success
	CDSRejected uint64 `json:"cds_rejected"` // cluster_manager.cds.update_rejected
	LDSSuccess  uint64 `json:"lds_success"`  // listener_manager.lds.update_success
	LDSRejected uint64 `json:"lds_rejected"` // listener_manager.lds.update_rejected
}

// String is the counters as pilot-agent writes them into its reason (util/stats.go:62-64).
func (c XDSCounts) String() string {
	return fmt.Sprintf("cds updates: %d successful, %d rejected; lds updates: %d successful, %d rejected",
		c.CDSSuccess, c.CDSRejected, c.LDSSuccess, c.LDSRejected)
}

// ConfigStatus is the reason pilot-agent's probe gives for these counters, "" once both CDS and
// LDS have had a successful update (ready/probe.go:68-80, checkConfigStatus). Its first sentence
// depends on the successful counts only: with both at 0 it asks "is Istiod running?" even when
// every update was rejected, and only the counters' tail tells that case apart.
func (c XDSCounts) ConfigStatus() string {
	cds, lds := c.CDSSuccess > 0, c.LDSSuccess > 0
	switch {
	case cds && lds:
		return ""
	case !cds && !lds:
		return "config not received from XDS server (is Istiod running?): " + c.String()
	case c.LDSRejected > 0 || c.CDSRejected > 0:
		return "config received from XDS server, but was rejected: " + c.String()
	}
	return "config not fully received from XDS server: " + c.String()
}

// NotReadyLine is pilot-agent's line each time a readiness probe reaches it while the config
// status is not yet good (pilot/cmd/pilot-agent/status/server.go:539-546, handleReadyProbe),
// or "" when it is (then the probe goes on to Envoy's own state).
func NotReadyLine(at time.Time, c XDSCounts) string {
	reason := c.ConfigStatus()
	if reason == "" {
		return ""
	}
	return AgentLine(at, "warn", "Envoy proxy is NOT ready: "+reason)
}

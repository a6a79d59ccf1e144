package sidecar

import (
	"strings"
	"time"
)

// The type URLs of the two xDS types pilot-agent's readiness counts (CDS, LDS), as Envoy writes
// them in its lines.
const (
	ClusterType  = "type.googleapis.com/envoy.config.cluster.v3.Cluster"
	ListenerType = "type.googleapis.com/envoy.config.listener.v3.Listener"
)

// Refused is one resource of a push that Envoy refused, and why (Envoy's words for it).
type Refused struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// UpdateError is the error a push with refused resources ends in: the message Envoy logs for the
// rejected push and sends back to istiod in its NACK. CDS joins "<name>: <reason>" with ", "
// (source/common/upstream/cds_api_helper.cc:59-60, cds_api_impl.cc:109-111); LDS appends
// "<name>: <reason>\n" for each (source/common/listener_manager/lds_api.cc:87, :124-125), so its
// message ends in a newline.
func UpdateError(typeURL string, refused []Refused) string {
	var parts []string
	for _, r := range refused {
		parts = append(parts, r.Name+": "+r.Reason)
	}
	if typeURL == ListenerType {
		return "Error adding/updating listener(s) " + strings.Join(parts, "\n") + "\n"
	}
	return "Error adding/updating cluster(s) " + strings.Join(parts, ", ")
}

// ResourceRejected is the warning Envoy logs for each refused resource as it applies a push,
// logger upstream: `cds: cluster '<name>' config rejected: <reason>` (cds_api_helper.cc:57,
// :74) or `lds: listener '<name>' config rejected: <reason>` (lds_api.cc:88).
func ResourceRejected(at time.Time, thread int, typeURL string, r Refused) EnvoyLine {
	l := EnvoyLine{At: at, Thread: thread, Level: "warning", Logger: "upstream",
		File: "source/common/upstream/cds_api_helper.cc", Msg: "cds: cluster '" + r.Name + "' config rejected: " + r.Reason}
	if typeURL == ListenerType {
		l.File, l.Msg = "source/common/listener_manager/lds_api.cc", "lds: listener '"+r.Name+"' config rejected: "+r.Reason
	}
	return l
}

// PushRejected are the warnings Envoy logs, logger config, when it NACKs a push: over delta xDS
// first the delta state's `delta config for <type> rejected: <message>`
// (source/extensions/config_subscription/grpc/delta_subscription_state.cc:282), then — for either
// protocol, as the subscription counts update_rejected — `gRPC config for <type> rejected:
// <message>` (grpc_subscription_impl.cc:136-138; reached from grpc_mux_impl.cc:444-447 for
// state of the world, through watch_map.cc:307-309 for delta).
func PushRejected(at time.Time, thread int, typeURL, message string, delta bool) []EnvoyLine {
	dir := "source/extensions/config_subscription/grpc/"
	var out []EnvoyLine
	if delta {
		out = append(out, EnvoyLine{At: at, Thread: thread, Level: "warning", Logger: "config",
			File: dir + "delta_subscription_state.cc", Msg: "delta config for " + typeURL + " rejected: " + message})
	}
	return append(out, EnvoyLine{At: at, Thread: thread, Level: "warning", Logger: "config",
		File: dir + "grpc_subscription_impl.cc", Msg: RejectedWarning(typeURL, message)})
}

// RejectedWarning is the text of the warning either protocol logs for a NACKed push
// (grpc_subscription_impl.cc:138).
func RejectedWarning(typeURL, message string) string {
	return "gRPC config for " + typeURL + " rejected: " + message
}

// Count adds one push of typeURL to the counters, as the subscription counts it: update_success
// when applied (grpc_subscription_impl.cc:82 state of the world, :112 delta), update_rejected
// when refused (:137). Other types are not counted: pilot-agent reads only CDS's and LDS's.
func (c *XDSCounts) Count(typeURL string, rejected bool) {
	switch {
	case typeURL == ClusterType && rejected:
		c.CDSRejected++
	case typeURL == ClusterType:
		c.CDSSuccess++
	case typeURL == ListenerType && rejected:
		c.LDSRejected++
	case typeURL == ListenerType:
		c.LDSSuccess++
	}
}

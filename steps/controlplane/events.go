package controlplane

import (
	"strings"
	"unicode/utf8"

	"github.com/envoyproxy/go-control-plane/pkg/resource/v3"
	"google.golang.org/protobuf/types/known/anypb"
)

// Kind is what happened on a stream.
type Kind int

const (
	// StreamOpened: a client opened an ADS stream (Delta says which protocol).
	StreamOpened Kind = iota
	// Requested: the first request for a type on a stream (no response_nonce yet).
	Requested
	// Sent: the server sent a version of a type (Resources names what it holds).
	Sent
	// Acked: the client accepted the version it was sent.
	Acked
	// Nacked: the client refused the version it was sent; Detail is its error_detail message.
	Nacked
	// OtherNode: a request from a node this server has nothing for (NodeID names it); its
	// requests wait, as an xDS server's do for a node it does not know.
	OtherNode
	// StreamClosed: the stream ended.
	StreamClosed
	// Quieted: this stream has said as much as a log keeps; its further events are not told.
	Quieted
	// Dropped: Count events were not told, the UI being slower than the streams.
	Dropped
)

// Event is one thing the server saw or did, for the UI to say in the learner's language.
type Event struct {
	Kind   Kind
	Stream int64
	Delta  bool // the stream is delta ADS (DeltaAggregatedResources), not state of the world
	// TypeURL is the resource type (resource.ClusterType, resource.ListenerType).
	TypeURL string
	// Version is the version sent, ACKed or NACKed ("" when a NACK names a nonce this server did not send last).
	Version string
	Nonce   string
	// Detail is a NACK's error_detail message, as the client sent it (cut to maxDetail bytes).
	Detail string
	// Kept is, for a state of the world NACK, the version the client says it still runs (its
	// request's version_info: the last it accepted); "" for delta, which does not say.
	Kept      string
	NodeID    string
	Resources []string // names, at most maxNames
	Count     int      // Dropped: how many
}

// Short is the type's usual xDS name: CDS, LDS, or the message name for another type.
func Short(typeURL string) string {
	switch typeURL {
	case resource.ClusterType:
		return "CDS"
	case resource.ListenerType:
		return "LDS"
	case resource.RouteType:
		return "RDS"
	case resource.EndpointType:
		return "EDS"
	case resource.SecretType:
		return "SDS"
	}
	return typeURL[strings.LastIndex(typeURL, "/")+1:]
}

// Limits on what one event and one stream may log: a client decides how long its messages are
// and how often it sends them.
const (
	// maxDetail is what Envoy itself sends at most: 4096 bytes and "...(truncated)"
	// (Config::Utility::truncateGrpcStatusMessage, source/common/config/utility.cc:23-30).
	maxDetail = 4096 + len("...(truncated)")
	// maxNames is how many resource names an event lists.
	maxNames = 20
	// MaxStreamEvents is how many events one stream may log before it is quieted.
	MaxStreamEvents = 500
)

// capDetail is s cut to maxDetail bytes at a character boundary.
func capDetail(s string) string {
	if len(s) <= maxDetail {
		return s
	}
	cut := maxDetail
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// names are the names of the resources, at most maxNames of them (a resource that does not
// decode is left out: its name is unknown).
func names(resources []*anypb.Any) []string {
	var out []string
	for _, a := range resources {
		if len(out) == maxNames {
			break
		}
		m, err := a.UnmarshalNew()
		if err != nil {
			continue
		}
		if n, ok := m.(interface{ GetName() string }); ok {
			out = append(out, n.GetName())
		}
	}
	return out
}

// capNames is the first maxNames of list.
func capNames(list []string) []string {
	return append([]string(nil), list[:min(len(list), maxNames)]...)
}

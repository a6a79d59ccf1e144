package controlplane

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	routerv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/router/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"github.com/envoyproxy/go-control-plane/pkg/cache/types"
	"github.com/envoyproxy/go-control-plane/pkg/cache/v3"
	"github.com/envoyproxy/go-control-plane/pkg/resource/v3"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"

	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/sidecar"
)

// What the server serves: one cluster and one listener, the least that has Envoy initialise (CDS,
// then LDS, both answered) and go LIVE. The listener sends every HTTP request to the cluster; the
// cluster is a local port nothing needs to answer on (a STATIC cluster needs no DNS, and an
// unanswered port does not hold Envoy's initialisation back).
const (
	ClusterName  = "practice-backend"
	ListenerName = "practice-http"
	// GoodVersion is the version a node gets first; RejectedVersion the one --reject pushes once the
	// node has ACKed the first for both types.
	GoodVersion     = "1"
	RejectedVersion = "2"
)

// ListenAddr is where the served listener has Envoy take HTTP (on Envoy's side; this server listens
// on neither it nor the backend).
const ListenAddr = "127.0.0.1:10000"

// Where the served resources point: the backend the cluster names and the port of ListenAddr.
const (
	backendPort  = 8080
	listenerPort = 10000
	// rejectedHost is the cluster's endpoint in the rejected version: a host name in a STATIC
	// cluster, which Envoy refuses (it does not resolve names for STATIC: "malformed IP address",
	// source/common/network/resolver_impl.cc:39) — the mistake a hand-written cluster makes when
	// its type is not STRICT_DNS. A bare name: no namespace of a lab it would not match (ko r24 L13).
	rejectedHost = "practice-backend"
)

// Served is what the server serves in one version: its clusters and listeners.
type Served struct {
	Version   string
	Clusters  []*clusterv3.Cluster
	Listeners []*listenerv3.Listener
}

// ServedVersion is the version served first (reject false), or the one Envoy NACKs (reject true).
func ServedVersion(reject bool) Served {
	if reject {
		return Served{Version: RejectedVersion, Clusters: []*clusterv3.Cluster{cluster(rejectedHost)}, Listeners: []*listenerv3.Listener{listener()}}
	}
	return Served{Version: GoodVersion, Clusters: []*clusterv3.Cluster{cluster("127.0.0.1")}, Listeners: []*listenerv3.Listener{listener()}}
}

// Refusal is the validator's first refusal of the rejected version, for the node (ok false if it
// has none, which the tests hold it never is): what Envoy will NACK it for. Its place is in the
// resource (load_assignment.…), not in the bootstrap Check wraps it in, which has no lines of its own.
func Refusal(nodeID string) (p bootcheck.Problem, ok bool) {
	good, bad := ServedVersion(false), ServedVersion(true)
	r := Check(nodeID, bad.Clusters, nil)
	if r.OK() { // its listener, built with the clusters Envoy keeps
		r = Check(nodeID, good.Clusters, bad.Listeners)
	}
	if r.OK() {
		return bootcheck.Problem{}, false
	}
	p = r.Problems[0]
	p.Line, p.Col = 0, 0
	p.Path = inResource.ReplaceAllString(p.Path, "")
	return p, true
}

// inResource is the start of a path in Check's bootstrap: the resource's place among the static ones.
var inResource = regexp.MustCompile(`^static_resources\.(clusters|listeners)\[\d+\]\.?`)

// snapshot is the version as the snapshot cache holds it.
func (v Served) snapshot() (*cache.Snapshot, error) {
	var clusters, listeners []types.Resource
	for _, c := range v.Clusters {
		clusters = append(clusters, c)
	}
	for _, l := range v.Listeners {
		listeners = append(listeners, l)
	}
	return cache.NewSnapshot(v.Version, map[resource.Type][]types.Resource{resource.ClusterType: clusters, resource.ListenerType: listeners})
}

func cluster(host string) *clusterv3.Cluster {
	return &clusterv3.Cluster{
		Name:                 ClusterName,
		ClusterDiscoveryType: &clusterv3.Cluster_Type{Type: clusterv3.Cluster_STATIC},
		ConnectTimeout:       durationpb.New(time.Second),
		LoadAssignment: &endpointv3.ClusterLoadAssignment{
			ClusterName: ClusterName,
			Endpoints: []*endpointv3.LocalityLbEndpoints{{LbEndpoints: []*endpointv3.LbEndpoint{{
				HostIdentifier: &endpointv3.LbEndpoint_Endpoint{Endpoint: &endpointv3.Endpoint{Address: socketAddress(host, backendPort)}},
			}}}},
		},
	}
}

func socketAddress(host string, port uint32) *corev3.Address {
	return &corev3.Address{Address: &corev3.Address_SocketAddress{SocketAddress: &corev3.SocketAddress{
		Address: host, PortSpecifier: &corev3.SocketAddress_PortValue{PortValue: port},
	}}}
}

// listener is an HTTP listener whose inline route table sends everything to the cluster.
func listener() *listenerv3.Listener {
	router, _ := anypb.New(&routerv3.Router{})
	hcm, _ := anypb.New(&hcmv3.HttpConnectionManager{
		StatPrefix: "practice",
		RouteSpecifier: &hcmv3.HttpConnectionManager_RouteConfig{RouteConfig: &routev3.RouteConfiguration{
			Name: "practice",
			VirtualHosts: []*routev3.VirtualHost{{
				Name:    "practice",
				Domains: []string{"*"},
				Routes: []*routev3.Route{{
					Match:  &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: "/"}},
					Action: &routev3.Route_Route{Route: &routev3.RouteAction{ClusterSpecifier: &routev3.RouteAction_Cluster{Cluster: ClusterName}}},
				}},
			}},
		}},
		HttpFilters: []*hcmv3.HttpFilter{{Name: "envoy.filters.http.router", ConfigType: &hcmv3.HttpFilter_TypedConfig{TypedConfig: router}}},
	})
	return &listenerv3.Listener{
		Name:    ListenerName,
		Address: socketAddress("127.0.0.1", listenerPort),
		FilterChains: []*listenerv3.FilterChain{{Filters: []*listenerv3.Filter{{
			Name: "envoy.filters.network.http_connection_manager", ConfigType: &listenerv3.Filter_TypedConfig{TypedConfig: hcm},
		}}}},
	}
}

// Rejection is what Envoy makes of the rejected version: the type it refuses and the error it
// refuses it with, which is both the NACK's error_detail and the text of its warning
// `gRPC config for <type> rejected: <detail>`.
type Rejection struct {
	TypeURL string
	Detail  string
}

// Warning is the text of Envoy's warning for the refusal, up to the end of its first line (the
// line a learner copies from the log; an LDS message ends in a newline).
func (r Rejection) Warning() string {
	w := sidecar.RejectedWarning(r.TypeURL, strings.TrimSuffix(r.Detail, "\n"))
	if i := strings.IndexByte(w, '\n'); i >= 0 {
		w = w[:i]
	}
	return w
}

// Rejected is Envoy's refusal of the rejected version for the node, each refused resource named as
// Envoy names it (ok false when the validator takes it all, which the tests hold it never does):
//   - CDS: "<name>: <message>" for each refused cluster, joined with ", " after "Error
//     adding/updating cluster(s) " (8eea328:source/common/upstream/cds_api_helper.cc:55-60,
//     cds_api_impl.cc:109-111);
//   - LDS, built with the clusters Envoy keeps (the first version's): "<name>: <message>\n" for
//     each refused listener after "Error adding/updating listener(s) " (lds_api.cc:87, :124-125).
func Rejected(nodeID string) (Rejection, bool) {
	good, bad := ServedVersion(false), ServedVersion(true)
	var names []string
	for _, c := range bad.Clusters {
		names = append(names, c.GetName())
	}
	if parts := refused(Check(nodeID, bad.Clusters, nil), "clusters", names); len(parts) > 0 {
		return Rejection{TypeURL: resource.ClusterType, Detail: "Error adding/updating cluster(s) " + strings.Join(parts, ", ")}, true
	}
	names = nil
	for _, l := range bad.Listeners {
		names = append(names, l.GetName())
	}
	if parts := refused(Check(nodeID, good.Clusters, bad.Listeners), "listeners", names); len(parts) > 0 {
		return Rejection{TypeURL: resource.ListenerType, Detail: "Error adding/updating listener(s) " + strings.Join(parts, "\n") + "\n"}, true
	}
	return Rejection{}, false
}

// resourceAt is the kind and index of the static resource a problem's path is in.
var resourceAt = regexp.MustCompile(`^static_resources\.(clusters|listeners)\[(\d+)\]`)

// refused is "<name>: <message>" for each resource of the kind the result refuses, in the order
// of their first problem (Envoy's build stops at a resource's first refusal).
func refused(r bootcheck.Result, kind string, names []string) []string {
	var parts []string
	seen := map[int]bool{}
	for _, p := range r.Problems {
		m := resourceAt.FindStringSubmatch(p.Path)
		if m == nil || m[1] != kind {
			continue
		}
		i, _ := strconv.Atoi(m[2])
		if i < len(names) && !seen[i] {
			seen[i] = true
			parts = append(parts, names[i]+": "+p.Message)
		}
	}
	return parts
}

package drill

import (
	"math/rand/v2"
	"strings"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	corsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/cors/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"ist2-boot/steps/controlplane"
	"ist2-boot/steps/sidecar"
)

// PushFault is a fault in what istiod pushes, not in the bootstrap: the xDS types whose push
// carries one resource Envoy refuses. Which resource, and whether Envoy refuses it, is drawn and
// judged per drill (badClusters, badListeners, the validator).
type PushFault struct {
	ID    string
	Types []string // type URLs, in the order Envoy asks for them (CDS before LDS)
}

// PushCatalogue is every push fault a drill draws from: CDS only, LDS only, both.
var PushCatalogue = []PushFault{
	{"push-cds", []string{sidecar.ClusterType}},
	{"push-lds", []string{sidecar.ListenerType}},
	{"push-cds-lds", []string{sidecar.ClusterType, sidecar.ListenerType}},
}

// Pushed is what istiod pushed to the drill's sidecar, per type, and what Envoy made of it.
type Pushed struct {
	Delta bool         `json:"delta"` // the bootstrap's ADS is DELTA_GRPC
	Types []PushedType `json:"types"`
}

// PushedType is one type's push: every resource in it, the refused one's kind, and Envoy's
// refusals and NACK message (empty when Envoy applied it).
type PushedType struct {
	TypeURL   string            `json:"type_url"`
	Resources []string          `json:"resources"`
	Kind      string            `json:"kind,omitempty"`
	Refused   []sidecar.Refused `json:"refused,omitempty"`
	Message   string            `json:"message,omitempty"` // sidecar.UpdateError of Refused
}

// Names Istio would give the extra resources a broken push carries: an outbound cluster and the
// listener of its port; the unknown cluster is one nothing pushes.
const (
	extraCluster   = "outbound|9080||reviews.default.svc.cluster.local"
	extraListener  = "0.0.0.0_9080"
	missingCluster = "outbound|9080||ratings.default.svc.cluster.local"
	extraPort      = 9080
)

type badCluster struct {
	kind string
	make func(good *clusterv3.Cluster) *clusterv3.Cluster
}

// badClusters are clusters istiod might push that Envoy might refuse, each made from what the
// control plane serves (steps/controlplane). Whether Envoy does, and in what words, is the
// validator's answer, never written here.
var badClusters = []badCluster{
	// The cluster `ist2-boot control-plane --reject` pushes: a host name in a STATIC cluster.
	{"static-hostname", func(*clusterv3.Cluster) *clusterv3.Cluster {
		c := proto.Clone(controlplane.ServedVersion(true).Clusters[0]).(*clusterv3.Cluster)
		// Its host is the service the cluster is named for, not the practice server's (ja r12 M7).
		_, host, _ := strings.Cut(extraCluster, "||")
		for _, ep := range c.GetLoadAssignment().GetEndpoints() {
			for _, lb := range ep.GetLbEndpoints() {
				if sa := lb.GetEndpoint().GetAddress().GetSocketAddress(); sa != nil {
					sa.Address = host
				}
			}
		}
		return c
	}},
	// ORIGINAL_DST, its lb_policy left at ROUND_ROBIN.
	{"original-dst-lb-policy", func(good *clusterv3.Cluster) *clusterv3.Cluster {
		c := proto.Clone(good).(*clusterv3.Cluster)
		c.ClusterDiscoveryType = &clusterv3.Cluster_Type{Type: clusterv3.Cluster_ORIGINAL_DST}
		c.LoadAssignment = nil
		return c
	}},
	// ORIGINAL_DST with CLUSTER_PROVIDED, its endpoints kept.
	{"original-dst-endpoints", func(good *clusterv3.Cluster) *clusterv3.Cluster {
		c := proto.Clone(good).(*clusterv3.Cluster)
		c.ClusterDiscoveryType = &clusterv3.Cluster_Type{Type: clusterv3.Cluster_ORIGINAL_DST}
		c.LbPolicy = clusterv3.Cluster_CLUSTER_PROVIDED
		return c
	}},
	// LOGICAL_DNS with two hosts.
	{"logical-dns-two-hosts", func(good *clusterv3.Cluster) *clusterv3.Cluster {
		c := proto.Clone(good).(*clusterv3.Cluster)
		c.ClusterDiscoveryType = &clusterv3.Cluster_Type{Type: clusterv3.Cluster_LOGICAL_DNS}
		eps := c.GetLoadAssignment().GetEndpoints()
		if len(eps) > 0 && len(eps[0].GetLbEndpoints()) > 0 {
			eps[0].LbEndpoints = append(eps[0].LbEndpoints, proto.Clone(eps[0].LbEndpoints[0]).(*endpointv3.LbEndpoint))
		}
		return c
	}},
}

type badListener struct {
	kind string
	make func(good *listenerv3.Listener) *listenerv3.Listener
}

// badListeners are listeners istiod might push that Envoy might refuse, each made from the
// control plane's listener, its HTTP filters or routes changed.
var badListeners = []badListener{
	// A filter after the router.
	{"router-not-last", func(good *listenerv3.Listener) *listenerv3.Listener {
		return withHCM(good, func(h *hcmv3.HttpConnectionManager) { h.HttpFilters = append(h.HttpFilters, corsFilter()) })
	}},
	// No router at all: the chain ends in a filter that passes requests on.
	{"no-router", func(good *listenerv3.Listener) *listenerv3.Listener {
		return withHCM(good, func(h *hcmv3.HttpConnectionManager) { h.HttpFilters = []*hcmv3.HttpFilter{corsFilter()} })
	}},
	// The same filter chain twice.
	{"duplicate-filter-chain", func(good *listenerv3.Listener) *listenerv3.Listener {
		l := proto.Clone(good).(*listenerv3.Listener)
		if len(l.FilterChains) > 0 {
			l.FilterChains = append(l.FilterChains, proto.Clone(l.FilterChains[0]).(*listenerv3.FilterChain))
		}
		return l
	}},
	// An inline route to a cluster nothing pushed.
	{"route-unknown-cluster", func(good *listenerv3.Listener) *listenerv3.Listener {
		return withHCM(good, func(h *hcmv3.HttpConnectionManager) {
			for _, vh := range h.GetRouteConfig().GetVirtualHosts() {
				for _, rt := range vh.GetRoutes() {
					rt.Action = &routev3.Route_Route{Route: &routev3.RouteAction{ClusterSpecifier: &routev3.RouteAction_Cluster{Cluster: missingCluster}}}
				}
			}
		})
	}},
}

func corsFilter() *hcmv3.HttpFilter {
	cfg, _ := anypb.New(&corsv3.Cors{})
	return &hcmv3.HttpFilter{Name: "envoy.filters.http.cors", ConfigType: &hcmv3.HttpFilter_TypedConfig{TypedConfig: cfg}}
}

// withHCM is the listener with its first HTTP connection manager changed.
func withHCM(good *listenerv3.Listener, change func(*hcmv3.HttpConnectionManager)) *listenerv3.Listener {
	l := proto.Clone(good).(*listenerv3.Listener)
	for _, fc := range l.GetFilterChains() {
		for _, f := range fc.GetFilters() {
			var h hcmv3.HttpConnectionManager
			if f.GetTypedConfig() == nil || f.GetTypedConfig().UnmarshalTo(&h) != nil {
				continue
			}
			change(&h)
			cfg, err := anypb.New(&h)
			if err != nil {
				return l
			}
			f.ConfigType = &listenerv3.Filter_TypedConfig{TypedConfig: cfg}
			return l
		}
	}
	return l
}

// push draws what istiod pushes for f: the control plane's good cluster and listener, and for
// each type of f one extra resource of a kind drawn from r. Envoy's verdict on each resource is
// the validator's, as Envoy applies a push: clusters one by one (cds_api_helper.cc:38-77), then
// listeners one by one with the clusters it kept (lds_api.cc:74-116). false when a resource meant
// to be refused is not, or is refused for a reason met before Envoy builds it (a constraint:
// CDS's words for it are not the static bootstrap's).
func push(f PushFault, nodeID string, delta bool, r *rand.Rand) (*Pushed, bool) {
	good := controlplane.ServedVersion(false)
	clusters, listeners := good.Clusters, good.Listeners
	kinds := map[string]string{}
	for _, t := range f.Types {
		switch t {
		case sidecar.ClusterType:
			k := badClusters[r.IntN(len(badClusters))]
			c := k.make(good.Clusters[0])
			c.Name = extraCluster
			if la := c.GetLoadAssignment(); la != nil {
				la.ClusterName = extraCluster
			}
			clusters, kinds[t] = append(clusters, c), k.kind
		case sidecar.ListenerType:
			k := badListeners[r.IntN(len(badListeners))]
			l := k.make(good.Listeners[0])
			l.Name = extraListener
			l.Address = &corev3.Address{Address: &corev3.Address_SocketAddress{SocketAddress: &corev3.SocketAddress{
				Address: "0.0.0.0", PortSpecifier: &corev3.SocketAddress_PortValue{PortValue: extraPort}}}}
			listeners, kinds[t] = append(listeners, l), k.kind
		}
	}
	p := &Pushed{Delta: delta}
	cds := PushedType{TypeURL: sidecar.ClusterType, Kind: kinds[sidecar.ClusterType]}
	var kept []*clusterv3.Cluster
	for _, c := range clusters {
		cds.Resources = append(cds.Resources, c.GetName())
		res := controlplane.Check(nodeID, []*clusterv3.Cluster{c}, nil)
		if res.OK() {
			kept = append(kept, c)
			continue
		}
		if !res.Problems[0].Built() {
			return nil, false
		}
		cds.Refused = append(cds.Refused, sidecar.Refused{Name: c.GetName(), Reason: res.Problems[0].Message})
	}
	lds := PushedType{TypeURL: sidecar.ListenerType, Kind: kinds[sidecar.ListenerType]}
	for _, l := range listeners {
		lds.Resources = append(lds.Resources, l.GetName())
		res := controlplane.Check(nodeID, kept, []*listenerv3.Listener{l})
		if res.OK() {
			continue
		}
		if !res.Problems[0].Built() {
			return nil, false
		}
		lds.Refused = append(lds.Refused, sidecar.Refused{Name: l.GetName(), Reason: res.Problems[0].Message})
	}
	for _, t := range []*PushedType{&cds, &lds} {
		if len(t.Refused) > 0 {
			t.Message = sidecar.UpdateError(t.TypeURL, t.Refused)
		}
		// The fault's types, and only they, are refused: else the draw does not apply.
		if (t.Kind != "") != (len(t.Refused) > 0) {
			return nil, false
		}
		p.Types = append(p.Types, *t)
	}
	return p, true
}

// Rejected are the type URLs whose push Envoy refused, in push order.
func (p *Pushed) Rejected() []string {
	var out []string
	for _, t := range p.Types {
		if len(t.Refused) > 0 {
			out = append(out, t.TypeURL)
		}
	}
	return out
}

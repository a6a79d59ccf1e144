package controlplane

import (
	"fmt"
	"net"
	"os"
	"strconv"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"

	"ist2-boot/steps"
	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/i18n"
)

// Bootstrap is what the server needs of the learner's bootstrap, read as Envoy reads it: the node
// to serve, the protocol its ADS speaks, and the cluster its ADS goes through, which must point
// here for Envoy to reach this server.
type Bootstrap struct {
	NodeID string
	// APIType is ads_config.api_type as written (GRPC, DELTA_GRPC, …); Delta says it is a delta one.
	APIType string
	Delta   bool
	// Cluster is the cluster ads_config's first gRPC service names; Index its place among the
	// static clusters, -1 when there is none of that name.
	Cluster string
	Index   int
	// Endpoints are that cluster's socket addresses, each with the field path of its address.
	Endpoints []Endpoint
	HTTP2     bool // the cluster speaks HTTP/2, as gRPC needs (bootcheck.SpeaksHTTP2)
	// Refused is the validator's first refusal of the bootstrap (nil when valid): the server can
	// still serve its node, but Envoy would not start with it.
	Refused *bootcheck.Problem
}

// Endpoint is one socket address of the ADS cluster.
type Endpoint struct {
	Path    string // static_resources.clusters[0].load_assignment.endpoints[0].lb_endpoints[0].endpoint.address.socket_address
	Address string
	Port    uint32
}

// Change is one field the learner changes for Envoy to reach this server.
type Change struct{ Path, From, To string }

// BootstrapError is why the bootstrap cannot name a node, in the learner's language; Problem,
// when set, is the validator's, said in that language too (its "problem" argument).
type BootstrapError struct {
	Msg     i18n.Msg
	Problem *bootcheck.Problem
}

// In is the error in lang.
func (e *BootstrapError) In(lang i18n.Lang) string {
	m := e.Message()
	if e.Problem != nil {
		m.Args["problem"] = e.Problem.Say(lang)
	}
	return m.In(lang)
}

func (e *BootstrapError) Error() string { return e.In(i18n.Korean) }

// Message is the error as a message to put into words later, in any language; the validator's
// problem goes in as its own text.
func (e *BootstrapError) Message() i18n.Msg {
	if e.Problem == nil {
		return e.Msg
	}
	m := e.Msg
	m.Args = map[string]string{"problem": e.Problem.String()}
	for k, v := range e.Msg.Args {
		if k != "problem" {
			m.Args[k] = v
		}
	}
	return m
}

// maxBootstrap is the largest bootstrap read (a learner's file; the checks read no more).
const maxBootstrap = 1 << 20

// ReadBootstrap reads the learner's bootstrap for its node and its ADS cluster.
func ReadBootstrap(file string) (Bootstrap, error) {
	data, err := steps.ReadRegularFile(file, maxBootstrap)
	if err != nil {
		return Bootstrap{}, &BootstrapError{Msg: steps.ReadProblem(file, err)}
	}
	return ParseBootstrap(file, data)
}

// ParseBootstrap is ReadBootstrap of a bootstrap already read (data is file's text): the checks
// read the learner's files once, their own way.
func ParseBootstrap(file string, data []byte) (Bootstrap, error) {
	r := bootcheck.ValidateWith(data, bootcheck.ForFile(file))
	bs := r.Parsed()
	if bs == nil {
		return Bootstrap{}, &BootstrapError{Msg: i18n.M("cp.bootstrap_unparsed", "file", file), Problem: &r.Problems[0]}
	}
	if bs.GetNode().GetId() == "" {
		return Bootstrap{}, &BootstrapError{Msg: i18n.M("cp.no_node_id", "file", file)}
	}
	b := Bootstrap{NodeID: bs.GetNode().GetId(), Index: -1}
	if !r.OK() {
		b.Refused = &r.Problems[0]
	}
	ads := bs.GetDynamicResources().GetAdsConfig()
	b.APIType = ads.GetApiType().String()
	b.Delta = ads.GetApiType() == corev3.ApiConfigSource_DELTA_GRPC || ads.GetApiType() == corev3.ApiConfigSource_AGGREGATED_DELTA_GRPC
	if services := ads.GetGrpcServices(); len(services) > 0 {
		b.Cluster = services[0].GetEnvoyGrpc().GetClusterName()
	}
	for i, c := range bs.GetStaticResources().GetClusters() {
		if b.Cluster != "" && c.GetName() == b.Cluster {
			b.Index, b.HTTP2, b.Endpoints = i, bootcheck.SpeaksHTTP2(c), endpoints(c, i)
			break
		}
	}
	return b, nil
}

func endpoints(c *clusterv3.Cluster, index int) []Endpoint {
	var out []Endpoint
	for i, locality := range c.GetLoadAssignment().GetEndpoints() {
		for j, lb := range locality.GetLbEndpoints() {
			sa := lb.GetEndpoint().GetAddress().GetSocketAddress()
			if sa == nil {
				continue
			}
			out = append(out, Endpoint{
				Path:    fmt.Sprintf("static_resources.clusters[%d].load_assignment.endpoints[%d].lb_endpoints[%d].endpoint.address.socket_address", index, i, j),
				Address: sa.GetAddress(), Port: sa.GetPortValue(),
			})
		}
	}
	return out
}

// Changes are the fields of the ADS cluster that must change for Envoy to reach a server at addr:
// each endpoint's address and port_value (a field already right is left out). A cluster with no
// socket address gets one change naming the first endpoint's fields, from nothing.
func (b Bootstrap) Changes(addr string) []Change {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || b.Index < 0 {
		return nil
	}
	eps := b.Endpoints
	if len(eps) == 0 {
		eps = []Endpoint{{Path: fmt.Sprintf("static_resources.clusters[%d].load_assignment.endpoints[0].lb_endpoints[0].endpoint.address.socket_address", b.Index)}}
	}
	var out []Change
	for _, ep := range eps {
		if ep.Address != host {
			out = append(out, Change{Path: ep.Path + ".address", From: ep.Address, To: host})
		}
		if from := strconv.FormatUint(uint64(ep.Port), 10); from != port {
			if ep.Port == 0 {
				from = ""
			}
			out = append(out, Change{Path: ep.Path + ".port_value", From: from, To: port})
		}
	}
	return out
}

// SameFile: a and b name one file — however either is written (relative to the working
// directory, through a link): the lab's bootstrap.yaml given as "bootstrap.yaml" is told to be
// left alone as surely as when given whole (ja r9 H1).
func SameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

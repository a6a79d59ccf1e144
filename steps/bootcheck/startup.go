package bootcheck

import (
	"fmt"
	"sort"
	"strings"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"
	"gopkg.in/yaml.v3"
)

// httpProtocolOptions is the extension carrying a cluster's HTTP/2 setting in Envoy v3.
const httpProtocolOptions = "envoy.extensions.upstreams.http.v3.HttpProtocolOptions"

// startupChecks are the refusals Envoy makes while it builds the server from a bootstrap that
// parsed and passed its constraints — in --mode validate too, which builds the cluster manager and
// the ADS mux without connecting (source/common/upstream/cluster_manager_impl.cc,
// source/common/config/utility.cc, source/common/grpc/async_client_manager_impl.cc).
//
// extensions are the problems of the extension configs (Any) the bootstrap carries, each staged
// where Envoy builds it; they join the others in start-up order. serve: Envoy started to serve,
// not to validate (Options.Serve).
func startupChecks(bs *bootstrapv3.Bootstrap, tree []visited, positions map[string]*yaml.Node, extensions []Problem, serve bool) Result {
	r := Result{Problems: extensions}
	problem := func(st stage, path, msg string) Problem {
		p := Problem{Path: path, Message: msg, stage: st}
		if n := nearestIn(positions, path); n != nil {
			p.Line, p.Col = n.Line, n.Column
		}
		return p
	}
	add := func(st stage, path, msg string) { r.Problems = append(r.Problems, problem(st, path, msg)) }
	applicationLogChecks(bs, add)
	adminChecks(bs, add)
	runtimeChecks(bs, add)
	serverChecks(bs, add)
	overloadChecks(bs, add)
	static := map[string]*clusterv3.Cluster{} // every static cluster: gRPC clients may use any
	primary := map[string]bool{}              // static and not EDS: what an ApiConfigSource may use
	for i, c := range bs.GetStaticResources().GetClusters() {
		path := fmt.Sprintf("static_resources.clusters[%d]", i)
		if _, dup := static[c.GetName()]; dup {
			add(stageClusters, path+".name", fmt.Sprintf("cluster manager: duplicate cluster '%s'", c.GetName()))
			continue
		}
		static[c.GetName()] = c
		primary[c.GetName()] = c.GetType() != clusterv3.Cluster_EDS
		clusterBuildChecks(c, path, bs, add)
	}
	grpcUsed := map[string]string{} // cluster → where a gRPC client uses it (for the HTTP/2 warning)
	// known: the clusters a gRPC client may name when it is built. The ADS mux is built before
	// the cluster manager adds its secondary (EDS) clusters, so ADS knows only the primary ones.
	checkGrpc := func(st stage, g *corev3.GrpcService, path string, known func(string) bool) {
		name := g.GetEnvoyGrpc().GetClusterName()
		if g.GetEnvoyGrpc() == nil {
			return
		}
		if !known(name) {
			add(st, path+".envoy_grpc.cluster_name", fmt.Sprintf("Unknown gRPC client cluster '%s'", name))
			return
		}
		if _, seen := grpcUsed[name]; !seen {
			grpcUsed[name] = path
		}
	}
	hasADS := bs.GetDynamicResources().GetAdsConfig() != nil
	// The ADS mux refuses to start without a node identity (Config::Utility::checkLocalInfo); the
	// command line's --service-node/--service-cluster could supply it, a bootstrap alone cannot.
	nodeMissing := func(needer string) {
		missing := "node.cluster"
		if bs.GetNode().GetId() == "" {
			missing = "node.id"
		}
		p := problem(stageNode, missing, "ads: "+nodeRequired)
		if _, written := positions["node"]; !written { // no node at all: point at what needs one
			p.Line, p.Col = 0, 0
			if n := nearestIn(positions, needer); n != nil {
				p.Line, p.Col = n.Line, n.Column
			}
		}
		r.Problems = append(r.Problems, p)
	}
	adsChecks(bs, func(name string) bool { return primary[name] }, add, nodeMissing)
	for _, src := range append(bs.GetConfigSources(), bs.GetDefaultConfigSource(), &corev3.ConfigSource{ConfigSourceSpecifier: &corev3.ConfigSource_ApiConfigSource{ApiConfigSource: bs.GetDynamicResources().GetAdsConfig()}}) {
		for _, g := range src.GetApiConfigSource().GetGrpcServices() {
			if _, seen := grpcUsed[g.GetEnvoyGrpc().GetClusterName()]; !seen && g.GetEnvoyGrpc() != nil && primary[g.GetEnvoyGrpc().GetClusterName()] {
				grpcUsed[g.GetEnvoyGrpc().GetClusterName()] = "dynamic_resources.ads_config"
			}
		}
	}
	for _, n := range tree {
		path := n.path
		switch v := n.m.Interface().(type) {
		case *corev3.ConfigSource:
			subscriptionChecks(bs, v, path, hasADS, func(name string) bool { return primary[name] }, add)
		case *corev3.ApiConfigSource:
			// Only subscriptions build theirs in validate mode: the LRS reporter and HDS are made
			// once the server runs (server.cc:901).
			for _, g := range v.GetGrpcServices() {
				if _, seen := grpcUsed[g.GetEnvoyGrpc().GetClusterName()]; !seen && g.GetEnvoyGrpc() != nil && primary[g.GetEnvoyGrpc().GetClusterName()] {
					grpcUsed[g.GetEnvoyGrpc().GetClusterName()] = path
				}
			}
		case *corev3.GrpcService:
			if !strings.HasPrefix(path, "dynamic_resources.ads_config") && !strings.Contains(path, "api_config_source") {
				checkGrpc(stageSubscriptions, v, path, func(name string) bool { _, ok := static[name]; return ok })
			}
		}
	}
	cdsLocatorChecks(bs, func(name string) bool { return primary[name] }, add)
	localClusterCheck(bs, static, add)
	tlsChecks(bs, tree, add)
	regexChecks(tree, add)
	extensionChecks(tree, add)
	formatChecks(tree, func(name string) bool { _, ok := static[name]; return ok }, add)
	dnsCacheChecks(tree, add)
	bandwidthBucketChecks(tree, add)
	built := listenerChecks(bs, static, add)
	// In Envoy's start-up order, then file order: the first is what Envoy, stopping at its first
	// error, would say.
	sort.SliceStable(r.Problems, func(i, j int) bool { return before(r.Problems[i], r.Problems[j]) })
	r.Problems = inEnvoyOrder(bs, tree, r.Problems, problem) // a connection manager's, in its constructor's order
	r.Problems = built.order(r.Problems)                     // then the listeners', in their build order
	r.Problems = adsStartProblems(bs, r.Problems, serve)     // what the null mux refuses as it starts
	names := make([]string, 0, len(grpcUsed))
	for name := range grpcUsed {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		where := grpcUsed[name]
		if c := static[name]; c != nil && !SpeaksHTTP2(c) {
			w := problem(stageSubscriptions, where, fmt.Sprintf("cluster '%s' carries gRPC but has no HTTP/2 (http2_protocol_options, or typed_extension_protocol_options %s with explicit_http_config.http2_protocol_options): Envoy starts, but the stream to the server never works", name, httpProtocolOptions))
			w.ours, w.detail = "validate.no_http2", name // the validator's advice: Envoy says nothing
			r.Warnings = append(r.Warnings, w)
		}
	}
	return r
}

// transportVersionProblem: xDS speaks only v3. Since Envoy 1.31 (envoyproxy/envoy#34401) a source
// that leaves transport_api_version out (AUTO) means V3 ("When not specified, we assume v3",
// config_source.proto); only an explicit V2 is refused (Config::Utility::checkTransportVersion,
// source/common/config/utility.h:156-170 at v1.39.0), its message ending with the source's
// multi-line DebugString: elided, as protobuf 35.1 starts it with a random marker.
func transportVersionProblem(src *corev3.ApiConfigSource, path string) (Problem, bool) {
	if src.GetTransportApiVersion() != corev3.ApiVersion_V2 {
		return Problem{}, false
	}
	msg := fmt.Sprintf("V2 xDS transport protocol version is deprecated in %s. "+
		"The v2 xDS major version has been removed and is no longer supported. "+
		"See the advice in https://www.envoyproxy.io/docs/envoy/latest/faq/api/envoy_v3.", elided)
	return Problem{Path: path + ".transport_api_version", Message: msg}, true
}

// SpeaksHTTP2: HTTP/2 on the cluster itself (deprecated but accepted) or through
// typed_extension_protocol_options' HttpProtocolOptions.
func SpeaksHTTP2(c *clusterv3.Cluster) bool {
	if c.GetHttp2ProtocolOptions() != nil {
		return true
	}
	a, ok := c.GetTypedExtensionProtocolOptions()[httpProtocolOptions]
	if !ok {
		return false
	}
	m, err := anypb.UnmarshalNew(a, proto.UnmarshalOptions{})
	if err != nil {
		return false
	}
	f := m.ProtoReflect().Descriptor().Fields().ByName("explicit_http_config")
	if f == nil || !m.ProtoReflect().Has(f) {
		return false
	}
	cfg := m.ProtoReflect().Get(f).Message()
	h2 := cfg.Descriptor().Fields().ByName("http2_protocol_options")
	return h2 != nil && cfg.Has(h2)
}

// visited is one message of the bootstrap at its field path; an Any also carries the value it
// unpacks to (nil when it does not), which is walked as its own type, as Envoy does when it builds
// the extension.
type visited struct {
	m     protoreflect.Message
	path  string
	inner proto.Message
}

// messages lists every message in m, depth first, once per validation: the checks that look for
// a type (Any, ConfigSource, RegexMatcher) share it instead of each walking and unpacking again.
func messages(m protoreflect.Message) []visited {
	var out []visited
	var walk func(m protoreflect.Message, path string)
	walk = func(m protoreflect.Message, path string) {
		v := visited{m: m, path: path}
		if a, ok := m.Interface().(*anypb.Any); ok {
			if inner, err := anypb.UnmarshalNew(a, proto.UnmarshalOptions{}); err == nil {
				v.inner = inner
			}
		}
		out = append(out, v)
		fields := m
		if v.inner != nil {
			fields = v.inner.ProtoReflect()
		} else if _, isAny := m.Interface().(*anypb.Any); isAny {
			return
		}
		fields.Range(func(fd protoreflect.FieldDescriptor, val protoreflect.Value) bool {
			fp := joinPath(path, string(fd.Name()))
			switch {
			case fd.IsList() && fd.Message() != nil:
				l := val.List()
				for i := 0; i < l.Len(); i++ {
					walk(l.Get(i).Message(), fmt.Sprintf("%s[%d]", fp, i))
				}
			case fd.IsMap() && fd.MapValue().Message() != nil:
				val.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
					walk(mv.Message(), fmt.Sprintf("%s[%s]", fp, k.String()))
					return true
				})
			case !fd.IsList() && !fd.IsMap() && fd.Message() != nil:
				walk(val.Message(), fp)
			}
			return true
		})
	}
	walk(m, "")
	return out
}

func nearestIn(positions map[string]*yaml.Node, path string) *yaml.Node {
	w := walker{positions: positions}
	return w.nearest(path)
}

func before(a, b Problem) bool {
	if a.stage != b.stage {
		return a.stage < b.stage
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col < b.Col
}

package bootcheck

import (
	"strings"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
)

// subscriptionTypes: the resource type a config source found at a path subscribes to, by the
// field that holds it; the type URL is what Envoy's node check names.
var subscriptionTypes = []struct{ suffix, typeURL string }{
	{"dynamic_resources.cds_config", "type.googleapis.com/envoy.config.cluster.v3.Cluster"},
	{"dynamic_resources.lds_config", "type.googleapis.com/envoy.config.listener.v3.Listener"},
	{".rds.config_source", "type.googleapis.com/envoy.config.route.v3.RouteConfiguration"},
	{".eds_cluster_config.eds_config", "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment"},
	{"sds_config", "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret"},
	{".rtds_layer.rtds_config", "type.googleapis.com/envoy.service.runtime.v3.Runtime"},
}

// nodeProblem: every subscription starts by checking the node identity it will send
// (SubscriptionFactoryImpl::subscriptionFromConfigSource → Config::Utility::checkLocalInfo,
// source/common/config/utility.cc), its message prefixed by the resource's type URL.
func nodeProblem(bs *bootstrapv3.Bootstrap, path string) (string, bool) {
	if bs.GetNode().GetId() != "" && bs.GetNode().GetCluster() != "" {
		return "", false
	}
	for _, s := range subscriptionTypes {
		if strings.HasSuffix(path, s.suffix) {
			return s.typeURL + ": node 'id' and 'cluster' are required. Set it either in 'node' config or via --service-node and --service-cluster options.", true
		}
	}
	return "", false
}

// apiNamesProblem is checkApiConfigSourceNames (source/common/config/utility.cc): a gRPC source
// names one gRPC service and no cluster; a REST source one cluster and no gRPC service. Envoy
// ends each message with the source's DebugString, which protobuf 35.1 starts with a randomised
// marker; it is written "…" here.
func apiNamesProblem(src *corev3.ApiConfigSource) (string, bool) {
	const typ = "envoy.config.core.v3.ApiConfigSource"
	grpc := src.GetApiType() == corev3.ApiConfigSource_GRPC || src.GetApiType() == corev3.ApiConfigSource_DELTA_GRPC
	switch {
	case len(src.GetClusterNames()) == 0 && len(src.GetGrpcServices()) == 0:
		return "API configs must have either a gRPC service or a cluster name defined: " + elided, true
	case grpc && len(src.GetClusterNames()) > 0:
		return typ + "::(DELTA_)GRPC must not have a cluster name specified: " + elided, true
	case grpc && len(src.GetGrpcServices()) > 1: // xds_failover_support (a restart feature) off
		return typ + "::(DELTA_)GRPC must have no more than 1 gRPC services specified: " + elided, true
	case !grpc && len(src.GetGrpcServices()) > 0:
		return typ + ", if not a gRPC type, must not have a gRPC service specified: " + elided, true
	case !grpc && len(src.GetClusterNames()) != 1:
		return typ + " must have a singleton cluster name specified: " + elided, true
	}
	return "", false
}

// elided stands for a DebugString Envoy appends: protobuf 35.1 starts it with a marker chosen at
// random ("goo.gle/debugstr " and others, text_format.cc TextMarkerGenerator), so no text
// written beforehand is Envoy's.
const elided = "…"

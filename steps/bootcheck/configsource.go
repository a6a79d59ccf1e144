package bootcheck

import (
	"fmt"
	"math"
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

const nodeRequired = "node 'id' and 'cluster' are required. Set it either in 'node' config or via --service-node and --service-cluster options."

// nodeProblem: every subscription starts by checking the node identity it will send
// (SubscriptionFactoryImpl::subscriptionFromConfigSource → Config::Utility::checkLocalInfo,
// source/common/config/utility.cc), its message prefixed by the resource's type URL.
func nodeProblem(bs *bootstrapv3.Bootstrap, path string) (string, bool) {
	if bs.GetNode().GetId() != "" && bs.GetNode().GetCluster() != "" {
		return "", false
	}
	for _, s := range subscriptionTypes {
		if strings.HasSuffix(path, s.suffix) {
			return s.typeURL + ": " + nodeRequired, true
		}
	}
	return "", false
}

// apiConfigSourceType is what Envoy's messages call an ApiConfigSource (GetTypeName).
const apiConfigSourceType = "envoy.config.core.v3.ApiConfigSource"

// apiNamesProblem is checkApiConfigSourceNames (source/common/config/utility.cc:81-118): a gRPC
// source (aggregated or not) names one gRPC service and no cluster; a REST source one cluster and
// no gRPC service. Envoy ends each message with the source's DebugString, which protobuf 35.1
// starts with a randomised marker; it is written "…" here.
func apiNamesProblem(src *corev3.ApiConfigSource) (string, bool) {
	grpc := src.GetApiType() != corev3.ApiConfigSource_REST && src.GetApiType() != corev3.ApiConfigSource_DEPRECATED_AND_UNAVAILABLE_DO_NOT_USE
	switch {
	case len(src.GetClusterNames()) == 0 && len(src.GetGrpcServices()) == 0:
		return "API configs must have either a gRPC service or a cluster name defined: " + elided, true
	case grpc && len(src.GetClusterNames()) > 0:
		return apiConfigSourceType + "::(AGGREGATED_)(DELTA_)GRPC must not have a cluster name specified: " + elided, true
	case grpc && len(src.GetGrpcServices()) > 1: // xds_failover_support (a restart feature) off
		return apiConfigSourceType + "::(AGGREGATED_)(DELTA_)GRPC must have no more than 1 gRPC services specified: " + elided, true
	case !grpc && len(src.GetGrpcServices()) > 0:
		return apiConfigSourceType + ", if not a gRPC type, must not have a gRPC service specified: " + elided, true
	case !grpc && len(src.GetClusterNames()) != 1:
		return apiConfigSourceType + " must have a singleton cluster name specified: " + elided, true
	}
	return "", false
}

// elided stands for a DebugString Envoy appends: protobuf 35.1 starts it with a marker chosen at
// random ("goo.gle/debugstr " and others, text_format.cc TextMarkerGenerator), so no text
// written beforehand is Envoy's.
const elided = "…"

func aggregated(src *corev3.ApiConfigSource) bool {
	return src.GetApiType() == corev3.ApiConfigSource_AGGREGATED_GRPC || src.GetApiType() == corev3.ApiConfigSource_AGGREGATED_DELTA_GRPC
}

// backoffProblem: the retry back-off of a source's first Envoy gRPC service is prepared before
// anything else is built from it (Utility::prepareJitteredExponentialBackOffStrategy,
// utility.h:478; buildJitteredExponentialBackOffStrategy, utility.cc:356-366): max_interval
// defaults to ten times base_interval.
func backoffProblem(src *corev3.ApiConfigSource, path string) (string, string, bool) {
	gs := src.GetGrpcServices()
	if len(gs) == 0 || gs[0].GetEnvoyGrpc() == nil {
		return "", "", false
	}
	b := gs[0].GetEnvoyGrpc().GetRetryPolicy().GetRetryBackOff()
	if b == nil {
		return "", "", false
	}
	base := b.GetBaseInterval().AsDuration().Milliseconds()
	maxMS := base * 10
	if b.GetMaxInterval() != nil {
		maxMS = b.GetMaxInterval().AsDuration().Milliseconds()
	}
	if maxMS < base {
		return path + ".grpc_services[0].envoy_grpc.retry_policy.retry_back_off", "max_interval must be greater than or equal to the base_interval", true
	}
	return "", "", false
}

// grpcFactoryProblem: what making a gRPC client factory for g refuses (AsyncClientManagerImpl::
// factoryForGrpcService, source/common/grpc/async_client_manager_impl.cc): an Envoy gRPC client
// names a static cluster that is active (unless the caller skips that check); a Google gRPC
// client's initial metadata is a gRPC header (:107, :116).
func grpcFactoryProblem(g *corev3.GrpcService, path string, checkCluster bool, known func(string) bool) (string, string, bool) {
	if e := g.GetEnvoyGrpc(); e != nil {
		if checkCluster && !known(e.GetClusterName()) {
			return path + ".envoy_grpc.cluster_name", fmt.Sprintf("Unknown gRPC client cluster '%s'", e.GetClusterName()), true
		}
		return "", "", false
	}
	if g.GetGoogleGrpc() == nil {
		return "", "", false
	}
	for i, h := range g.GetInitialMetadata() {
		where := fmt.Sprintf("%s.initial_metadata[%d]", path, i)
		for _, c := range []byte(h.GetKey()) {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
				return where + ".key", fmt.Sprintf("Illegal characters in gRPC initial metadata header key: %s.", h.GetKey()), true
			}
		}
		if strings.HasSuffix(h.GetKey(), "-bin") {
			continue
		}
		for _, c := range []byte(h.GetValue()) {
			if c < 0x20 || c > 0x7e {
				return where + ".value", fmt.Sprintf("Illegal ASCII value for gRPC initial metadata header key: %s.", h.GetKey()), true
			}
		}
	}
	return "", "", false
}

// grpcClientProblem: the factory, then the client it makes (createUncachedRawAsyncClient): a
// Google gRPC client's credentials factory is one the stock build registers
// (google_grpc_utils.cc:41).
func grpcClientProblem(g *corev3.GrpcService, path string, checkCluster bool, known func(string) bool) (string, string, bool) {
	if where, msg, bad := grpcFactoryProblem(g, path, checkCluster, known); bad {
		return where, msg, true
	}
	switch name := g.GetGoogleGrpc().GetCredentialsFactoryName(); name {
	case "", "envoy.grpc_credentials.default", "envoy.grpc_credentials.file_based_metadata":
	default:
		return path + ".google_grpc.credentials_factory_name", "Unknown google grpc credentials factory: " + name, true
	}
	return "", "", false
}

// adsChecks is XdsManagerImpl::initializeAdsConnections (source/common/config/
// xds_manager_impl.cc:171-288), run once the primary clusters are loaded: each config_sources
// entry, then default_config_source, becomes an ADS authority (createAuthority, :397-518), then
// ads_config becomes the ADS mux. Envoy stops at the first refusal; so does this.
// primary tells the clusters a gRPC client may name at that point (EDS clusters come later).
func adsChecks(bs *bootstrapv3.Bootstrap, primary func(string) bool, add addFunc, nodeMissing func(at string)) {
	for i, cs := range bs.GetConfigSources() {
		if !authorityOK(bs, cs, fmt.Sprintf("config_sources[%d]", i), false, primary, add, nodeMissing) {
			return
		}
	}
	if cs := bs.GetDefaultConfigSource(); cs != nil && !authorityOK(bs, cs, "default_config_source", true, primary, add, nodeMissing) {
		return
	}
	if ads := bs.GetDynamicResources().GetAdsConfig(); ads != nil {
		muxOK(bs, ads, "dynamic_resources.ads_config", false, primary, add, nodeMissing)
	}
}

// authorityOK: createAuthority's own checks, then the mux it builds.
func authorityOK(bs *bootstrapv3.Bootstrap, cs *corev3.ConfigSource, path string, isDefault bool, primary func(string) bool, add addFunc, nodeMissing func(string)) bool {
	src := cs.GetApiConfigSource()
	seen := map[string]bool{}
	switch {
	case src == nil:
		add(stageADSVersion, path, "Only api_config_source type is currently supported for xdstp-based config sources.")
		return false
	case !isDefault && len(cs.GetAuthorities()) == 0:
		add(stageADSVersion, path, "xdstp-based non-default config source must have at least one authority.")
		return false
	}
	for i, a := range cs.GetAuthorities() {
		if seen[a.GetName()] {
			add(stageADSVersion, fmt.Sprintf("%s.authorities[%d].name", path, i),
				fmt.Sprintf("xdstp-based config source authority %s is configured more than once in an xdstp-based config source.", a.GetName()))
			return false
		}
		seen[a.GetName()] = true
	}
	if !aggregated(src) {
		add(stageADSVersion, path+".api_config_source.api_type", "xdstp-based config source authority only supports AGGREGATED_GRPC and AGGREGATED_DELTA_GRPC types.")
		return false
	}
	return muxOK(bs, src, path+".api_config_source", true, primary, add, nodeMissing)
}

// muxOK: building an ADS mux from src — its back-off, its transport version, its gRPC client
// (createGrpcClients → Utility::factoryForGrpcApiConfigSource: the source's names, then its API
// type, utility.cc:241-274), then the mux, whose constructor checks the node (grpc_mux_impl.cc:84,
// checkLocalInfo("ads")).
func muxOK(bs *bootstrapv3.Bootstrap, src *corev3.ApiConfigSource, path string, xdstp bool, primary func(string) bool, add addFunc, nodeMissing func(string)) bool {
	if where, msg, bad := backoffProblem(src, path); bad {
		add(stageADSVersion, where, msg)
		return false
	}
	if p, bad := transportVersionProblem(src, path); bad {
		add(stageADSVersion, p.Path, p.Message)
		return false
	}
	if msg, bad := apiNamesProblem(src); bad {
		add(stageADSCluster, path, msg)
		return false
	}
	if t := src.GetApiType(); !xdstp && t != corev3.ApiConfigSource_GRPC && t != corev3.ApiConfigSource_DELTA_GRPC {
		add(stageADSCluster, path+".api_type", apiConfigSourceType+" type must be of non-aggregated gRPC: "+elided)
		return false
	}
	if gs := src.GetGrpcServices(); len(gs) > 0 {
		if where, msg, bad := grpcClientProblem(gs[0], path+".grpc_services[0]", true, primary); bad {
			add(stageADSCluster, where, msg)
			return false
		}
	}
	if bs.GetNode().GetId() == "" || bs.GetNode().GetCluster() == "" {
		nodeMissing(path)
		return false
	}
	return true
}

// backingClusterProblem is checkApiConfigSourceSubscriptionBackingCluster (utility.cc:136-179):
// not for an aggregated source; the names, then the first cluster name, or a GRPC source's first
// Envoy gRPC cluster, is a primary cluster. A DELTA_GRPC source's gRPC cluster is not checked.
func backingClusterProblem(src *corev3.ApiConfigSource, primary func(string) bool) (string, bool) {
	if aggregated(src) {
		return "", false
	}
	if msg, bad := apiNamesProblem(src); bad {
		return msg, true
	}
	name, check := "", false
	if names := src.GetClusterNames(); len(names) > 0 {
		name, check = names[0], true
	} else if g := src.GetGrpcServices()[0]; src.GetApiType() == corev3.ApiConfigSource_GRPC && g.GetEnvoyGrpc() != nil {
		name, check = g.GetEnvoyGrpc().GetClusterName(), true
	}
	if check && !primary(name) {
		return fmt.Sprintf("%s must have a statically defined non-EDS cluster: '%s' does not exist, was added via api, or is an EDS cluster", apiConfigSourceType, name), true
	}
	return "", false
}

// subscriptionProblem is SubscriptionFactoryImpl::subscriptionFromConfigSource (source/common/
// config/subscription_factory_impl.cc:27-110) for a source given as api_config_source, after the
// node check: the backing cluster (not for SDS), the transport version, the API type, then what
// the type's subscription factory builds (grpc_subscription_factory.cc: back-off, gRPC client,
// rate limit; http_subscription_impl.cc: refresh_delay).
func subscriptionProblem(src *corev3.ApiConfigSource, path string, sds bool, primary func(string) bool) (where, msg string, bad bool) {
	if !sds {
		if msg, bad := backingClusterProblem(src, primary); bad {
			return path, msg, true
		}
	}
	if p, bad := transportVersionProblem(src, path); bad {
		return p.Path, p.Message, true
	}
	switch src.GetApiType() {
	case corev3.ApiConfigSource_AGGREGATED_GRPC, corev3.ApiConfigSource_AGGREGATED_DELTA_GRPC:
		return path + ".api_type", "Unsupported config source " + src.GetApiType().String(), true
	case corev3.ApiConfigSource_REST:
		if src.GetRefreshDelay() == nil {
			return path, "refresh_delay is required for REST API configuration sources", true
		}
		return "", "", false
	}
	if where, msg, bad := backoffProblem(src, path); bad {
		return where, msg, true
	}
	if msg, bad := apiNamesProblem(src); bad { // SDS meets the names check only here
		return path, msg, true
	}
	g := src.GetGrpcServices()[0]
	if where, msg, bad := grpcFactoryProblem(g, path+".grpc_services[0]", false, primary); bad {
		return where, msg, true
	}
	if rl := src.GetRateLimitSettings(); rl != nil && rl.GetFillRate() != nil { // utility.cc:212-230
		if f := rl.GetFillRate().GetValue(); math.IsNaN(f) || math.IsInf(f, 0) {
			return path + ".rate_limit_settings.fill_rate", fmt.Sprintf("The value of fill_rate in RateLimitSettings (%s) must not be NaN nor Inf", cppDouble(f)), true
		}
	}
	if where, msg, bad := grpcClientProblem(g, path+".grpc_services[0]", false, primary); bad {
		return where, msg, true
	}
	return "", "", false
}

// cppDouble is a non-finite double as fmt prints it in C++.
func cppDouble(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	return fmt.Sprint(f)
}

// subscriptionChecks: a config source found at path, as the subscription it configures is made
// (subscriptionFromConfigSource: the node first, utility.cc:53). The bootstrap's authorities are
// ADS muxes (adsChecks); a CDS given by a resource locator is a collection (cdsLocatorChecks).
func subscriptionChecks(bs *bootstrapv3.Bootstrap, v *corev3.ConfigSource, path string, hasADS bool, primary func(string) bool, add addFunc) {
	if path == "default_config_source" || strings.HasPrefix(path, "config_sources[") ||
		path == "dynamic_resources.cds_config" && bs.GetDynamicResources().GetCdsResourcesLocator() != "" {
		return
	}
	st := stageSubscriptions
	switch {
	case strings.HasPrefix(path, "static_resources.clusters[") && strings.HasSuffix(path, ".eds_cluster_config.eds_config"):
		st = stageSecondaryClusters // an EDS cluster subscribes as it is built
	case strings.HasPrefix(path, "static_resources.listeners["):
		// A listener's RDS, ECDS or SDS subscription is made as the listener is built (e.g.
		// RdsRouteConfigSubscription's constructor, common/rds/rds_route_config_subscription.cc:57), in
		// its filter's order.
		st = stageListeners
	}
	if msg, bad := nodeProblem(bs, path); bad {
		if !hasADS { // else the ADS mux has said so first
			add(st, path, msg)
		}
		return
	}
	switch {
	case v.GetApiConfigSource() != nil:
		if where, msg, bad := subscriptionProblem(v.GetApiConfigSource(), path+".api_config_source", strings.HasSuffix(path, "sds_config"), primary); bad {
			add(st, where, msg)
		}
	case v.GetAds() != nil && !hasADS:
		add(st, path+".ads", "ADS must be configured to support an ADS config source")
	}
}

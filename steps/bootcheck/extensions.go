package bootcheck

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	accesslogv3 "github.com/envoyproxy/go-control-plane/envoy/config/accesslog/v3"
	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	metricsv3 "github.com/envoyproxy/go-control-plane/envoy/config/metrics/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	tracev3 "github.com/envoyproxy/go-control-plane/envoy/config/trace/v3"
	matchingv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/common/matching/v3"
	compositev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/composite/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"google.golang.org/protobuf/types/known/anypb"
)

// Envoy finds an extension's factory by the type its typed_config carries, never by the name
// written beside it (source/common/config/utility.h:266 getAndCheckFactory → getFactoryByType; the
// name is only what the message calls it): among the factories of the category the caller asks for,
// the one that registers the type (envoy/registry/registry.h:302, :355 buildFactoriesByType: each
// factory's configTypes(), which for an HTTP filter include its per-route type, envoy/server/
// filter_config.h:291). A config without typed_config, or whose type no factory of that category
// registers, is refused: "Didn't find a registered implementation for '<name>' with type URL:
// '<type>'" (the type without its type.googleapis.com/ prefix, the one a TypedStruct names when it
// is one). Which factories stock Envoy has is extensions_gen.go, generated from Envoy's build.
const (
	catNetworkFilter      = "envoy.filters.network"
	catListenerFilter     = "envoy.filters.listener"
	catUDPListenerFilter  = "envoy.filters.udp_listener"
	catQUICListenerFilter = "envoy.filters.quic_listener"
	catHTTPFilter         = "envoy.filters.http"
	catUpstreamHTTPFilter = "envoy.filters.http.upstream"
	catUpstreamSocket     = "envoy.transport_sockets.upstream"
	catDownstreamSocket   = "envoy.transport_sockets.downstream"
	catAccessLogger       = "envoy.access_loggers"
	catAccessLogFilter    = "envoy.access_loggers.extension_filters"
	catTracer             = "envoy.tracers"
	catStatsSink          = "envoy.stats_sinks"
	catLbPolicy           = "envoy.load_balancing_policies"
)

// registry is category → config type → the name of the stock factory registering it.
var registry = sync.OnceValue(func() map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, e := range stockExtensions {
		for _, c := range strings.Fields(e.categories) {
			if out[c] == nil {
				out[c] = map[string]string{}
			}
			for _, t := range strings.Fields(e.types) {
				out[c][t] = e.name
			}
		}
	}
	return out
})

// factoryName is the stock factory of the category registering typ, "" when none does.
func factoryName(category, typ string) string { return registry()[category][typ] }

// takes: a stock factory of that category registers the type.
func takes(category, typ string) bool { return typ != "" && factoryName(category, typ) != "" }

// extensionChecks refuses an extension config no stock factory of its category takes, and a
// filter found by discovery whose types or default config none takes (extensions_ecds.go).
func extensionChecks(tree []visited, add addFunc) {
	sockets := listenerSockets(tree)
	for _, n := range tree {
		switch v := n.m.Interface().(type) {
		case *listenerv3.Filter:
			if v.GetConfigDiscovery() == nil {
				factoryCheck(catNetworkFilter, v.GetName(), v.GetTypedConfig(), n.path, add)
			} else {
				ecdsCheck(catNetworkFilter, v.GetName(), v.GetConfigDiscovery(), n.path, add)
			}
		case *listenerv3.ListenerFilter:
			category := catListenerFilter
			if i := strings.LastIndex(n.path, ".listener_filters["); i >= 0 && sockets[n.path[:i]] != "" {
				category = sockets[n.path[:i]]
			}
			listenerFilterCheck(v, category, n.path, add)
		case *hcmv3.HttpFilter:
			category := httpCategory(n.path)
			switch {
			case v.GetConfigDiscovery() != nil:
				httpEcdsCheck(category, v.GetName(), v.GetConfigDiscovery(), n.path, add)
			case !v.GetIsOptional(): // an optional filter Envoy lacks is skipped (filter_chain_helper.h:136)
				factoryCheck(category, v.GetName(), v.GetTypedConfig(), n.path, add)
			}
		case *corev3.TransportSocket:
			// A cluster's socket is built by an upstream factory (upstream_impl.cc:1554,
			// transport_socket_match_impl.cc:118), a filter chain's by a downstream one
			// (filter_chain_manager_impl.cc:888); a socket wrapping another asks the same category.
			category := catUpstreamSocket
			if strings.HasPrefix(n.path, "static_resources.listeners[") {
				category = catDownstreamSocket
			}
			factoryCheck(category, v.GetName(), v.GetTypedConfig(), n.path, add)
		case *accesslogv3.AccessLog:
			factoryCheck(catAccessLogger, v.GetName(), v.GetTypedConfig(), n.path, add)
		case *accesslogv3.ExtensionFilter: // built before its logger (access_log_impl.cc:93, :338-342)
			factoryCheck(catAccessLogFilter, v.GetName(), v.GetTypedConfig(), n.path, add)
		case *tracev3.Tracing_Http:
			// The bootstrap's tracer is looked up at start (configuration_impl.cc:195), a connection
			// manager's provider when the manager is built (tracer_manager_impl.cc:46).
			factoryCheck(catTracer, v.GetName(), v.GetTypedConfig(), n.path, add)
		case *metricsv3.StatsSink: // MainImpl::initializeStatsConfig, after the listeners
			factoryCheck(catStatsSink, v.GetName(), v.GetTypedConfig(), n.path, add)
		case *bootstrapv3.Bootstrap:
			// config_validation/server.cc:113 (regex_engine.cc:16) and :139-141.
			if e := v.GetDefaultRegexEngine(); e != nil {
				factoryCheck("envoy.regex_engines", e.GetName(), e.GetTypedConfig(), "default_regex_engine", add)
			}
			typedExtensions("envoy.bootstrap", v.GetBootstrapExtensions(), "bootstrap_extensions", add)
		case *routev3.InternalRedirectPolicy: // router/config_impl.cc:285-287
			typedExtensions("envoy.internal_redirect_predicates", v.GetPredicates(), n.path+".predicates", add)
		case *routev3.VirtualHost: // its retry policy is built for each route without its own
			if p := v.GetRetryPolicy(); p != nil && slices.ContainsFunc(v.GetRoutes(), func(r *routev3.Route) bool { return r.GetRoute().GetRetryPolicy() == nil }) {
				retryPolicyCheck(p, n.path+".retry_policy", add)
			}
		case *routev3.Route: // router/config_impl.cc:794-796, :1272, :1290
			if p := v.GetRoute().GetRetryPolicy(); p != nil {
				retryPolicyCheck(p, n.path+".route.retry_policy", add)
			}
			if p := v.GetRoute().GetEarlyDataPolicy(); p != nil {
				factoryCheck("envoy.route.early_data_policy", p.GetName(), p.GetTypedConfig(), n.path+".route.early_data_policy", add)
			}
			if p := v.GetRoute().GetPathRewritePolicy(); p != nil {
				factoryCheck("envoy.path.rewrite", p.GetName(), p.GetTypedConfig(), n.path+".route.path_rewrite_policy", add)
			}
			if p := v.GetMatch().GetPathMatchPolicy(); p != nil {
				factoryCheck("envoy.path.match", p.GetName(), p.GetTypedConfig(), n.path+".match.path_match_policy", add)
			}
		}
		switch m := n.inner.(type) {
		case *matchingv3.ExtensionWithMatcher: // the filter it wraps (match_delegate/config.cc:247, :265)
			factoryCheck(httpCategory(n.path), m.GetExtensionConfig().GetName(), m.GetExtensionConfig().GetTypedConfig(), n.path+".extension_config", add)
		case *compositev3.ExecuteFilterAction:
			compositeActionCheck(m, n.path, add)
		}
	}
}

// retryPolicyCheck: a route's retry policy (or its virtual host's) looks its extensions up when
// the route is built (retry_policy_impl.cc:54-80); a retry priority only when it is named.
func retryPolicyCheck(v *routev3.RetryPolicy, path string, add addFunc) {
	for i, p := range v.GetRetryHostPredicate() {
		if factoryCheck("envoy.retry_host_predicates", p.GetName(), p.GetTypedConfig(), fmt.Sprintf("%s.retry_host_predicate[%d]", path, i), add) {
			return
		}
	}
	if p := v.GetRetryPriority(); p.GetName() != "" &&
		factoryCheck("envoy.retry_priorities", p.GetName(), p.GetTypedConfig(), path+".retry_priority", add) {
		return
	}
	typedExtensions("envoy.retry_options_predicates", v.GetRetryOptionsPredicates(), path+".retry_options_predicates", add)
}

// typedExtensions looks each config up in the category, stopping at the first refused.
func typedExtensions(category string, configs []*corev3.TypedExtensionConfig, path string, add addFunc) {
	for i, c := range configs {
		if factoryCheck(category, c.GetName(), c.GetTypedConfig(), fmt.Sprintf("%s[%d]", path, i), add) {
			return
		}
	}
}

// httpCategory: an HTTP filter of a cluster's HttpProtocolOptions or of a router's
// upstream_http_filters is an upstream one (upstream_impl.cc:1457-1466, router/config.cc), the
// others are the connection manager's.
func httpCategory(path string) string {
	if strings.Contains(path, "typed_extension_protocol_options") || strings.Contains(path, ".upstream_http_filters[") {
		return catUpstreamHTTPFilter
	}
	return catHTTPFilter
}

// factoryCheck refuses a config no stock factory of the category takes; it says whether it did.
func factoryCheck(category, name string, config *anypb.Any, path string, add addFunc) bool {
	typ := factoryType(config)
	if takes(category, typ) {
		return false
	}
	add(stageOfAny(path), path+".typed_config", fmt.Sprintf("Didn't find a registered implementation for '%s' with type URL: '%s'", name, typ))
	return true
}

// factoryType is Config::Utility::getFactoryType: the Any's type name, or the type a TypedStruct
// in it names.
func factoryType(config *anypb.Any) string {
	typ := typeName(config)
	if typ != "udpa.type.v1.TypedStruct" && typ != "xds.type.v3.TypedStruct" {
		return typ
	}
	inner, err := config.UnmarshalNew()
	if err != nil {
		return typ
	}
	url := ""
	if ts, ok := inner.(interface{ GetTypeUrl() string }); ok {
		url = ts.GetTypeUrl()
	}
	return url[strings.LastIndex(url, "/")+1:]
}

// lbPolicyChecks: with load_balancing_policy (or lb_policy LOAD_BALANCING_POLICY_CONFIG) the
// first policy whose type a load-balancer factory takes is used, and the policy may not be mixed
// with the legacy knobs (ClusterInfoImpl::configureLbPolicies, source/common/upstream/
// upstream_impl.cc).
func lbPolicyChecks(c *clusterv3.Cluster, path string, add addFunc) {
	if c.GetLoadBalancingPolicy() == nil && c.GetLbPolicy() != clusterv3.Cluster_LOAD_BALANCING_POLICY_CONFIG {
		return
	}
	common := c.GetCommonLbConfig()
	switch {
	case c.GetLoadBalancingPolicy() == nil:
		add(stageClusters, path+".lb_policy", "cluster: field load_balancing_policy need to be set")
		return
	case c.GetLbSubsetConfig() != nil:
		add(stageClusters, path+".lb_subset_config", "cluster: load_balancing_policy cannot be combined with lb_subset_config")
		return
	case common.GetZoneAwareLbConfig() != nil || common.GetLocalityWeightedLbConfig() != nil || common.GetConsistentHashingLbConfig() != nil:
		add(stageClusters, path+".common_lb_config", "cluster: load_balancing_policy cannot be combined with partial fields (zone_aware_lb_config, locality_weighted_lb_config, consistent_hashing_lb_config) of common_lb_config")
		return
	}
	var names []string
	for _, policy := range c.GetLoadBalancingPolicy().GetPolicies() {
		if takes(catLbPolicy, factoryType(policy.GetTypedExtensionConfig().GetTypedConfig())) {
			return
		}
		names = append(names, policy.GetTypedExtensionConfig().GetName())
	}
	add(stageClusters, path+".load_balancing_policy", fmt.Sprintf("cluster: didn't find a registered load balancer factory implementation for cluster: '%s' with names from [%s]",
		c.GetName(), strings.Join(names, ", ")))
}

package bootcheck

import (
	"fmt"
	"strings"

	accesslogv3 "github.com/envoyproxy/go-control-plane/envoy/config/accesslog/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	metricsv3 "github.com/envoyproxy/go-control-plane/envoy/config/metrics/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"google.golang.org/protobuf/types/known/anypb"
)

// Envoy finds an extension's factory by the type its typed_config carries, never by the name
// written beside it (source/common/config/utility.h getAndCheckFactory → getFactoryByType; the
// name is only what the message calls it). A config without typed_config, or whose type no
// factory of that kind registers, is refused: "Didn't find a registered implementation for
// '<name>' with type URL: '<type>'" (the type without its type.googleapis.com/ prefix, the one a
// TypedStruct names when it is one). Each kind of extension lives in its own package of the API,
// so the kind a type can serve is read from its package.
var extensionPackages = map[string][]string{
	"network filter":   {"envoy.extensions.filters.network."},
	"listener filter":  {"envoy.extensions.filters.listener.", "envoy.extensions.filters.udp."}, // TCP, and a UDP listener's
	"http filter":      {"envoy.extensions.filters.http."},
	"transport socket": {"envoy.extensions.transport_sockets."},
	"access logger":    {"envoy.extensions.access_loggers."},
	"lb policy":        {"envoy.extensions.load_balancing_policies."},
	"stats sink": {"envoy.extensions.stat_sinks.", // and the four whose configs live in config.metrics
		"envoy.config.metrics.v3.StatsdSink", "envoy.config.metrics.v3.DogStatsdSink", "envoy.config.metrics.v3.HystrixSink",
		"envoy.config.metrics.v3.MetricsServiceConfig"},
}

// extensionChecks refuses an extension config no stock factory of its kind takes.
func extensionChecks(tree []visited, add addFunc) {
	for _, n := range tree {
		switch v := n.m.Interface().(type) {
		case *listenerv3.Filter:
			if v.GetConfigDiscovery() == nil {
				factoryCheck("network filter", v.GetName(), v.GetTypedConfig(), n.path, add)
			}
		case *listenerv3.ListenerFilter:
			if v.GetConfigDiscovery() == nil {
				factoryCheck("listener filter", v.GetName(), v.GetTypedConfig(), n.path, add)
			}
		case *hcmv3.HttpFilter:
			// An optional filter Envoy does not have is skipped with a warning (FilterChainHelper).
			if v.GetConfigDiscovery() == nil && !v.GetIsOptional() {
				factoryCheck("http filter", v.GetName(), v.GetTypedConfig(), n.path, add)
			}
		case *corev3.TransportSocket:
			factoryCheck("transport socket", v.GetName(), v.GetTypedConfig(), n.path, add)
		case *accesslogv3.AccessLog:
			factoryCheck("access logger", v.GetName(), v.GetTypedConfig(), n.path, add)
		case *metricsv3.StatsSink: // MainImpl::initializeStatsConfig, after the listeners
			factoryCheck("stats sink", v.GetName(), v.GetTypedConfig(), n.path, add)
		}
	}
}

// takes: some stock factory of that kind registers the type.
func takes(kind, typ string) bool {
	for _, pkg := range extensionPackages[kind] {
		if typ != "" && strings.HasPrefix(typ, pkg) {
			return true
		}
	}
	return false
}

func factoryCheck(kind, name string, config *anypb.Any, path string, add addFunc) {
	typ := factoryType(config)
	if takes(kind, typ) {
		return
	}
	add(stageOfAny(path), path+".typed_config", fmt.Sprintf("Didn't find a registered implementation for '%s' with type URL: '%s'", name, typ))
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
		if takes("lb policy", factoryType(policy.GetTypedExtensionConfig().GetTypedConfig())) {
			return
		}
		names = append(names, policy.GetTypedExtensionConfig().GetName())
	}
	add(stageClusters, path+".load_balancing_policy", fmt.Sprintf("cluster: didn't find a registered load balancer factory implementation for cluster: '%s' with names from [%s]",
		c.GetName(), strings.Join(names, ", ")))
}

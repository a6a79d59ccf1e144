package bootcheck

import (
	"fmt"
	"strings"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	dubbov3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/dubbo_proxy/v3"
	redisv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/redis_proxy/v3"
	h2mv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/thrift_proxy/filters/header_to_metadata/v3"
	p2mv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/thrift_proxy/filters/payload_to_metadata/v3"
	thriftv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/thrift_proxy/v3"
	zkv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/zookeeper_proxy/v3"
)

// aggregatedOnly: a route discovery of thrift, dubbo or generic proxy over an api_config_source
// must be an aggregated one (thrift_proxy/config.cc:108-114 and the like).
func aggregatedOnly(src *corev3.ConfigSource) bool {
	api := src.GetApiConfigSource()
	return api == nil || aggregated(api)
}

// thriftProblem is thrift_proxy's ConfigImpl (thrift_proxy/config.cc:78-130): its filters, each
// built in order, then trds or the static route table.
func thriftProblem(c *thriftv3.ThriftProxy, static map[string]*clusterv3.Cluster) (msg, field string) {
	for i, f := range c.GetThriftFilters() {
		at := fmt.Sprintf(".thrift_filters[%d].typed_config", i)
		inner, err := f.GetTypedConfig().UnmarshalNew()
		if err != nil {
			continue
		}
		switch v := inner.(type) {
		case *h2mv3.HeaderToMetadata: // header_to_metadata_filter.cc:29-43, rule by rule
			for j, r := range v.GetRequestRules() {
				where := fmt.Sprintf("%s.request_rules[%d]", at, j)
				if r.GetOnPresent() == nil && r.GetOnMissing() == nil {
					return fmt.Sprintf("header to metadata filter: rule for header '%s' has neither `on_present` nor `on_missing` set", strings.ToLower(r.GetHeader())), where
				}
				if r.GetOnMissing() != nil && r.GetOnMissing().GetValue() == "" {
					return "Cannot specify on_missing rule with empty value", where + ".on_missing"
				}
			}
		case *p2mv3.PayloadToMetadata: // payload_to_metadata_filter.cc:35-42
			for j, r := range v.GetRequestRules() {
				where := fmt.Sprintf("%s.request_rules[%d]", at, j)
				if r.GetOnPresent() == nil && r.GetOnMissing() == nil {
					return "payload to metadata filter: neither `on_present` nor `on_missing` set", where
				}
				if r.GetOnMissing() != nil && r.GetOnMissing().GetValue() == "" {
					return "payload to metadata filter: cannot specify on_missing rule without non-empty value", where + ".on_missing"
				}
			}
		}
	}
	if c.GetTrds() != nil {
		switch {
		case c.GetRouteConfig() != nil:
			return "both trds and route_config is present in ThriftProxy", ".trds"
		case !aggregatedOnly(c.GetTrds().GetConfigSource()):
			return "trds supports only aggregated api_type in api_config_source", ".trds.config_source.api_config_source.api_type"
		}
		return "", ""
	}
	return thriftRoutesProblem(c.GetRouteConfig(), static)
}

// thriftRoutesProblem is RouteMatcher (thrift_proxy/router/router_impl.cc:197-228), the static
// table validating its clusters unless it says not to (router/config.h:33; static_route_config_
// provider_impl.cc:15): route by route, the entry (its rate limits, :20-44; an inverted match
// needs a name, :145-173), then its clusters (:52-71) and its mirrors' (:218-224).
func thriftRoutesProblem(rc *thriftv3.RouteConfiguration, static map[string]*clusterv3.Cluster) (msg, field string) {
	validate := rc.GetValidateClusters() == nil || rc.GetValidateClusters().GetValue()
	known := func(name string) bool { _, ok := static[name]; return ok }
	for i, r := range rc.GetRoutes() {
		at := fmt.Sprintf(".route_config.routes[%d]", i)
		for j, rl := range r.GetRoute().GetRateLimits() {
			for k, a := range rl.GetActions() {
				if n := thriftUnsupportedAction(a); n != 0 {
					return fmt.Sprintf("unsupported RateLimit Action %d", n), fmt.Sprintf("%s.route.rate_limits[%d].actions[%d]", at, j, k)
				}
			}
		}
		m := r.GetMatch()
		if m.GetInvert() {
			switch s := m.GetMatchSpecifier().(type) {
			case *thriftv3.RouteMatch_MethodName:
				if s.MethodName == "" {
					return "Cannot have an empty method name with inversion enabled", at + ".match"
				}
			case *thriftv3.RouteMatch_ServiceName:
				if s.ServiceName == "" {
					return "Cannot have an empty service name with inversion enabled", at + ".match"
				}
			}
		}
		if !validate {
			continue
		}
		action := r.GetRoute()
		switch {
		case action.GetCluster() != "":
			if !known(action.GetCluster()) {
				return fmt.Sprintf("route: unknown thrift cluster '%s'", action.GetCluster()), at + ".route.cluster"
			}
		case action.GetWeightedClusters() != nil:
			for j, w := range action.GetWeightedClusters().GetClusters() {
				if !known(w.GetName()) {
					return fmt.Sprintf("route: unknown thrift weighted cluster '%s'", w.GetName()), fmt.Sprintf("%s.route.weighted_clusters.clusters[%d].name", at, j)
				}
			}
		}
		for j, p := range action.GetRequestMirrorPolicies() {
			if !known(p.GetCluster()) {
				return fmt.Sprintf("route: unknown thrift shadow cluster '%s'", p.GetCluster()), fmt.Sprintf("%s.route.request_mirror_policies[%d].cluster", at, j)
			}
		}
	}
	return "", ""
}

// dubboProblem is dubbo_proxy's ConfigImpl (dubbo_proxy/config.cc:103-121): drds, or multiple
// route configs, each exclusive of the (deprecated) route_config list.
func dubboProblem(c *dubbov3.DubboProxy) (msg, field string) {
	switch {
	case c.GetDrds() != nil && len(c.GetRouteConfig()) > 0: //nolint:staticcheck // deprecated, still read
		return "both drds and route_config is present in DubboProxy", ".drds"
	case c.GetDrds() != nil && !aggregatedOnly(c.GetDrds().GetConfigSource()):
		return "drds supports only aggregated api_type in api_config_source", ".drds.config_source.api_config_source.api_type"
	case c.GetDrds() == nil && c.GetMultipleRouteConfig() != nil && len(c.GetRouteConfig()) > 0: //nolint:staticcheck
		return "both mutiple_route_config and route_config is present in DubboProxy", ".multiple_route_config"
	}
	return "", ""
}

// zookeeperProblem: an opcode's latency threshold set twice (zookeeper_proxy/config.cc:41-49),
// named by its number.
func zookeeperProblem(c *zkv3.ZooKeeperProxy) (msg, field string) {
	seen := map[zkv3.LatencyThresholdOverride_Opcode]bool{}
	for i, o := range c.GetLatencyThresholdOverrides() {
		if seen[o.GetOpcode()] {
			return fmt.Sprintf("Duplicated opcode find in config: %d", o.GetOpcode()), fmt.Sprintf(".latency_threshold_overrides[%d].opcode", i)
		}
		seen[o.GetOpcode()] = true
	}
	return "", ""
}

// redisProblem: a redis proxy routes somewhere (redis_proxy/config.cc:62-65), each prefix once,
// lower-cased first when matching ignores case (router_impl.cc:80-93).
func redisProblem(c *redisv3.RedisProxy) (msg, field string) {
	pr := c.GetPrefixRoutes()
	if len(pr.GetRoutes()) == 0 && pr.GetCatchAllRoute() == nil {
		return "cannot configure a redis-proxy without any upstream", ".prefix_routes"
	}
	seen := map[string]bool{}
	for i, r := range pr.GetRoutes() {
		key := r.GetPrefix()
		if pr.GetCaseInsensitive() {
			key = strings.ToLower(key)
		}
		if seen[key] {
			return fmt.Sprintf("prefix `%s` already exists.", r.GetPrefix()), fmt.Sprintf(".prefix_routes.routes[%d].prefix", i)
		}
		seen[key] = true
	}
	return "", ""
}

// thriftUnsupportedAction is the field number of a rate limit action the thrift route does not
// know, 0 for one it does: it takes the HTTP RateLimit but only source and destination cluster,
// request headers, remote address, generic key and header value match (fields 1-6), and names
// any other by its number (router_ratelimit_impl.cc:95-120, absl::StrCat of the oneof case).
func thriftUnsupportedAction(a *routev3.RateLimit_Action) int {
	m := a.ProtoReflect()
	fd := m.WhichOneof(m.Descriptor().Oneofs().ByName("action_specifier"))
	if fd == nil || fd.Number() <= 6 {
		return 0
	}
	return int(fd.Number())
}

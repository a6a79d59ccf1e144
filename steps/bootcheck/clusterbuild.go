package bootcheck

import (
	"fmt"
	"strings"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	upstreamhttpv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/upstreams/http/v3"
)

// What building one cluster refuses, in the order Envoy meets it (source/common/upstream/
// cluster_factory_impl.cc ClusterFactoryImplBase::create, then the cluster type's factory, then
// upstream_impl.cc: ClusterImplBase's constructor and ClusterInfoImpl's), for the checks a
// bootstrap can trip. Each check returns at its first refusal, as Envoy does.

// builtInClusterType is the factory name ClusterFactoryImplBase::create looks a built-in type up by.
var builtInClusterType = map[clusterv3.Cluster_DiscoveryType]string{
	clusterv3.Cluster_STATIC:       "envoy.cluster.static",
	clusterv3.Cluster_STRICT_DNS:   "envoy.cluster.strict_dns",
	clusterv3.Cluster_LOGICAL_DNS:  "envoy.cluster.logical_dns",
	clusterv3.Cluster_ORIGINAL_DST: "envoy.cluster.original_dst",
	clusterv3.Cluster_EDS:          "envoy.cluster.eds",
}

// clusterBuildChecks: what building one static cluster refuses, in Envoy's order, stopping at
// the first as Envoy does: the factory lookup (ClusterFactoryImplBase::create), the type's own
// checks, ClusterImplBase's constructor (the transport socket factory and matcher, then
// ClusterInfoImpl, then ALPN/HTTP3, drop overloads), the hosts, the health checker, and the
// cluster manager's LB check (loadCluster), then the load balancer it makes.
func clusterBuildChecks(c *clusterv3.Cluster, path string, bs *bootstrapv3.Bootstrap, add addFunc) {
	localClusterName := bs.GetClusterManager().GetLocalClusterName()
	stopped, st := false, clusterStage(c)
	one := func(_ stage, p, msg string) {
		if !stopped {
			stopped = true
			add(st, p, msg)
		}
	}
	step := func(msg, where string) bool {
		if msg != "" {
			one(st, path+where, msg)
		}
		return !stopped
	}
	factory, typeName, ok := clusterFactory(c, path, one)
	if !ok {
		return
	}
	if c.GetCommonLbConfig().GetConsistentHashingLbConfig().GetUseHostnameForHashing() && c.GetType() != clusterv3.Cluster_STRICT_DNS &&
		!step(fmt.Sprintf("Cannot use hostname for consistent hashing loadbalancing for cluster of type: '%s'", typeName), ".common_lb_config.consistent_hashing_lb_config.use_hostname_for_hashing") {
		return
	}
	if !step(factoryProblem(c, factory)) || !step(originalDstProblem(c, factory)) || !step(dfpCacheProblem(c, bs)) {
		return
	}
	// EdsClusterFactory::createClusterImpl (source/extensions/clusters/eds/eds.cc).
	if factory == "envoy.cluster.eds" && c.GetEdsClusterConfig() == nil && !step("cannot create an EDS cluster without an EDS config", ".type") {
		return
	}
	// ClusterImplBase's constructor builds the transport socket factory (createTransportSocketFactory,
	// upstream_impl.cc:1663), then the transport socket matcher (:1672), before ClusterInfoImpl
	// (:1678): a check of the cluster's transport sockets belongs right here, before
	// transportSocketMatchProblem.
	if !step(transportSocketMatchProblem(c)) {
		return
	}
	opts := httpOptions(c)
	if !step(clusterInfoProblem(c, opts, bs)) {
		return
	}
	if lbPolicyChecks(c, path, one); stopped || !step(lbConfigProblem(c)) {
		return
	}
	if !step(clusterBodyProblem(c, opts, bs)) || !step(dnsClusterProblem(c, factory)) || !step(dfpClusterProblem(c, opts)) {
		return
	}
	localCluster := c.GetName() == localClusterName && localClusterName != ""
	if factory == "envoy.cluster.static" {
		if !step(staticHostsProblem(c, localCluster, runtimeFlag(bs, "envoy.reloadable_features.happy_eyeballs_sort_non_ip_addresses", true))) {
			return
		}
	} else if !step(otherHostsProblem(c, localCluster)) {
		return
	}
	if len(c.GetHealthChecks()) > 1 { // ClusterFactoryImplBase::create, after the cluster is made
		one(stageClusters, path+".health_checks", "Multiple health checks not supported")
		return
	}
	if !step(healthCheckProblem(c, opts)) || !step(outlierProblem(c)) || !step(providedLBProblem(c, factory)) {
		return
	}
	step(threadAwareLBProblem(c))
}

// outlierProblem: DetectorImpl::create (outlier_detection_impl.cc:323-331), after the health
// checker: max_ejection_time, when set, is not below base_ejection_time (default 30s).
func outlierProblem(c *clusterv3.Cluster) (msg, where string) {
	od := c.GetOutlierDetection()
	if od == nil || od.GetMaxEjectionTime() == nil {
		return "", ""
	}
	base := int64(30000)
	if od.GetBaseEjectionTime() != nil {
		base = od.GetBaseEjectionTime().AsDuration().Milliseconds()
	}
	if od.GetMaxEjectionTime().AsDuration().Milliseconds() < base {
		return "outlier detector's max_ejection_time cannot be smaller than base_ejection_time", ".outlier_detection.max_ejection_time"
	}
	return "", ""
}

// transportSocketMatchProblem: with transport_socket_matcher, each transport_socket_matches entry
// is named, once (TransportSocketMatcherImpl, transport_socket_match_impl.cc:190-211).
func transportSocketMatchProblem(c *clusterv3.Cluster) (msg, where string) {
	if c.GetTransportSocketMatcher() == nil {
		return "", ""
	}
	seen := map[string]bool{}
	for i, m := range c.GetTransportSocketMatches() {
		switch {
		case m.GetName() == "":
			return "Transport socket name is required when using transport_socket_matcher", fmt.Sprintf(".transport_socket_matches[%d]", i)
		case seen[m.GetName()]:
			return fmt.Sprintf("Duplicate transport socket name '%s' found in transport_socket_matches", m.GetName()), fmt.Sprintf(".transport_socket_matches[%d].name", i)
		}
		seen[m.GetName()] = true
	}
	return "", ""
}

// clusterInfoProblem: ClusterInfoImpl's member initialisers (the circuit breakers) and the first
// checks of its constructor's body.
func clusterInfoProblem(c *clusterv3.Cluster, opts *upstreamhttpv3.HttpProtocolOptions, bs *bootstrapv3.Bootstrap) (msg, where string) {
	if msg, where := protocolOptionsProblem(c); msg != "" {
		return msg, where
	}
	if msg, where := httpOptionsProblem(c, opts, bs); msg != "" {
		return msg, where
	}
	for _, t := range c.GetCircuitBreakers().GetPerHostThresholds() { // ResourceManagers::load
		if t.GetMaxPendingRequests() != nil || t.GetMaxRequests() != nil || t.GetMaxRetries() != nil || t.GetMaxConnectionPools() != nil || t.GetRetryBudget() != nil {
			return "Unsupported field in per_host_thresholds", ".circuit_breakers.per_host_thresholds"
		}
	}
	if msg, where := bindConfigProblem(c, bs); msg != "" {
		return msg, where
	}
	if c.GetTrackClusterStats().GetPerEndpointStats() && bs.GetClusterManager().GetLoadStatsConfig() != nil {
		return "Only one of cluster per_endpoint_stats and cluster manager load_stats_config can be specified", ".track_cluster_stats.per_endpoint_stats"
	}
	if c.GetMaxRequestsPerConnection() != nil && opts.GetCommonHttpProtocolOptions().GetMaxRequestsPerConnection() != nil {
		return "Only one of max_requests_per_connection from Cluster or HttpProtocolOptions can be specified", ".max_requests_per_connection"
	}
	return "", ""
}

// clusterBodyProblem: the rest of ClusterInfoImpl's constructor, then ClusterImplBase's.
func clusterBodyProblem(c *clusterv3.Cluster, opts *upstreamhttpv3.HttpProtocolOptions, bs *bootstrapv3.Bootstrap) (msg, where string) {
	if c.GetLbSubsetConfig().GetLocalityWeightAware() && c.GetCommonLbConfig().GetLocalityWeightedLbConfig() == nil {
		return "Locality weight aware subset LB requires that a locality_weighted_lb_config be set in " + c.GetName(), ".lb_subset_config.locality_weight_aware"
	}
	if c.GetEdsClusterConfig() != nil && c.GetType() != clusterv3.Cluster_EDS {
		return "eds_cluster_config set in a non-EDS cluster", ".eds_cluster_config"
	}
	for i, f := range c.GetFilters() {
		if f.GetConfigDiscovery() != nil && f.GetTypedConfig() != nil {
			return "Only one of typed_config or config_discovery can be used", fmt.Sprintf(".filters[%d]", i)
		}
	}
	if filters := opts.GetHttpFilters(); len(filters) > 0 {
		const codec = "envoy.extensions.filters.http.upstream_codec.v3.UpstreamCodec"
		if factoryType(filters[len(filters)-1].GetTypedConfig()) != codec {
			return fmt.Sprintf("The codec filter is the only valid terminal upstream HTTP filter, use '%s'", codec), fmt.Sprintf("%s[%s].http_filters", ".typed_extension_protocol_options", httpProtocolOptions)
		}
	}
	// ClusterImplBase's constructor: auto_config negotiates by ALPN, which the default
	// raw_buffer socket cannot (the message ends with the cluster's DebugString: elided).
	if opts.GetAutoConfig() != nil && (c.GetTransportSocket() == nil || factoryType(c.GetTransportSocket().GetTypedConfig()) == "envoy.extensions.transport_sockets.raw_buffer.v3.RawBuffer") {
		return fmt.Sprintf("ALPN configured for cluster %s which has a non-ALPN transport socket: %s", c.GetName(), elided), ".typed_extension_protocol_options"
	}
	if opts.GetAutoConfig() != nil && !runtimeKeySet(bs, "config.do_not_validate_alpn_support") { // :1698-1704
		for i, m := range c.GetTransportSocketMatches() {
			if factoryType(m.GetTransportSocket().GetTypedConfig()) == "envoy.extensions.transport_sockets.raw_buffer.v3.RawBuffer" {
				return fmt.Sprintf("ALPN configured for cluster %s which has a non-ALPN transport socket matcher: %s", c.GetName(), elided), fmt.Sprintf(".transport_socket_matches[%d]", i)
			}
		}
	}
	quic := c.GetTransportSocket().GetName() == "envoy.transport_sockets.quic" || c.GetTransportSocket().GetName() == "envoy.transport_sockets.http_11_proxy"
	if usesHTTP3(opts) && !quic { // the socket's DebugString ends the message: elided
		return fmt.Sprintf("HTTP3 requires a QuicUpstreamTransport transport socket: %s %s", c.GetName(), elided), ".transport_socket"
	}
	policy := c.GetLoadAssignment().GetPolicy()
	if n := len(policy.GetDropOverloads()); n > 1 { // ClusterImplBase::parseDropOverloadConfig
		return fmt.Sprintf("Cluster drop_overloads config has %d categories. Envoy only support one.", n), ".load_assignment.policy.drop_overloads"
	}
	if drops := policy.GetDropOverloads(); len(drops) == 1 {
		pct := drops[0].GetDropPercentage()
		denominator := map[string]float32{"HUNDRED": 100, "TEN_THOUSAND": 10000, "MILLION": 1000000}[pct.GetDenominator().String()]
		if ratio := float32(pct.GetNumerator()) / denominator; ratio > 1 {
			return fmt.Sprintf("Cluster drop_overloads config is invalid. drop_ratio=%s(Numerator %d / Denominator %s). The valid range is 0~1.",
				strings.TrimSuffix(fmt.Sprint(ratio), ".0"), pct.GetNumerator(), fmt.Sprint(denominator)), ".load_assignment.policy.drop_overloads[0].drop_percentage"
		}
		if limit, ok := runtimeInteger(bs, "load_balancing_policy.drop_overload_limit"); ok && limit > 100 { // :1920-1926
			return fmt.Sprintf("load_balancing_policy.drop_overload_limit runtime key config %d is invalid. The valid range is 0~100", limit), ".load_assignment.policy.drop_overloads[0]"
		}
	}
	return "", ""
}

// httpOptions is the cluster's typed HttpProtocolOptions, or nil.
func httpOptions(c *clusterv3.Cluster) *upstreamhttpv3.HttpProtocolOptions {
	a := c.GetTypedExtensionProtocolOptions()[httpProtocolOptions]
	if a == nil {
		return nil
	}
	var o upstreamhttpv3.HttpProtocolOptions
	if a.UnmarshalTo(&o) != nil {
		return nil
	}
	return &o
}

// usesHTTP3: the cluster's HTTP options let it speak HTTP/3 (ClusterInfoImpl's HTTP3 feature).
func usesHTTP3(o *upstreamhttpv3.HttpProtocolOptions) bool {
	return o.GetExplicitHttpConfig().GetHttp3ProtocolOptions() != nil || o.GetAutoConfig().GetHttp3ProtocolOptions() != nil ||
		o.GetUseDownstreamProtocolConfig().GetHttp3ProtocolOptions() != nil
}

// originalDstProblem: OriginalDstClusterFactory::createClusterImpl (original_dst_cluster.cc:
// 353-405), before the cluster is built.
func originalDstProblem(c *clusterv3.Cluster, factory string) (msg, where string) {
	if factory != "envoy.cluster.original_dst" {
		return "", ""
	}
	if c.GetLbPolicy() != clusterv3.Cluster_CLUSTER_PROVIDED {
		typ := c.GetType().String()
		if c.GetClusterType() != nil {
			typ = c.GetClusterType().GetName()
		}
		return fmt.Sprintf("cluster: LB policy %s is not valid for Cluster type %s. Only 'CLUSTER_PROVIDED' is allowed with cluster type 'ORIGINAL_DST'", c.GetLbPolicy(), typ), ".lb_policy"
	}
	if c.GetLoadAssignment() != nil {
		return "ORIGINAL_DST clusters must have no load assignment configured", ".load_assignment"
	}
	if lb := c.GetOriginalDstLbConfig(); !lb.GetUseHttpHeader() && lb.GetHttpHeaderName() != "" {
		return fmt.Sprintf("ORIGINAL_DST cluster: invalid config http_header_name=%s and use_http_header is false. Set use_http_header to true if http_header_name is desired.",
			lb.GetHttpHeaderName()), ".original_dst_lb_config"
	}
	return "", ""
}

// dnsClusterProblem: DnsClusterImpl's constructor (source/extensions/clusters/dns/dns_cluster.cc:
// 169-201), once its base is built: a LOGICAL_DNS cluster has one host, and no DNS cluster
// names an address resolver (they resolve their hosts themselves).
func dnsClusterProblem(c *clusterv3.Cluster, factory string) (msg, where string) {
	if factory != "envoy.cluster.logical_dns" && factory != "envoy.cluster.strict_dns" {
		return "", ""
	}
	if r := c.GetDnsFailureRefreshRate(); r != nil { // Utility::prepareDnsRefreshStrategy, utility.h:449-457
		base := r.GetBaseInterval().AsDuration().Milliseconds()
		if r.GetMaxInterval() != nil && r.GetMaxInterval().AsDuration().Milliseconds() < base {
			return "dns_failure_refresh_rate must have max_interval greater than or equal to the base_interval", ".dns_failure_refresh_rate"
		}
	}
	if factory == "envoy.cluster.logical_dns" {
		eps := c.GetLoadAssignment().GetEndpoints()
		if len(eps) != 1 || len(eps[0].GetLbEndpoints()) != 1 {
			if c.GetLoadAssignment() != nil {
				return "LOGICAL_DNS clusters must have a single locality_lb_endpoint and a single lb_endpoint", ".load_assignment"
			}
			return "LOGICAL_DNS clusters must have a single host", ".load_assignment"
		}
	}
	for i, locality := range c.GetLoadAssignment().GetEndpoints() {
		for j, lb := range locality.GetLbEndpoints() {
			if lb.GetEndpoint().GetAddress().GetSocketAddress().GetResolverName() != "" {
				kind := "STRICT_DNS"
				if factory == "envoy.cluster.logical_dns" {
					kind = "LOGICAL_DNS"
				}
				return kind + " clusters must NOT have a custom resolver name set",
					fmt.Sprintf(".load_assignment.endpoints[%d].lb_endpoints[%d].endpoint.address.socket_address.resolver_name", i, j)
			}
		}
	}
	return "", ""
}

// otherHostsProblem: for the other cluster types, the local cluster's priorities and a host's
// health check port, as their hosts are made.
func otherHostsProblem(c *clusterv3.Cluster, localCluster bool) (msg, where string) {
	for i, locality := range c.GetLoadAssignment().GetEndpoints() {
		if localCluster && locality.GetPriority() > 0 { // ClusterImplBase::validateEndpointsForZoneAwareRouting
			return fmt.Sprintf("Unexpected non-zero priority for local cluster '%s'.", c.GetName()), fmt.Sprintf(".load_assignment.endpoints[%d].priority", i)
		}
	}
	for i, locality := range c.GetLoadAssignment().GetEndpoints() {
		for j, lb := range locality.GetLbEndpoints() {
			ep := lb.GetEndpoint()
			if ep.GetHealthCheckConfig().GetPortValue() != 0 && ep.GetAddress().GetPipe() != nil { // HostDescriptionImplBase
				return "Invalid host configuration: non-zero port for non-IP address",
					fmt.Sprintf(".load_assignment.endpoints[%d].lb_endpoints[%d].endpoint.health_check_config.port_value", i, j)
			}
		}
	}
	return "", ""
}

// clusterStage: a static EDS cluster whose endpoints do not come from a file is secondary, built
// after the ADS mux (ClusterManagerImpl::initialize, cluster_manager_impl.cc:376-425); the others
// are primary.
func clusterStage(c *clusterv3.Cluster) stage {
	src := c.GetEdsClusterConfig().GetEdsConfig()
	if c.GetType() == clusterv3.Cluster_EDS && src.GetPath() == "" && src.GetPathConfigSource() == nil {
		return stageSecondaryClusters
	}
	return stageClusters
}

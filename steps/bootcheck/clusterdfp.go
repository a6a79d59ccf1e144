package bootcheck

import (
	"fmt"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	dfpv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/clusters/dynamic_forward_proxy/v3"
	upstreamhttpv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/upstreams/http/v3"
)

// dfpConfig is a dynamic_forward_proxy cluster's config, nil for any other cluster.
func dfpConfig(c *clusterv3.Cluster) *dfpv3.ClusterConfig {
	var cfg dfpv3.ClusterConfig
	if c.GetClusterType().GetTypedConfig().UnmarshalTo(&cfg) != nil {
		return nil
	}
	return &cfg
}

// dfpCacheProblem: the DNS cache a dynamic_forward_proxy cluster gets before it is built
// (DnsCacheManagerImpl::getCache, extensions/common/dynamic_forward_proxy/
// dns_cache_manager_impl.cc:17-24; DnsCacheImpl::createDnsCacheImpl, dns_cache_impl.cc:20-26):
// one name, one config, across the clusters built before it; no more hosts to pre-resolve than
// max_hosts (default 1024).
func dfpCacheProblem(c *clusterv3.Cluster, bs *bootstrapv3.Bootstrap) (msg, where string) {
	cfg := dfpConfig(c)
	if cfg == nil {
		return "", ""
	}
	cache := cfg.GetDnsCacheConfig()
	for _, earlier := range bs.GetStaticResources().GetClusters() {
		if earlier == c {
			break
		}
		if other := dfpConfig(earlier); other != nil && other.GetDnsCacheConfig().GetName() == cache.GetName() {
			if !equivalent(other.GetDnsCacheConfig(), cache) { // MessageDifferencer::Equivalent
				return fmt.Sprintf("config specified DNS cache '%s' with different settings", cache.GetName()), ".cluster_type.typed_config.dns_cache_config"
			}
			return "", ""
		}
	}
	maxHosts := uint32(1024)
	if cache.GetMaxHosts() != nil {
		maxHosts = cache.GetMaxHosts().GetValue()
	}
	if n := len(cache.GetPreresolveHostnames()); n > int(maxHosts) {
		return fmt.Sprintf("DNS Cache [%s] configured with preresolve_hostnames=%d larger than max_hosts=%d", cache.GetName(), n, maxHosts), ".cluster_type.typed_config.dns_cache_config"
	}
	return "", ""
}

// dfpClusterProblem: the checks ClusterFactory::createClusterWithConfig makes once the cluster
// is built (extensions/clusters/dynamic_forward_proxy/cluster.cc:633-647): auto_sni and
// auto_san_validation, which the factory turns on for the cluster's own (legacy) options but not
// for typed HttpProtocolOptions; and no CLUSTER_PROVIDED sub-cluster policy.
func dfpClusterProblem(c *clusterv3.Cluster, opts *upstreamhttpv3.HttpProtocolOptions) (msg, where string) {
	cfg := dfpConfig(c)
	if cfg == nil {
		return "", ""
	}
	up, set := c.GetUpstreamHttpProtocolOptions(), c.GetUpstreamHttpProtocolOptions() != nil
	if opts != nil {
		up, set = opts.GetUpstreamHttpProtocolOptions(), opts.GetUpstreamHttpProtocolOptions() != nil
	}
	secure := !set && opts == nil || up.GetAutoSni() && up.GetAutoSanValidation()
	if !cfg.GetAllowInsecureClusterOptions() && !secure {
		return "dynamic_forward_proxy cluster must have auto_sni and auto_san_validation true unless allow_insecure_cluster_options is set.", ".cluster_type.typed_config"
	}
	if cfg.GetSubClustersConfig() != nil && cfg.GetSubClustersConfig().GetLbPolicy() == clusterv3.Cluster_CLUSTER_PROVIDED {
		return "unsupported lb_policy 'CLUSTER_PROVIDED' in sub_cluster_config", ".cluster_type.typed_config.sub_clusters_config.lb_policy"
	}
	return "", ""
}

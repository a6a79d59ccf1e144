package bootcheck

import (
	"fmt"
	"strings"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	dnsclusterv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/clusters/dns/v3"
	caresv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/network/dns_resolver/cares/v3"
	"google.golang.org/protobuf/types/known/anypb"
)

// The cluster factories of the stock build (source/extensions/extensions_build_config.bzl), by the
// name each registers (ClusterFactoryImplBase(name)) and, for those with a config of their own
// (ConfigurableClusterFactoryBase<ConfigProto>), by that config's type.
var (
	clusterFactoryNames = map[string]bool{
		"envoy.cluster.static": true, "envoy.cluster.eds": true, "envoy.cluster.dns": true,
		"envoy.cluster.strict_dns": true, "envoy.cluster.logical_dns": true, "envoy.cluster.original_dst": true,
		"envoy.clusters.aggregate": true, "envoy.clusters.composite": true, "envoy.clusters.dynamic_forward_proxy": true,
		"envoy.clusters.dynamic_modules": true, "envoy.clusters.mcp_multicluster": true, "envoy.clusters.redis": true,
		"envoy.clusters.reverse_connection": true,
	}
	clusterFactoryTypes = map[string]string{
		"envoy.extensions.clusters.aggregate.v3.ClusterConfig":                           "envoy.clusters.aggregate",
		"envoy.extensions.clusters.composite.v3.ClusterConfig":                           "envoy.clusters.composite",
		"envoy.extensions.clusters.dns.v3.DnsCluster":                                    "envoy.cluster.dns",
		"envoy.extensions.clusters.dynamic_forward_proxy.v3.ClusterConfig":               "envoy.clusters.dynamic_forward_proxy",
		"envoy.extensions.clusters.dynamic_modules.v3.ClusterConfig":                     "envoy.clusters.dynamic_modules",
		"envoy.extensions.clusters.mcp_multicluster.v3.ClusterConfig":                    "envoy.clusters.mcp_multicluster",
		"envoy.extensions.clusters.original_dst.v3.OriginalDstCluster":                   "envoy.cluster.original_dst",
		"envoy.extensions.clusters.redis.v3.RedisClusterConfig":                          "envoy.clusters.redis",
		"envoy.extensions.clusters.reverse_connection.v3.ReverseConnectionClusterConfig": "envoy.clusters.reverse_connection",
	}
)

// clusterFactory is ClusterFactoryImplBase::create's lookup (source/common/upstream/
// cluster_factory_impl.cc:26-68): by cluster_type's typed_config type when it has one that is
// not a Struct, else by name (the built-in type's, or cluster_type.name). It returns the factory
// found and the name Envoy's later messages call the type by ("" when found by type).
func clusterFactory(c *clusterv3.Cluster, path string, add addFunc) (factory, name string, ok bool) {
	ct := c.GetClusterType()
	if typ := typeName(ct.GetTypedConfig()); ct.GetTypedConfig() != nil && typ != "google.protobuf.Struct" {
		if factory, ok = clusterFactoryTypes[typ]; !ok {
			add(stageClusters, path+".cluster_type.typed_config", fmt.Sprintf("Didn't find a registered cluster factory implementation for type: '%s'", typ))
		}
		return factory, "", ok
	}
	name = builtInClusterType[c.GetType()]
	if ct != nil {
		name = ct.GetName()
	}
	if !clusterFactoryNames[name] {
		add(stageClusters, path+".cluster_type.name", fmt.Sprintf("Didn't find a registered cluster factory implementation for name: '%s'", name))
		return "", name, false
	}
	return name, name, true
}

// factoryProblem: the checks a cluster type's factory makes before it builds the cluster
// (createClusterImpl / createClusterWithConfig), for the types whose checks need no DNS or file.
func factoryProblem(c *clusterv3.Cluster, factory string) (msg, where string) {
	provided := c.GetLbPolicy() == clusterv3.Cluster_CLUSTER_PROVIDED
	switch factory {
	case "envoy.cluster.static":
		for i, locality := range c.GetLoadAssignment().GetEndpoints() { // static_cluster.cc:86-91
			if locality.GetLedsClusterLocalityConfig() != nil {
				return fmt.Sprintf("LEDS is only supported when EDS is used. Static cluster %s cannot use LEDS.", c.GetName()),
					fmt.Sprintf(".load_assignment.endpoints[%d].leds_cluster_locality_config", i)
			}
		}
	case "envoy.clusters.redis": // redis_cluster.cc:850-854, then its resolver
		if c.GetClusterType().GetName() != "envoy.clusters.redis" {
			return "Redis cluster can only created with redis cluster type.", ".cluster_type.name"
		}
		return caresResolverProblem(clusterDNSResolvers(c))
	case "envoy.cluster.strict_dns", "envoy.cluster.logical_dns": // dns_cluster.cc:57-61
		return caresResolverProblem(clusterDNSResolvers(c))
	case "envoy.cluster.dns": // dns_cluster.cc:28-30
		dc := &dnsclusterv3.DnsCluster{}
		if c.GetClusterType().GetTypedConfig().UnmarshalTo(dc) == nil {
			if r := dc.GetTypedDnsResolverConfig(); r.GetTypedConfig() != nil {
				return caresResolverProblem(caresResolvers(r.GetTypedConfig()), ".cluster_type.typed_config.typed_dns_resolver_config.typed_config.resolvers")
			}
		}
	case "envoy.clusters.reverse_connection": // reverse_connection.cc:313-323
		if !provided {
			return fmt.Sprintf("cluster: LB policy %s is not valid for Cluster type %s. Only 'CLUSTER_PROVIDED' is allowed with cluster type 'REVERSE_CONNECTION'",
				c.GetLbPolicy(), c.GetClusterType().GetName()), ".lb_policy"
		}
		if c.GetLoadAssignment() != nil {
			return "Reverse Conn clusters must have no load assignment configured", ".load_assignment"
		}
	case "envoy.clusters.dynamic_modules": // dynamic_modules/cluster.cc:893-897, before the module loads
		if !provided {
			return fmt.Sprintf("cluster: LB policy %s is not valid for cluster type 'envoy.clusters.dynamic_modules'. Only 'CLUSTER_PROVIDED' is allowed.", c.GetLbPolicy()), ".lb_policy"
		}
	}
	return "", ""
}

// providesLB: the cluster type hands the cluster manager a load balancer of its own
// (the second of the pair createClusterImpl returns).
func providesLB(c *clusterv3.Cluster, factory string) bool {
	switch factory {
	case "envoy.cluster.original_dst", "envoy.clusters.aggregate", "envoy.clusters.composite", "envoy.clusters.mcp_multicluster",
		"envoy.clusters.dynamic_forward_proxy", "envoy.clusters.reverse_connection", "envoy.clusters.dynamic_modules":
		return true
	case "envoy.clusters.redis": // redis_cluster.cc:858: no LB of its own unless CLUSTER_PROVIDED
		return c.GetLbPolicy() == clusterv3.Cluster_CLUSTER_PROVIDED
	}
	return false
}

// providedLBProblem is ClusterManagerImpl::loadCluster's check once the cluster is made
// (cluster_manager_impl.cc:893-907): CLUSTER_PROVIDED if and only if the type provides a load
// balancer. With load_balancing_policy, the policy chosen is the first whose type Envoy has.
func providedLBProblem(c *clusterv3.Cluster, factory string) (msg, where string) {
	chosen := c.GetLbPolicy() == clusterv3.Cluster_CLUSTER_PROVIDED
	if lbp := c.GetLoadBalancingPolicy(); lbp != nil {
		chosen = false
		for _, p := range lbp.GetPolicies() {
			if typ := factoryType(p.GetTypedExtensionConfig().GetTypedConfig()); takes(catLbPolicy, typ) {
				chosen = typ == "envoy.extensions.load_balancing_policies.cluster_provided.v3.ClusterProvided"
				break
			}
		}
	}
	switch lb := providesLB(c, factory); {
	case chosen && !lb:
		return fmt.Sprintf("cluster manager: cluster provided LB specified but cluster '%s' did not provide one. Check cluster documentation.", c.GetName()), ".lb_policy"
	case !chosen && lb:
		return fmt.Sprintf("cluster manager: cluster provided LB not specified but cluster '%s' provided one. Check cluster documentation.", c.GetName()), ".lb_policy"
	}
	return "", ""
}

// clusterDNSResolvers are the c-ares resolvers a cluster of its own asks for (selectDnsResolver,
// cluster_factory_impl.cc:83-105; makeDnsResolverConfig, dns_factory_util.h:90-112): its
// typed_dns_resolver_config's if that is c-ares, else dns_resolution_config's, else the legacy
// dns_resolvers; field is the list's path.
func clusterDNSResolvers(c *clusterv3.Cluster) (resolvers []*corev3.Address, field string) {
	if t := c.GetTypedDnsResolverConfig().GetTypedConfig(); t.GetTypeUrl() != "" {
		return caresResolvers(t), ".typed_dns_resolver_config.typed_config.resolvers"
	}
	if r := c.GetDnsResolutionConfig().GetResolvers(); len(r) > 0 { //nolint:staticcheck // deprecated, still read
		return r, ".dns_resolution_config.resolvers"
	}
	return c.GetDnsResolvers(), ".dns_resolvers" //nolint:staticcheck
}

// caresResolvers are a typed resolver config's resolvers when it is c-ares, else none.
func caresResolvers(config *anypb.Any) []*corev3.Address {
	cares := &caresv3.CaresDnsResolverConfig{}
	if config.UnmarshalTo(cares) != nil {
		return nil
	}
	return cares.GetResolvers()
}

// caresResolverProblem: c-ares takes only IP resolvers (DnsResolverImpl::maybeBuildResolversCsv,
// cares/dns_impl.cc:101-114, reached from createDnsResolver, :696-707): a pipe is named by its
// path. An abstract pipe, or a resolver that does not resolve at all, is left to Envoy.
func caresResolverProblem(resolvers []*corev3.Address, field string) (msg, where string) {
	for i, r := range resolvers {
		switch a := r.GetAddress().(type) {
		case *corev3.Address_Pipe:
			if strings.HasPrefix(a.Pipe.GetPath(), "@") {
				return "", ""
			}
			return fmt.Sprintf("DNS resolver '%s' is not an IP address", a.Pipe.GetPath()), fmt.Sprintf("%s[%d]", field, i)
		case *corev3.Address_SocketAddress:
			if m, _ := addressProblem(r); m != "" {
				return "", ""
			}
		default:
			return "", ""
		}
	}
	return "", ""
}

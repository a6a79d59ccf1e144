package bootcheck

import (
	"fmt"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
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
	case "envoy.clusters.redis": // redis_cluster.cc:850-852
		if c.GetClusterType().GetName() != "envoy.clusters.redis" {
			return "Redis cluster can only created with redis cluster type.", ".cluster_type.name"
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

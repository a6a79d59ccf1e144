package bootcheck

import (
	"fmt"
	"maps"
	"math"
	"net/netip"
	"slices"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
)

// addressProblem is Network::Address::resolveProtoAddress (source/common/network/
// resolver_impl.cc:56-100) for the addresses it can judge offline: a socket address goes to its
// resolver (the IP one unless named; it takes IP literals and port_value only, :30-47), a pipe's
// path fits sun_path and an abstract one has no mode (address_impl.cc:401-424).
func addressProblem(a *corev3.Address) (msg, field string) {
	if p := a.GetPipe(); p != nil {
		switch {
		case len(p.GetPath()) >= 108: // sizeof(sockaddr_un.sun_path) on Linux
			return fmt.Sprintf("Path \"%s\" exceeds maximum UNIX domain socket path size of 108.", p.GetPath()), ".pipe.path"
		case len(p.GetPath()) > 0 && p.GetPath()[0] == '@' && p.GetMode() != 0:
			return "Cannot set mode for Abstract AF_UNIX sockets", ".pipe.mode"
		}
		return "", ""
	}
	sa := a.GetSocketAddress()
	if sa == nil {
		return "", ""
	}
	switch name := sa.GetResolverName(); name {
	case "", "envoy.ip":
	case "envoy.resolvers.reverse_connection":
		return "", ""
	default:
		return "Unknown address resolver: " + name, ".socket_address.resolver_name"
	}
	if sa.GetNamedPort() != "" { // PortSpecifierCase kNamedPort is 4
		return "IP resolver can't handle port specifier type 4", ".socket_address.named_port"
	}
	if _, err := netip.ParseAddr(sa.GetAddress()); err != nil {
		return "malformed IP address: " + sa.GetAddress(), ".socket_address.address"
	}
	return "", ""
}

// staticHostsProblem: StaticClusterImpl's constructor once its base is built (source/extensions/
// clusters/static/static_cluster.cc:24-57): each endpoint's additional addresses, then its
// address, resolved (ClusterImplBase::resolveProtoAddress adds the advice for STATIC, upstream_impl.cc:
// 2003-2008), the host made from it (HostDescriptionImplBase, :545-552), then validateEndpoints:
// the local cluster's priorities, then a hash LB's weight sums (thread_aware_lb_impl.cc:393-420).
func staticHostsProblem(c *clusterv3.Cluster, localCluster, sortNonIP bool) (msg, where string) {
	const advice = ". Consider setting resolver_name or setting cluster type to 'STRICT_DNS' or 'LOGICAL_DNS'"
	for i, locality := range c.GetLoadAssignment().GetEndpoints() {
		for j, lb := range locality.GetLbEndpoints() {
			at := fmt.Sprintf(".load_assignment.endpoints[%d].lb_endpoints[%d].endpoint", i, j)
			ep := lb.GetEndpoint()
			if len(ep.GetAdditionalAddresses()) > 0 {
				if msg, field := addressProblem(ep.GetAddress()); msg != "" {
					return msg + advice, at + ".address" + field
				}
				for k, extra := range ep.GetAdditionalAddresses() {
					if msg, field := addressProblem(extra.GetAddress()); msg != "" {
						return msg + advice, fmt.Sprintf("%s.additional_addresses[%d].address%s", at, k, field)
					}
				}
				// static_cluster.cc:37-45: with the runtime guard happy_eyeballs_sort_non_ip_addresses off.
				if !sortNonIP && ep.GetAddress().GetSocketAddress() == nil {
					return "additional_addresses must be IP addresses.", at + ".address"
				}
				for k, extra := range ep.GetAdditionalAddresses() {
					if !sortNonIP && extra.GetAddress().GetSocketAddress() == nil {
						return "additional_addresses must be IP addresses.", fmt.Sprintf("%s.additional_addresses[%d].address", at, k)
					}
				}
			}
			if msg, field := addressProblem(ep.GetAddress()); msg != "" {
				return msg + advice, at + ".address" + field
			}
			if ep.GetHealthCheckConfig().GetPortValue() != 0 && ep.GetAddress().GetPipe() != nil {
				return "Invalid host configuration: non-zero port for non-IP address", at + ".health_check_config.port_value"
			}
			if ep.GetAddress().GetSocketAddress().GetNetworkNamespaceFilepath() != "" {
				return "Invalid host configuration: hosts cannot specify network namespaces with their address", at + ".address.socket_address.network_namespace_filepath"
			}
		}
	}
	if localCluster {
		for i, locality := range c.GetLoadAssignment().GetEndpoints() {
			if locality.GetPriority() > 0 { // ClusterImplBase::validateEndpoints
				return fmt.Sprintf("Unexpected non-zero priority for local cluster '%s'.", c.GetName()), fmt.Sprintf(".load_assignment.endpoints[%d].priority", i)
			}
		}
	}
	if hashLB(c) {
		return weightSumProblem(c.GetLoadAssignment().GetEndpoints())
	}
	return "", ""
}

// hashLB: the cluster's LB config is a ring hash's or a maglev's (TypedHashLbConfigBase).
func hashLB(c *clusterv3.Cluster) bool {
	if c.GetLoadBalancingPolicy() == nil && c.GetLbPolicy() != clusterv3.Cluster_LOAD_BALANCING_POLICY_CONFIG {
		return c.GetLbSubsetConfig() == nil && (c.GetLbPolicy() == clusterv3.Cluster_RING_HASH || c.GetLbPolicy() == clusterv3.Cluster_MAGLEV)
	}
	typ, _, _ := lbPolicyNamed(c.GetLoadBalancingPolicy().GetPolicies())
	return typ == "envoy.extensions.load_balancing_policies.ring_hash.v3.RingHash" || typ == "envoy.extensions.load_balancing_policies.maglev.v3.Maglev"
}

// weightSumProblem: per priority, the hosts' weights (default 1), then the localities' weights,
// each sum within uint32.
func weightSumProblem(localities []*endpointv3.LocalityLbEndpoints) (msg, where string) {
	hosts, weights := map[uint32]uint64{}, map[uint32]uint64{}
	for _, l := range localities {
		for _, lb := range l.GetLbEndpoints() {
			w := uint64(1)
			if lb.GetLoadBalancingWeight() != nil {
				w = uint64(lb.GetLoadBalancingWeight().GetValue())
			}
			hosts[l.GetPriority()] += w
		}
		if l.GetLoadBalancingWeight() != nil {
			weights[l.GetPriority()] += uint64(l.GetLoadBalancingWeight().GetValue())
		}
	}
	priorities := slices.Sorted(maps.Keys(hosts))
	for _, p := range priorities {
		if hosts[p] > math.MaxUint32 {
			return fmt.Sprintf("The sum of weights of all upstream hosts in a locality exceeds %d", uint32(math.MaxUint32)), ".load_assignment"
		}
		if weights[p] > math.MaxUint32 {
			return fmt.Sprintf("The sum of weights of all localities at the same priority exceeds %d", uint32(math.MaxUint32)), ".load_assignment"
		}
	}
	return "", ""
}

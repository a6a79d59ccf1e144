package bootcheck

import (
	"fmt"
	"strings"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	maglevv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/maglev/v3"
	overridehostv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/override_host/v3"
	ringhashv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/ring_hash/v3"
	subsetv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/subset/v3"
	wrrlocalityv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/wrr_locality/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// What loading a cluster's LB config refuses, in ClusterInfoImpl (source/common/upstream/
// upstream_impl.cc:1336-1351): the chosen load_balancing_policy's factory loadConfig, or for the
// legacy fields the subset LB's loadLegacy (extensions/load_balancing_policies/subset/config.cc:88).

// lbPolicyNamed is a load_balancing_policy list's first policy whose type a stock factory takes
// (getAndCheckFactory with is_optional), its config unpacked (nil when it is a TypedStruct or
// does not unpack), and the names of the ones before it.
func lbPolicyNamed(policies []*clusterv3.LoadBalancingPolicy_Policy) (typ string, cfg any, missing []string) {
	for _, p := range policies {
		tc := p.GetTypedExtensionConfig()
		if t := factoryType(tc.GetTypedConfig()); takes(catLbPolicy, t) {
			inner, err := anypb.UnmarshalNew(tc.GetTypedConfig(), proto.UnmarshalOptions{})
			if err != nil {
				return t, nil, missing
			}
			return t, inner, missing
		}
		missing = append(missing, tc.GetName())
	}
	return "", nil, missing
}

// lbConfigProblem: the loadConfig of the policy configureLbPolicies chose (configureLbPolicies'
// own checks are lbPolicyChecks'), or the legacy subset config.
func lbConfigProblem(c *clusterv3.Cluster) (msg, where string) {
	if c.GetLoadBalancingPolicy() == nil && c.GetLbPolicy() != clusterv3.Cluster_LOAD_BALANCING_POLICY_CONFIG {
		if sc := c.GetLbSubsetConfig(); sc != nil { // LegacyLbPolicyConfigHelper → SubsetLbFactory::loadLegacy
			if c.GetLbPolicy() == clusterv3.Cluster_CLUSTER_PROVIDED {
				return fmt.Sprintf("cluster: LB policy %s cannot be combined with lb_subset_config", c.GetLbPolicy()), ".lb_policy"
			}
			for i, s := range sc.GetSubsetSelectors() {
				keysSubset := s.GetFallbackPolicy() == clusterv3.Cluster_LbSubsetConfig_LbSubsetSelector_KEYS_SUBSET
				if msg := subsetSelectorProblem(s.GetKeys(), s.GetFallbackKeysSubset(), keysSubset); msg != "" {
					return msg, fmt.Sprintf(".lb_subset_config.subset_selectors[%d]", i)
				}
			}
		}
		return "", ""
	}
	typ, cfg, _ := lbPolicyNamed(c.GetLoadBalancingPolicy().GetPolicies())
	if msg := loadConfigProblem(typ, cfg); msg != "" {
		return msg, ".load_balancing_policy"
	}
	return "", ""
}

// loadConfigProblem: a policy's loadConfig, for the policies whose checks need no more than the
// config; a policy that nests policies loads the one it chooses the same way.
func loadConfigProblem(typ string, cfg any) string {
	switch v := cfg.(type) {
	case *subsetv3.Subset: // SubsetLoadBalancerConfig, subset_lb_config.cc:14-82
		for _, s := range v.GetSubsetSelectors() {
			keysSubset := s.GetFallbackPolicy() == subsetv3.Subset_LbSubsetSelector_KEYS_SUBSET
			if msg := subsetSelectorProblem(s.GetKeys(), s.GetFallbackKeysSubset(), keysSubset); msg != "" {
				return msg
			}
		}
		typ, cfg, missing := lbPolicyNamed(v.GetSubsetLbPolicy().GetPolicies())
		if typ == "" {
			return fmt.Sprintf("cluster: didn't find a registered load balancer factory implementation for subset lb with names from [%s]", strings.Join(missing, ", "))
		}
		return loadConfigProblem(typ, cfg)
	case *wrrlocalityv3.WrrLocality: // wrr_locality/config.h:38-77
		typ, cfg, _ := lbPolicyNamed(v.GetEndpointPickingPolicy().GetPolicies())
		switch typ {
		case "":
			return "No supported endpoint picking policy."
		case "envoy.extensions.load_balancing_policies.client_side_weighted_round_robin.v3.ClientSideWeightedRoundRobin":
			return loadConfigProblem(typ, cfg)
		}
		return "Currently WrrLocalityLoadBalancer only supports ClientSideWeightedRoundRobinLoadBalancer as its endpoint picking policy."
	case *overridehostv3.OverrideHost: // override_host/load_balancer.cc:66-120
		for _, s := range v.GetOverrideHostSources() {
			switch header, meta := s.GetHeader() != "", s.GetMetadata() != nil; {
			case !header && !meta:
				return "Empty override source"
			case header && meta:
				return "Only one override source must be set"
			}
		}
		typ, cfg, missing := lbPolicyNamed(v.GetFallbackPolicy().GetPolicies())
		if typ == "" {
			return "dynamic forwarding LB: didn't find a registered fallback load balancer factory with names from " + strings.Join(missing, ", ")
		}
		return loadConfigProblem(typ, cfg)
	}
	if typ == "envoy.extensions.load_balancing_policies.load_aware_locality.v3.LoadAwareLocality" { // load_aware_locality/config.cc:17-20
		return "envoy.load_balancing_policies.load_aware_locality is not yet implemented"
	}
	return ""
}

// subsetSelectorProblem: a selector's fallback keys (SubsetSelector's constructor,
// subset_lb_config.cc:14-49), the keys taken as sets.
func subsetSelectorProblem(keys, fallback []string, keysSubset bool) string {
	if !keysSubset {
		if len(fallback) > 0 {
			return "fallback_keys_subset can be set only for KEYS_SUBSET fallback_policy"
		}
		return ""
	}
	if len(fallback) == 0 {
		return "fallback_keys_subset cannot be empty"
	}
	set, sub := map[string]bool{}, map[string]bool{}
	for _, k := range keys {
		set[k] = true
	}
	for _, k := range fallback {
		if !set[k] {
			return "fallback_keys_subset must be a subset of selector keys"
		}
		sub[k] = true
	}
	if len(set) == len(sub) {
		return "fallback_keys_subset cannot be equal to keys"
	}
	return ""
}

// threadAwareLBProblem: the cluster manager makes the cluster's thread-aware load balancer once
// the cluster is loaded (cluster_manager_impl.cc:949-952): a ring hash's ring sizes in order
// (ring_hash_lb.cc:67-71; defaults 1024 and 8M), a maglev table of prime size
// (maglev_lb.cc:365-368; default 65537).
func threadAwareLBProblem(c *clusterv3.Cluster) (msg, where string) {
	var minRing, maxRing, table *uint64
	where = ".load_balancing_policy"
	if c.GetLoadBalancingPolicy() == nil && c.GetLbPolicy() != clusterv3.Cluster_LOAD_BALANCING_POLICY_CONFIG {
		switch c.GetLbPolicy() {
		case clusterv3.Cluster_RING_HASH:
			minRing, maxRing, where = wrapped(c.GetRingHashLbConfig().GetMinimumRingSize()), wrapped(c.GetRingHashLbConfig().GetMaximumRingSize()), ".ring_hash_lb_config"
		case clusterv3.Cluster_MAGLEV:
			table, where = wrapped(c.GetMaglevLbConfig().GetTableSize()), ".maglev_lb_config.table_size"
		default:
			return "", ""
		}
	} else {
		switch _, cfg, _ := lbPolicyNamed(c.GetLoadBalancingPolicy().GetPolicies()); v := cfg.(type) {
		case *ringhashv3.RingHash:
			minRing, maxRing = wrapped(v.GetMinimumRingSize()), wrapped(v.GetMaximumRingSize())
		case *maglevv3.Maglev:
			table = wrapped(v.GetTableSize())
		default:
			return "", ""
		}
	}
	if minRing != nil || maxRing != nil || c.GetLbPolicy() == clusterv3.Cluster_RING_HASH {
		lo, hi := uint64(1024), uint64(8388608)
		if minRing != nil {
			lo = *minRing
		}
		if maxRing != nil {
			hi = *maxRing
		}
		if lo > hi {
			return fmt.Sprintf("ring hash: minimum_ring_size (%d) > maximum_ring_size (%d)", lo, hi), where
		}
		return "", ""
	}
	if table != nil && !isPrime(*table) {
		return "The table size of maglev must be prime number", where
	}
	return "", ""
}

// wrapped is a UInt64Value's value, nil when it is not set.
func wrapped(v interface{ GetValue() uint64 }) *uint64 {
	if w, ok := v.(*wrapperspb.UInt64Value); !ok || w == nil {
		return nil
	}
	n := v.GetValue()
	return &n
}

func isPrime(n uint64) bool {
	if n < 2 {
		return false
	}
	for d := uint64(2); d*d <= n; d++ {
		if n%d == 0 {
			return false
		}
	}
	return true
}

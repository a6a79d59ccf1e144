package bootcheck

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	xdsmatcher "github.com/cncf/xds/go/xds/type/matcher/v3"
	actionv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/generic_proxy/action/v3"
	genericv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/generic_proxy/v3"
)

// genericFilters is the category of generic proxy's L7 filters; the stock build's one filter,
// the router, is terminal (generic_proxy/router/config.h isTerminalFilter).
const genericFilters = "envoy.generic_proxy.filters"

// genericProxyProblem is generic proxy's factory (generic_proxy/config.cc:90-146): the codec, then
// the route table (generic_rds, or the static one), then the L7 filters — the arguments of
// FilterConfigImpl's make_shared, which clang evaluates left to right.
func genericProxyProblem(c *genericv3.GenericProxy) (msg, field string) {
	if codec := c.GetCodecConfig(); !takes("envoy.generic_proxy.codecs", factoryType(codec.GetTypedConfig())) && factoryType(codec.GetTypedConfig()) != "" {
		return fmt.Sprintf("Didn't find a registered implementation for '%s' with type URL: '%s'", codec.GetName(), factoryType(codec.GetTypedConfig())), ".codec_config"
	}
	if rds := c.GetGenericRds(); rds != nil { // config.cc:32-41
		if !aggregatedOnly(rds.GetConfigSource()) {
			return "genericrds supports only aggregated api_type in api_config_source", ".generic_rds.config_source.api_config_source.api_type"
		}
	} else if msg, field := genericRoutesProblem(c.GetRouteConfig()); msg != "" {
		return msg, ".route_config" + field
	}
	// filtersFactoryFromProto (config.cc:51-90): nothing after a terminal filter, each found,
	// one terminal at least.
	terminal := ""
	for i, f := range c.GetFilters() {
		at := fmt.Sprintf(".filters[%d]", i)
		if terminal != "" {
			return fmt.Sprintf("Terminal filter: %s must be the last generic L7 filter", terminal), at
		}
		typ := factoryType(f.GetTypedConfig())
		if !takes(genericFilters, typ) {
			return fmt.Sprintf("Didn't find a registered implementation for '%s' with type URL: '%s'", f.GetName(), typ), at
		}
		if factoryName(genericFilters, typ) == "envoy.filters.generic.router" {
			terminal = f.GetName()
		}
	}
	if terminal == "" {
		return "A terminal L7 filter is necessary for generic proxy", ".filters"
	}
	return "", ""
}

// genericRoutesProblem is RouteMatcherImpl (generic_proxy/route_impl.cc:95-160): each virtual
// host's routes built (VirtualHostImpl, :70-90), then its hosts; then the table's own routes, a
// default host unless a catch-all one exists.
func genericRoutesProblem(rc *genericv3.RouteConfiguration) (msg, field string) {
	name := rc.GetName()
	catchAll := false
	seen := map[string]bool{} // exact, "*suffix" and "prefix*" hosts, each kept apart as Envoy's maps are
	for i, vh := range rc.GetVirtualHosts() {
		at := fmt.Sprintf(".virtual_hosts[%d]", i)
		if msg, where := genericActionsProblem(vh.GetRoutes()); msg != "" {
			return msg, at + ".routes" + where
		}
		for j, host := range vh.GetHosts() {
			where := fmt.Sprintf("%s.hosts[%d]", at, j)
			switch {
			case host == "":
				return "Invalid empty host name in route " + name, where
			case host == "*":
				if catchAll {
					return "Only a single wildcard domain is permitted in route " + name, where
				}
				catchAll = true
				continue
			}
			// The suffix and prefix maps are keyed by length and the rest of the host, so
			// "*a" and "a*" never collide with each other or with "a".
			key := "=" + host
			if strings.HasPrefix(host, "*") {
				key = "s" + host
			} else if strings.HasSuffix(host, "*") {
				key = "p" + host
			}
			if seen[key] {
				return fmt.Sprintf("Only unique values for host are permitted. Duplicate entry of domain %s in route %s", host, name), where
			}
			seen[key] = true
		}
	}
	if rc.GetRoutes() != nil {
		if catchAll {
			return "'routes' cannot be specified at the same time as a catch-all ('*') virtual host in route " + name, ".routes"
		}
		if msg, where := genericActionsProblem(rc.GetRoutes()); msg != "" {
			return msg, ".routes" + where
		}
	}
	return "", ""
}

// genericActionsProblem: each route action of a match tree, as the tree is built (list matchers
// then on_no_match; a tree's on_no_match then its map), looks up a filter for each of its
// per_filter_config entries (route_impl.cc:20-45; Envoy walks the map in its own order, here by
// name).
func genericActionsProblem(m *xdsmatcher.Matcher) (msg, field string) {
	if m == nil {
		return "", ""
	}
	onMatch := func(o *xdsmatcher.Matcher_OnMatch, at string) (string, string) {
		if o.GetMatcher() != nil {
			msg, where := genericActionsProblem(o.GetMatcher())
			return msg, at + ".matcher" + where
		}
		ra := &actionv3.RouteAction{}
		if o.GetAction().GetTypedConfig().UnmarshalTo(ra) != nil {
			return "", ""
		}
		pfc := ra.GetPerFilterConfig()
		for _, name := range slices.Sorted(maps.Keys(pfc)) {
			if typ := factoryType(pfc[name]); !takes(genericFilters, typ) {
				return fmt.Sprintf("Didn't find a registered implementation for '%s' with type URL: '%s'", name, typ), at + ".action.typed_config.per_filter_config[" + name + "]"
			}
		}
		return "", ""
	}
	if list := m.GetMatcherList(); list != nil {
		for i, fm := range list.GetMatchers() {
			if msg, where := onMatch(fm.GetOnMatch(), fmt.Sprintf(".matcher_list.matchers[%d].on_match", i)); msg != "" {
				return msg, where
			}
		}
	}
	if m.GetOnNoMatch() != nil {
		if msg, where := onMatch(m.GetOnNoMatch(), ".on_no_match"); msg != "" {
			return msg, where
		}
	}
	if tree := m.GetMatcherTree(); tree != nil {
		entries, kind := tree.GetExactMatchMap().GetMap(), "exact_match_map"
		if tree.GetPrefixMatchMap() != nil {
			entries, kind = tree.GetPrefixMatchMap().GetMap(), "prefix_match_map"
		}
		for _, k := range slices.Sorted(maps.Keys(entries)) {
			if msg, where := onMatch(entries[k], ".matcher_tree."+kind+".map["+k+"]"); msg != "" {
				return msg, where
			}
		}
	}
	return "", ""
}

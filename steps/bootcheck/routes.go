package bootcheck

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"google.golang.org/protobuf/types/known/anypb"
)

// routeChecks: what building a static route table refuses (source/common/router/config_impl.cc
// at the stored commit): the table's own header rules (CommonConfigImpl), then per virtual host
// its routes (RouteEntryImplBase's constructor, then RouteCreator's cluster check) and its
// domains (RouteMatcher). Envoy stops at the first; so does this, and says whether it refused.
func routeChecks(rc *routev3.RouteConfiguration, path string, static map[string]*clusterv3.Cluster, add addFunc) bool {
	// CommonConfigImpl (config_impl.cc:2094-2150): per-filter configs, mirrors, cluster specifier
	// plugins, header rules.
	if perFilterProblem(rc.GetTypedPerFilterConfig(), path, add) ||
		mirrorsProblem(rc.GetRequestMirrorPolicies(), path+".request_mirror_policies", add) {
		return true
	}
	for i, p := range rc.GetClusterSpecifierPlugins() {
		if clusterSpecifierProblem(p, fmt.Sprintf("%s.cluster_specifier_plugins[%d]", path, i), add) {
			return true
		}
	}
	if headersProblem(rc.GetRequestHeadersToAdd(), path+".request_headers_to_add", add) ||
		headersProblem(rc.GetResponseHeadersToAdd(), path+".response_headers_to_add", add) {
		return true
	}
	validate := rc.GetValidateClusters() == nil || rc.GetValidateClusters().GetValue()
	wildcard := false
	seen := map[string]bool{}
	for i, vh := range rc.GetVirtualHosts() {
		vpath := fmt.Sprintf("%s.virtual_hosts[%d]", path, i)
		if virtualHostProblem(vh, vpath, add) {
			return true
		}
		for j, r := range vh.GetRoutes() {
			rpath := fmt.Sprintf("%s.routes[%d]", vpath, j)
			if routeProblem(r, rc, rpath, validate, static, add) {
				return true
			}
			// The route's mirrors, else its virtual host's, else its table's, must name clusters.
			mirrors, mpath := r.GetRoute().GetRequestMirrorPolicies(), rpath+".route.request_mirror_policies"
			if len(mirrors) == 0 {
				mirrors, mpath = vh.GetRequestMirrorPolicies(), vpath+".request_mirror_policies"
			}
			if len(mirrors) == 0 {
				mirrors, mpath = rc.GetRequestMirrorPolicies(), path+".request_mirror_policies"
			}
			for k, m := range mirrors {
				if name := m.GetCluster(); validate && name != "" && static[name] == nil {
					add(stageListeners, fmt.Sprintf("%s[%d].cluster", mpath, k), fmt.Sprintf("route: unknown shadow cluster '%s'", name))
					return true
				}
			}
		}
		for j, name := range vh.GetDomains() {
			domain := strings.ToLower(name) // Http::LowerCaseString
			dpath := fmt.Sprintf("%s.domains[%d]", vpath, j)
			if domain == "*" {
				if wildcard {
					add(stageListeners, dpath, "Only a single wildcard domain is permitted in route "+rc.GetName())
					return true
				}
				wildcard = true
				continue
			}
			key := domain // suffix and prefix wildcards live in maps of their own, keyed by length
			switch {
			case strings.HasPrefix(domain, "*"):
				key = "suffix " + domain
			case strings.HasSuffix(domain, "*"):
				key = "prefix " + domain
			}
			if seen[key] {
				add(stageListeners, dpath, fmt.Sprintf("Only unique values for domains are permitted. Duplicate entry of domain %s in route %s", domain, rc.GetName()))
				return true
			}
			seen[key] = true
		}
	}
	return false
}

// headersProblem is HeaderParser::configure: no pseudo-header and no host may be added.
func headersProblem(headers []*corev3.HeaderValueOption, path string, add addFunc) bool {
	for i, h := range headers {
		key := h.GetHeader().GetKey()
		if strings.HasPrefix(key, ":") || strings.EqualFold(key, "host") {
			add(stageListeners, fmt.Sprintf("%s[%d].header.key", path, i), ":-prefixed or host headers may not be modified")
			return true
		}
	}
	return false
}

// routeProblem: one route's refusals, in RouteEntryImplBase's order (config_impl.cc:487-800),
// then its clusters.
func routeProblem(r *routev3.Route, rc *routev3.RouteConfiguration, path string, validate bool, static map[string]*clusterv3.Cluster, add addFunc) bool {
	action := r.GetRoute()
	apath := path + ".route"
	if pathExtensionsProblem(r, path, add) || routeEntryFirstProblem(r, path, add) || perFilterProblem(r.GetTypedPerFilterConfig(), path, add) ||
		retryProblem(action.GetRetryPolicy(), apath+".retry_policy", add) || directResponseProblem(r, rc, path, add) ||
		headersProblem(r.GetRequestHeadersToAdd(), path+".request_headers_to_add", add) ||
		headersProblem(r.GetResponseHeadersToAdd(), path+".response_headers_to_add", add) ||
		mirrorsProblem(action.GetRequestMirrorPolicies(), apath+".request_mirror_policies", add) ||
		clusterSpecifierOfRouteProblem(r, rc, apath, add) {
		return true
	}
	if wc := action.GetWeightedClusters(); wc != nil { // WeightedClusterSpecifierPlugin
		var total uint64
		for _, c := range wc.GetClusters() {
			total += uint64(c.GetWeight().GetValue())
		}
		switch {
		case total > math.MaxUint32:
			add(stageListeners, apath+".weighted_clusters", fmt.Sprintf("The sum of weights of all weighted clusters of route %s exceeds %d", r.GetName(), uint32(math.MaxUint32)))
			return true
		case total == 0:
			add(stageListeners, apath+".weighted_clusters", "Sum of weights in the weighted_cluster must be greater than 0.")
			return true
		}
	}
	if queryAndCookieProblem(r, path, add) {
		return true
	}
	upgrades := map[string]bool{}
	for i, u := range action.GetUpgradeConfigs() {
		upath := fmt.Sprintf("%s.upgrade_configs[%d]", apath, i)
		name := strings.ToLower(u.GetUpgradeType())
		if upgrades[name] {
			add(stageListeners, upath, "Duplicate upgrade "+u.GetUpgradeType())
			return true
		}
		upgrades[name] = true
		if u.GetConnectConfig() != nil && name != "connect" && name != "connect-udp" {
			add(stageListeners, upath, fmt.Sprintf("Non-CONNECT upgrade type %s has ConnectConfig", u.GetUpgradeType()))
			return true
		}
	}
	rewrites := 0
	for _, set := range []bool{action.GetPathRewritePolicy() != nil, action.GetPrefixRewrite() != "", action.GetRegexRewrite() != nil, action.GetPathRewrite() != ""} {
		if set {
			rewrites++
		}
	}
	if rewrites > 1 {
		add(stageListeners, apath, "Specify only one of prefix_rewrite, regex_rewrite or path_rewrite_policy")
		return true
	}
	if pathPolicyProblem(r, apath, add) {
		return true
	}
	if !validate { // RouteEntryImplBase::validateClusters, unless validate_clusters is false
		return false
	}
	if name := action.GetCluster(); name != "" && static[name] == nil {
		add(stageListeners, apath+".cluster", fmt.Sprintf("route: unknown cluster '%s'", name))
		return true
	}
	for k, wc := range action.GetWeightedClusters().GetClusters() {
		if name := wc.GetName(); name != "" && static[name] == nil {
			add(stageListeners, fmt.Sprintf("%s.weighted_clusters.clusters[%d].name", apath, k), fmt.Sprintf("route: unknown weighted cluster '%s'", name))
			return true
		}
	}
	return false
}

// perFilterProblem is PerFilterConfigs::create (source/common/router/per_filter_config.cc): each per-filter config is made by the HTTP filter
// factory its type finds (unwrapped from a FilterConfig, which may mark it optional); none is
// "Didn't find a registered implementation for '<filter name>' with type URL: '<type>'".
func perFilterProblem(configs map[string]*anypb.Any, path string, add addFunc) bool {
	for _, name := range slices.Sorted(maps.Keys(configs)) {
		config, optional := configs[name], false
		if typeName(config) == "envoy.config.route.v3.FilterConfig" {
			var fc routev3.FilterConfig
			switch {
			case config.UnmarshalTo(&fc) != nil || fc.GetDisabled():
				continue
			case fc.GetConfig() == nil:
				add(stageListeners, fmt.Sprintf("%s.typed_per_filter_config[%s]", path, name), fmt.Sprintf("Empty route/virtual host per filter configuration for %s filter", name))
				return true
			case fc.GetConfig().GetTypeUrl() == "":
				continue // the filter enabled, with no config
			}
			config, optional = fc.GetConfig(), fc.GetIsOptional()
		}
		typ := factoryType(config)
		switch {
		case optional:
		case !takes(catHTTPFilter, typ):
			add(stageListeners, fmt.Sprintf("%s.typed_per_filter_config[%s]", path, name), fmt.Sprintf("Didn't find a registered implementation for '%s' with type URL: '%s'", name, typ))
			return true
		case !supportsRouteConfig(typ):
			add(stageListeners, fmt.Sprintf("%s.typed_per_filter_config[%s]", path, name), fmt.Sprintf("The filter %s doesn't support virtual host or route specific configurations", name))
			return true
		case httpRouteConfigProblem(config, fmt.Sprintf("%s.typed_per_filter_config[%s]", path, name), add):
			return true
		}
	}
	return false
}

// retryProblem: a retry policy backs off no faster than it starts (RetryPolicyImpl,
// source/common/router/retry_policy_impl.cc: both intervals in whole milliseconds, at least 1).
// A virtual host's is built with it (config_impl.cc:1638); a route without its own inherits it.
func retryProblem(policy *routev3.RetryPolicy, path string, add addFunc) bool {
	backOff := policy.GetRetryBackOff()
	if backOff.GetMaxInterval() == nil {
		return false
	}
	ms := func(d interface{ AsDuration() time.Duration }) int64 { return max(1, d.AsDuration().Milliseconds()) }
	if ms(backOff.GetMaxInterval()) < ms(backOff.GetBaseInterval()) {
		add(stageListeners, path+".retry_back_off", "retry_policy.max_interval must greater than or equal to the base_interval")
		return true
	}
	return false
}

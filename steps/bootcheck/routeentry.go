package bootcheck

import (
	"fmt"
	"strings"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	urimatchv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/path/match/uri_template/v3"
	urirewritev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/path/rewrite/uri_template/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
)

// mirrorsProblem is ShadowPolicyImpl's check (validateMirrorClusterSpecifier, config_impl.cc:
// 336-348): exactly one of cluster and cluster_header.
func mirrorsProblem(policies []*routev3.RouteAction_RequestMirrorPolicy, path string, add addFunc) bool {
	for i, m := range policies {
		where := fmt.Sprintf("%s[%d]", path, i)
		switch {
		case m.GetCluster() != "" && m.GetClusterHeader() != "":
			add(stageListeners, where, fmt.Sprintf("Only one of cluster '%s' or cluster_header '%s' in request mirror policy can be specified", m.GetCluster(), m.GetClusterHeader()))
			return true
		case m.GetCluster() == "" && m.GetClusterHeader() == "":
			add(stageListeners, where, "Exactly one of cluster or cluster_header in request mirror policy need to be specified")
			return true
		}
	}
	return false
}

// clusterSpecifierTypes: the stock build's cluster specifier plugins (extensions_build_config.bzl:
// envoy.router.cluster_specifier_plugin.lua and .matcher), by the type their config carries.
var clusterSpecifierTypes = map[string]bool{
	"envoy.extensions.router.cluster_specifiers.lua.v3.LuaConfig":                   true,
	"envoy.extensions.router.cluster_specifiers.matcher.v3.MatcherClusterSpecifier": true,
}

// clusterSpecifierProblem is getClusterSpecifierPluginByTheProto (config_impl.cc:158-175): a
// plugin no factory takes is refused unless it is optional.
func clusterSpecifierProblem(p *routev3.ClusterSpecifierPlugin, path string, add addFunc) bool {
	typ := factoryType(p.GetExtension().GetTypedConfig())
	if clusterSpecifierTypes[typ] || p.GetIsOptional() {
		return false
	}
	add(stageListeners, path+".extension", fmt.Sprintf("Didn't find a registered implementation for '%s' with type URL: '%s'", p.GetExtension().GetName(), typ))
	return true
}

// virtualHostProblem: the virtual host's own settings before its routes (CommonVirtualHostImpl,
// config_impl.cc:1602-1700): per-filter configs, header rules, its retry policy, its mirrors, a
// matcher with routes, virtual clusters without headers.
func virtualHostProblem(vh *routev3.VirtualHost, vpath string, add addFunc) bool {
	if perFilterProblem(vh.GetTypedPerFilterConfig(), vpath, add) ||
		headersProblem(vh.GetRequestHeadersToAdd(), vpath+".request_headers_to_add", add) ||
		headersProblem(vh.GetResponseHeadersToAdd(), vpath+".response_headers_to_add", add) ||
		retryProblem(vh.GetRetryPolicy(), vpath+".retry_policy", add) ||
		mirrorsProblem(vh.GetRequestMirrorPolicies(), vpath+".request_mirror_policies", add) {
		return true
	}
	if vh.GetMatcher() != nil && len(vh.GetRoutes()) > 0 {
		add(stageListeners, vpath+".matcher", "cannot set both matcher and routes on virtual host")
		return true
	}
	for i, vc := range vh.GetVirtualClusters() {
		if len(vc.GetHeaders()) == 0 {
			add(stageListeners, fmt.Sprintf("%s.virtual_clusters[%d]", vpath, i), "virtual clusters must define 'headers'")
			return true
		}
	}
	// Then its match tree, which may read only request headers, filter state or a dynamic module's
	// input (RouteActionValidationVisitor, matcher_visitor.cc:9-34; the first violation, config_impl.cc:1797-1803).
	if msg := celMapProblem(vh.GetMatcher()); msg != "" {
		add(stageListeners, vpath+".matcher", msg)
		return true
	}
	if bad := firstBadInput(vh.GetMatcher(), routeMatcherInput); bad != "" {
		add(stageListeners, vpath+".matcher", "requirement violation while creating route match tree: Route table can only match on request headers, saw "+bad)
		return true
	}
	return false
}

func routeMatcherInput(typeURL string) bool {
	switch strings.TrimPrefix(typeURL, "type.googleapis.com/") {
	case "envoy.type.matcher.v3.HttpRequestHeaderMatchInput", "envoy.extensions.matching.common_inputs.network.v3.FilterStateInput",
		"envoy.extensions.matching.http.dynamic_modules.v3.HttpDynamicModuleMatchInput":
		return strings.HasPrefix(typeURL, "type.googleapis.com/")
	}
	return false
}

// routeEntryFirstProblem: what RouteEntryImplBase's initialiser list refuses before its body
// (config_impl.cc:487-540): the path match policy and the internal redirect policy's headers,
// then the route's header matchers (StringMatcherImpl: ignore_case with safe_regex,
// matchers.cc:47).
func routeEntryFirstProblem(r *routev3.Route, path string, add addFunc) bool {
	for i, h := range r.GetRoute().GetInternalRedirectPolicy().GetResponseHeadersToCopy() {
		if h != "" && h[0] == ':' || strings.EqualFold(h, "host") { // HeaderUtility::isModifiableHeader
			add(stageListeners, fmt.Sprintf("%s.route.internal_redirect_policy.response_headers_to_copy[%d]", path, i), ":-prefixed headers or Hosts may not be specified here.")
			return true
		}
	}
	for i, h := range r.GetMatch().GetHeaders() {
		if regexIgnoringCase(h.GetStringMatch()) {
			add(stageListeners, fmt.Sprintf("%s.match.headers[%d].string_match.ignore_case", path, i), "ignore_case has no effect for safe_regex.")
			return true
		}
	}
	return false
}

func regexIgnoringCase(m *matcherv3.StringMatcher) bool {
	return m.GetSafeRegex() != nil && m.GetIgnoreCase()
}

// directResponseProblem: an inline direct response body is held to the table's
// max_direct_response_body_size_bytes, 4096 by default, 0 for no limit (DataSourceProvider::create,
// datasource.h:228-233, from config_impl.cc:568).
func directResponseProblem(r *routev3.Route, rc *routev3.RouteConfiguration, path string, add addFunc) bool {
	body := r.GetDirectResponse().GetBody()
	size := len(body.GetInlineString()) + len(body.GetInlineBytes())
	limit := uint32(4096) // config_impl.cc:128
	if v := rc.GetMaxDirectResponseBodySizeBytes(); v != nil {
		limit = v.GetValue()
	}
	if limit > 0 && size > int(limit) {
		add(stageListeners, path+".direct_response.body", fmt.Sprintf("response body size is %d bytes; maximum is %d", size, limit))
		return true
	}
	return false
}

// clusterSpecifierOfRouteProblem: after its mirrors the route builds what picks its cluster
// (config_impl.cc:633-651): weighted clusters, each with a name or a cluster header but not both
// (weighted_cluster_specifier.cc:16-23, before the weights are summed), an inline plugin, or a
// plugin the table names.
func clusterSpecifierOfRouteProblem(r *routev3.Route, rc *routev3.RouteConfiguration, apath string, add addFunc) bool {
	action := r.GetRoute()
	if wc := action.GetWeightedClusters(); wc != nil {
		for i, c := range wc.GetClusters() {
			if (c.GetName() == "") == (c.GetClusterHeader() == "") {
				msg := "Only one of name or cluster_header can be specified"
				if c.GetName() == "" {
					msg = "At least one of name or cluster_header need to be specified"
				}
				add(stageListeners, fmt.Sprintf("%s.weighted_clusters.clusters[%d]", apath, i), msg)
				return true
			}
			if perFilterProblem(c.GetTypedPerFilterConfig(), fmt.Sprintf("%s.weighted_clusters.clusters[%d]", apath, i), add) ||
				headersProblem(c.GetRequestHeadersToAdd(), fmt.Sprintf("%s.weighted_clusters.clusters[%d].request_headers_to_add", apath, i), add) ||
				headersProblem(c.GetResponseHeadersToAdd(), fmt.Sprintf("%s.weighted_clusters.clusters[%d].response_headers_to_add", apath, i), add) {
				return true
			}
		}
		return false
	}
	if p := action.GetInlineClusterSpecifierPlugin(); p != nil {
		return clusterSpecifierProblem(p, apath+".inline_cluster_specifier_plugin", add)
	}
	if name := action.GetClusterSpecifierPlugin(); name != "" {
		for _, p := range rc.GetClusterSpecifierPlugins() {
			if p.GetExtension().GetName() == name {
				return false
			}
		}
		add(stageListeners, apath+".cluster_specifier_plugin", fmt.Sprintf("Unknown cluster specifier plugin name: %s is used in the route", name))
		return true
	}
	return false
}

// URI template path extensions' names and config types (uri_template_match.h:19,
// uri_template_rewrite.h:24).
const (
	uriTemplateMatcher      = "envoy.path.match.uri_template.uri_template_matcher"
	uriTemplateRewriter     = "envoy.path.rewrite.uri_template.uri_template_rewriter"
	uriTemplateRewriteType  = "envoy.extensions.path.rewrite.uri_template.v3.UriTemplateRewriteConfig"
	uriTemplateMatcherType  = "envoy.extensions.path.match.uri_template.v3.UriTemplateMatchConfig"
	queryOrCookieIgnoreCase = "ignore_case has no effect for safe_regex."
)

// pathPolicyProblem: after the rewrite count, a prefix rewrite cannot go with a path match policy
// (config_impl.cc:740-744), and the URI template rewriter needs the URI template matcher
// (isCompatiblePathMatcher, uri_template_rewrite.cc:27-32, from config_impl.cc:765).
func pathPolicyProblem(r *routev3.Route, apath string, add addFunc) bool {
	action := r.GetRoute()
	matcher := r.GetMatch().GetPathMatchPolicy()
	if action.GetPrefixRewrite() != "" && matcher != nil {
		add(stageListeners, apath+".prefix_rewrite", "Cannot use prefix_rewrite with matcher extension")
		return true
	}
	rw := action.GetPathRewritePolicy()
	if rw == nil || factoryType(rw.GetTypedConfig()) != uriTemplateRewriteType {
		return false
	}
	if factoryType(matcher.GetTypedConfig()) != uriTemplateMatcherType {
		add(stageListeners, apath+".path_rewrite_policy", fmt.Sprintf("unable to use %s extension without %s extension", uriTemplateRewriter, uriTemplateMatcher))
		return true
	}
	// The rewrite names only the template's variables (uri_template_rewrite.cc:35-40).
	var m urimatchv3.UriTemplateMatchConfig
	var w urirewritev3.UriTemplateRewriteConfig
	if matcher.GetTypedConfig().UnmarshalTo(&m) == nil && rw.GetTypedConfig().UnmarshalTo(&w) == nil &&
		!uriSharedVariables(w.GetPathTemplateRewrite(), m.GetPathTemplate()) {
		add(stageListeners, apath+".path_rewrite_policy", fmt.Sprintf("mismatch between variables in path_match_policy %s and path_rewrite_policy %s", m.GetPathTemplate(), w.GetPathTemplateRewrite()))
		return true
	}
	return false
}

// pathExtensionsProblem: a route's path matcher and path rewriter are its first members
// (config_impl.h:851-857; buildPathMatcher, buildPathRewriter, config_impl.cc:1265-1300): the URI
// template matcher's template (match/uri_template/config.h:24-30), then the rewriter's
// (rewrite/uri_template/config.h:22-27). A config in a TypedStruct is not judged.
func pathExtensionsProblem(r *routev3.Route, path string, add addFunc) bool {
	var m urimatchv3.UriTemplateMatchConfig
	if mp := r.GetMatch().GetPathMatchPolicy(); typeName(mp.GetTypedConfig()) == uriTemplateMatcherType && mp.GetTypedConfig().UnmarshalTo(&m) == nil {
		if _, err := parsePathPattern(m.GetPathTemplate()); err != nil {
			add(stageListeners, path+".match.path_match_policy.typed_config.path_template", fmt.Sprintf("path_match_policy.path_template %s is invalid: %s", m.GetPathTemplate(), err))
			return true
		}
	}
	var w urirewritev3.UriTemplateRewriteConfig
	if rw := r.GetRoute().GetPathRewritePolicy(); typeName(rw.GetTypedConfig()) == uriTemplateRewriteType && rw.GetTypedConfig().UnmarshalTo(&w) == nil {
		if _, err := parseRewriteTemplate(w.GetPathTemplateRewrite()); err != nil {
			add(stageListeners, path+".route.path_rewrite_policy.typed_config.path_template_rewrite", fmt.Sprintf("path_rewrite_policy.path_template_rewrite %s is invalid", w.GetPathTemplateRewrite()))
			return true
		}
	}
	return false
}

// queryAndCookieProblem: the route's query parameter and cookie matchers are built after its
// cluster specifier (config_impl.cc:653-661), each a StringMatcherImpl.
func queryAndCookieProblem(r *routev3.Route, path string, add addFunc) bool {
	for i, q := range r.GetMatch().GetQueryParameters() {
		if regexIgnoringCase(q.GetStringMatch()) {
			add(stageListeners, fmt.Sprintf("%s.match.query_parameters[%d].string_match.ignore_case", path, i), queryOrCookieIgnoreCase)
			return true
		}
	}
	for i, c := range r.GetMatch().GetCookies() {
		if regexIgnoringCase(c.GetStringMatch()) {
			add(stageListeners, fmt.Sprintf("%s.match.cookies[%d].string_match.ignore_case", path, i), queryOrCookieIgnoreCase)
			return true
		}
	}
	return false
}

// noRouteConfig: the stock HTTP filters whose factory keeps FactoryBase's
// createRouteSpecificFilterConfigTyped, which makes nothing (searched source/extensions/filters/
// http/*/ for an override): a per-route config for one of them is refused (per_filter_config.cc:
// 50-58) unless it is optional.
var noRouteConfig = map[string]bool{
	"a2a": true, "adaptive_concurrency": true, "admission_control": true, "ai_protocol_manager": true,
	"alternate_protocols_cache": true, "cache": true, "cache_v2": true, "cdn_loop": true,
	"connect_grpc_bridge": true, "credential_injector": true, "decompressor": true, "gcp_authn": true,
	"geoip": true, "grpc_field_extraction": true, "grpc_http1_bridge": true, "grpc_stats": true,
	"grpc_web": true, "health_check": true, "ip_tagging": true, "mcp_router": true, "original_src": true,
	"proto_api_scrubber": true, "proto_message_extraction": true, "rate_limit_quota": true,
	"router": true, "sse_to_metadata": true, "tap": true, "thrift_to_metadata": true, "upstream_rbac": true,
}

// supportsRouteConfig: the HTTP filter whose config type is typ makes a per-route config.
func supportsRouteConfig(typ string) bool {
	rest, ok := strings.CutPrefix(typ, "envoy.extensions.filters.http.")
	if !ok {
		return true
	}
	pkg, _, _ := strings.Cut(rest, ".")
	return !noRouteConfig[pkg]
}

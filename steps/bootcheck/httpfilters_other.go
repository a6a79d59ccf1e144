package bootcheck

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	cdnloopv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/cdn_loop/v3"
	compositev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/composite/v3"
	dfpv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/dynamic_forward_proxy/v3"
	mcpbridgev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/mcp_json_rest_bridge/v3"
	oauth2v3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/oauth2/v3"
	"google.golang.org/protobuf/proto"
)

func init() {
	httpFilterChecks["envoy.extensions.filters.http.composite.v3.Composite"] = compositeProblem
	httpFilterChecks["envoy.extensions.filters.http.dynamic_forward_proxy.v3.FilterConfig"] = dfpFilterProblem
	httpFilterChecks["envoy.extensions.filters.http.mcp_json_rest_bridge.v3.McpJsonRestBridge"] = mcpBridgeProblem
	httpFilterChecks["envoy.extensions.filters.http.oauth2.v3.OAuth2"] = oauth2Problem
	httpFilterChecks["envoy.extensions.filters.http.cdn_loop.v3.CdnLoopConfig"] = func(m proto.Message) (string, string) {
		id := m.(*cdnloopv3.CdnLoopConfig).GetCdnId()
		if bad, status := cdnIDProblem(id); bad {
			return "cdn_id", fmt.Sprintf("Provided cdn_id \"%s\" is not a valid CDN identifier: %s", id, status)
		}
		return "", ""
	}
}

// statusFilters: the HTTP filters whose factory returns its refusal as a status (which the
// composite filter wraps in its own words, composite/config.cc:63-69), by config package; the
// others throw theirs, which passes through unwrapped.
var statusFilters = map[string]bool{
	"adaptive_concurrency": true, "admission_control": true, "api_key_auth": true, "aws_lambda": true,
	"bandwidth_share": true, "basic_auth": true, "cache": true, "cache_v2": true, "compressor": true,
	"credential_injector": true, "decompressor": true, "ext_authz": true, "ext_proc": true,
	"file_server": true, "geoip": true, "grpc_field_extraction": true, "header_mutation": true,
	"header_to_metadata": true, "ip_tagging": true, "mcp_json_rest_bridge": true,
	"proto_api_scrubber": true, "thrift_to_metadata": true, "transform": true,
}

// compositeProblem: each named filter chain (in name order; Envoy: its map's) holds filters, each
// built by its factory (compileNamedFilterChains, composite/config.cc:41-72).
func compositeProblem(m proto.Message) (string, string) {
	chains := m.(*compositev3.Composite).GetNamedFilterChains()
	for _, name := range slices.Sorted(maps.Keys(chains)) {
		where := "named_filter_chains[" + name + "]"
		filters := chains[name].GetTypedConfig()
		if len(filters) == 0 {
			return where, fmt.Sprintf("Named filter chain '%s' must contain at least one filter.", name)
		}
		for i, f := range filters {
			fwhere := fmt.Sprintf("%s.typed_config[%d]", where, i)
			typ := factoryType(f.GetTypedConfig())
			if !takes(catHTTPFilter, typ) {
				return fwhere, fmt.Sprintf("Didn't find a registered implementation for '%s' with type URL: '%s'", f.GetName(), typ)
			}
			var inner string
			check := func(_, msg string) { inner = msg }
			if !httpFilterConfigProblem(f.GetTypedConfig(), typ, "", check) {
				continue
			}
			pkg, _, _ := strings.Cut(strings.TrimPrefix(typ, "envoy.extensions.filters.http."), ".")
			if statusFilters[pkg] {
				inner = fmt.Sprintf("Failed to create filter factory for filter '%s' in named filter chain '%s': %s", f.GetName(), name, inner)
			}
			return fwhere, inner
		}
	}
	return "", ""
}

// dfpFilterProblem: the DNS cache the filter gets is made with it: no more names to resolve ahead
// than it may hold, 1024 by default (DnsCacheImpl::createDnsCacheImpl, dns_cache_impl.cc:18-26).
func dfpFilterProblem(m proto.Message) (string, string) {
	dc := m.(*dfpv3.FilterConfig).GetDnsCacheConfig()
	if dc == nil {
		return "", ""
	}
	limit := uint32(1024)
	if dc.GetMaxHosts() != nil {
		limit = dc.GetMaxHosts().GetValue()
	}
	if n := len(dc.GetPreresolveHostnames()); n > int(limit) {
		return "dns_cache_config.preresolve_hostnames", fmt.Sprintf("DNS Cache [%s] configured with preresolve_hostnames=%d larger than max_hosts=%d", dc.GetName(), n, limit)
	}
	return "", ""
}

// mcpBridgeProblem: the tools list is fetched with a GET and no body (mcp_json_rest_bridge/
// config.cc:19-25).
func mcpBridgeProblem(m proto.Message) (string, string) {
	tools := m.(*mcpbridgev3.McpJsonRestBridge).GetToolConfig()
	if rule := tools.GetToolListHttpRule(); rule != nil && (rule.GetGet() == "" || rule.GetBody() != "") {
		return "tool_config.tool_list_http_rule", "tool_list_http_rule must be a GET request with an empty body"
	}
	return "", ""
}

// oauth2Problem is createFilterConfig (oauth2/config.cc:44-130) then FilterConfig (filter.cc:
// 650-765): a token secret unless the client authenticates by TLS; the secrets themselves (looked
// up among the static ones, or fetched) are not judged here, so a refusal found past them is still
// a refusal, in words Envoy may reach later; the forwarded ID token's header, the pass-through
// matchers, one owner of the Authorization header, the authorization endpoint's URL, and the end
// session endpoint only with the openid scope.
func oauth2Problem(m proto.Message) (string, string) {
	c := m.(*oauth2v3.OAuth2).GetConfig()
	if c == nil {
		return "", ""
	}
	if c.GetAuthType() != oauth2v3.OAuth2Config_TLS_CLIENT_AUTH && c.GetCredentials().GetTokenSecret() == nil {
		return "config.credentials", "token_secret is required when auth_type is not TLS_CLIENT_AUTH"
	}
	fwd := c.GetForwardIdToken()
	header := fwd.GetHeader()
	if fwd != nil {
		if header != "" && header[0] == ':' || strings.EqualFold(header, "host") { // HeaderUtility::isModifiableHeader
			return "config.forward_id_token.header", fmt.Sprintf("invalid forward_id_token configuration: header '%s' can not be used to forward the ID token; pseudo-headers and the Host header are not allowed", header)
		}
		for i, pm := range c.GetPassThroughMatcher() {
			if lowerASCII(pm.GetName()) == lowerASCII(header) {
				return fmt.Sprintf("config.pass_through_matcher[%d]", i), fmt.Sprintf("invalid forward_id_token configuration: pass_through_matcher can not match on the forwarded ID token header '%s'", header)
			}
		}
	}
	owners := 0
	for _, on := range []bool{c.GetForwardBearerToken(), fwd != nil && lowerASCII(header) == "authorization", c.GetPreserveAuthorizationHeader()} {
		if on {
			owners++
		}
	}
	if owners > 1 {
		return "config", "invalid OAuth2 configuration: at most one of forward_bearer_token, preserve_authorization_header, or forward_id_token (when forwarding the ID token on the Authorization header) may be set, as they all use the Authorization header"
	}
	if !jwtURI.MatchString(c.GetAuthorizationEndpoint()) {
		return "config.authorization_endpoint", fmt.Sprintf("OAuth2 filter: invalid authorization endpoint URL '%s' in config.", c.GetAuthorizationEndpoint())
	}
	if c.GetEndSessionEndpoint() != "" && !slices.Contains(c.GetAuthScopes(), "openid") {
		return "config.end_session_endpoint", "OAuth2 filter: end session endpoint is only supported for OpenID Connect."
	}
	return "", ""
}

// cdnIDProblem is parseCdnId (cdn_loop/parser.cc:214-258) on the whole cdn_id: a token or a
// bracketed IPv6-looking literal, an optional ':' and digits, then the end (cdn_loop/config.cc:
// 27-31); "" when it is one, else the parser's status ("" too when the id parses but text follows).
func cdnIDProblem(id string) (bad bool, status string) {
	isToken := func(c byte) bool {
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_!#$%&'*+.^`|~", c) >= 0
	}
	i := 0
	switch {
	case id == "":
		return true, "expected cdn-id at position 0; found end-of-input"
	case id[0] == '[':
		i = 1
		for i < len(id) && (strings.IndexByte("0123456789abcdefABCDEF:.", id[i]) >= 0) {
			i++
		}
		if i == len(id) {
			return true, fmt.Sprintf("expected closing ']' of IPv6 literal at position %d found end-of-input", i)
		}
		if id[i] != ']' {
			return true, fmt.Sprintf("expected closing ']' of IPv6 literal at position %d; found '%c'", i, id[i])
		}
		i++
	default:
		for i < len(id) && isToken(id[i]) {
			i++
		}
		if i == 0 {
			return true, fmt.Sprintf("expected token starting at position 0; found '%c'", id[0])
		}
	}
	if i < len(id) && id[i] == ':' {
		i++
		for i < len(id) && '0' <= id[i] && id[i] <= '9' {
			i++
		}
	}
	return i < len(id), ""
}

package bootcheck

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"net/netip"
	"regexp"
	"slices"
	"strings"

	rbacv3 "github.com/envoyproxy/go-control-plane/envoy/config/rbac/v3"
	extauthzv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/ext_authz/v3"
	jwtv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/jwt_authn/v3"
	luav3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/lua/v3"
	rbachttpv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/rbac/v3"
	"google.golang.org/protobuf/proto"
)

func init() {
	httpFilterChecks["envoy.extensions.filters.http.rbac.v3.RBAC"] = rbacHTTPProblem
	httpFilterChecks["envoy.extensions.filters.http.ext_authz.v3.ExtAuthz"] = extAuthzProblem
	httpFilterChecks["envoy.extensions.filters.http.lua.v3.Lua"] = luaProblem
	httpFilterChecks["envoy.extensions.filters.http.jwt_authn.v3.JwtAuthentication"] = jwtAuthnProblem
}

// rbacHTTPInputs: the inputs an HTTP RBAC match tree may read (rbac_filter.cc:19-60).
var rbacHTTPInputs = map[string]bool{}

func init() {
	for _, name := range []string{
		"envoy.extensions.matching.common_inputs.network.v3.DestinationIPInput", "envoy.extensions.matching.common_inputs.network.v3.DestinationPortInput",
		"envoy.extensions.matching.common_inputs.network.v3.SourceIPInput", "envoy.extensions.matching.common_inputs.network.v3.SourcePortInput",
		"envoy.extensions.matching.common_inputs.network.v3.DirectSourceIPInput", "envoy.extensions.matching.common_inputs.network.v3.ServerNameInput",
		"envoy.extensions.matching.common_inputs.network.v3.NetworkNamespaceInput", "envoy.type.matcher.v3.HttpRequestHeaderMatchInput",
		"envoy.extensions.matching.common_inputs.ssl.v3.UriSanInput", "envoy.extensions.matching.common_inputs.ssl.v3.DnsSanInput",
		"envoy.extensions.matching.common_inputs.ssl.v3.SubjectInput", "envoy.extensions.matching.common_inputs.network.v3.DynamicMetadataInput",
		"xds.type.matcher.v3.HttpAttributesCelMatchInput", "envoy.extensions.matching.common_inputs.network.v3.FilterStateInput",
	} {
		rbacHTTPInputs["type.googleapis.com/"+name] = true
	}
}

// rbacHTTPProblem: the enforced engine, then the shadow one (createEngine, createShadowEngine,
// filters/common/rbac/utility.h:71-107): a match tree's inputs (one visitor for both, its first
// violation thrown, engine_impl.cc:127), or the rules' permissions then principals.
func rbacHTTPProblem(m proto.Message) (string, string) {
	c := m.(*rbachttpv3.RBAC)
	for _, side := range []struct {
		field   string
		matcher bool
		rules   *rbacv3.RBAC
	}{{"matcher", c.GetMatcher() != nil, c.GetRules()}, {"shadow_matcher", c.GetShadowMatcher() != nil, c.GetShadowRules()}} {
		if side.matcher {
			tree := c.GetMatcher()
			if side.field == "shadow_matcher" {
				tree = c.GetShadowMatcher()
			}
			if msg := celMapProblem(tree); msg != "" {
				return side.field, msg
			}
			if bad := firstBadInput(tree, func(u string) bool { return rbacHTTPInputs[u] }); bad != "" {
				return side.field, fmt.Sprintf("requirement violation while creating RBAC match tree: RBAC HTTP filter cannot match on '%s'", bad)
			}
			continue
		}
		field := "rules"
		if side.field == "shadow_matcher" {
			field = "shadow_rules"
		}
		if where, msg := rbacRulesProblem(side.rules); msg != "" {
			return field + "." + where, msg
		}
	}
	return "", ""
}

// rbacRulesProblem: each policy's permissions, then its principals (PolicyMatcher, matchers.h:
// 201-206; Matcher::create, matchers.cc:9-120). Envoy walks the policies in its map's order; here
// by name.
func rbacRulesProblem(rules *rbacv3.RBAC) (string, string) {
	policies := rules.GetPolicies()
	for _, name := range slices.Sorted(maps.Keys(policies)) {
		p := policies[name]
		for i, perm := range p.GetPermissions() {
			if where, msg := rbacPermissionProblem(perm); msg != "" {
				return fmt.Sprintf("policies[%s].permissions[%d]%s", name, i, where), msg
			}
		}
		for i, id := range p.GetPrincipals() {
			if where, msg := rbacPrincipalProblem(id); msg != "" {
				return fmt.Sprintf("policies[%s].principals[%d]%s", name, i, where), msg
			}
		}
	}
	return "", ""
}

func rbacPermissionProblem(p *rbacv3.Permission) (string, string) {
	switch {
	case p.GetAndRules() != nil || p.GetOrRules() != nil:
		set, field := p.GetAndRules(), ".and_rules"
		if set == nil {
			set, field = p.GetOrRules(), ".or_rules"
		}
		for i, r := range set.GetRules() {
			if where, msg := rbacPermissionProblem(r); msg != "" {
				return fmt.Sprintf("%s.rules[%d]%s", field, i, where), msg
			}
		}
	case p.GetNotRule() != nil:
		where, msg := rbacPermissionProblem(p.GetNotRule())
		return ".not_rule" + where, msg
	case p.GetDestinationIp() != nil:
		return rbacCIDRProblem(".destination_ip", p.GetDestinationIp().GetAddressPrefix())
	case p.GetDestinationPortRange() != nil: // PortRangeMatcher, matchers.cc:297-311
		start, end := p.GetDestinationPortRange().GetStart(), p.GetDestinationPortRange().GetEnd()
		switch {
		case start < 0 || start > 65536:
			return ".destination_port_range", fmt.Sprintf("range start %d is out of bounds", start)
		case end < 0 || end > 65536:
			return ".destination_port_range", fmt.Sprintf("range end %d is out of bounds", end)
		case start >= end:
			return ".destination_port_range", fmt.Sprintf("range start %d cannot be greater or equal than range end %d", start, end)
		}
	}
	return "", ""
}

func rbacPrincipalProblem(p *rbacv3.Principal) (string, string) {
	switch {
	case p.GetAndIds() != nil || p.GetOrIds() != nil:
		set, field := p.GetAndIds(), ".and_ids"
		if set == nil {
			set, field = p.GetOrIds(), ".or_ids"
		}
		for i, id := range set.GetIds() {
			if where, msg := rbacPrincipalProblem(id); msg != "" {
				return fmt.Sprintf("%s.ids[%d]%s", field, i, where), msg
			}
		}
	case p.GetNotId() != nil:
		where, msg := rbacPrincipalProblem(p.GetNotId())
		return ".not_id" + where, msg
	case p.GetSourceIp() != nil: //nolint:staticcheck // deprecated, still read
		return rbacCIDRProblem(".source_ip", p.GetSourceIp().GetAddressPrefix()) //nolint:staticcheck
	case p.GetDirectRemoteIp() != nil:
		return rbacCIDRProblem(".direct_remote_ip", p.GetDirectRemoteIp().GetAddressPrefix())
	case p.GetRemoteIp() != nil:
		return rbacCIDRProblem(".remote_ip", p.GetRemoteIp().GetAddressPrefix())
	}
	return "", ""
}

// rbacCIDRProblem is IPMatcher::create (matchers.cc:207-215) around CidrRange::create's
// "malformed IP address" (cidr_range.cc:106).
func rbacCIDRProblem(where, prefix string) (string, string) {
	if _, err := netip.ParseAddr(prefix); err != nil {
		return where, "Failed to create CIDR range: malformed IP address: " + prefix
	}
	return "", ""
}

// extAuthzProblem: FilterConfig's duplicate allowed headers (ext_authz.cc:161-166), then the HTTP
// service's ClientConfig (ext_authz_http_impl.cc:160-185): path_prefix, path_override, not both.
func extAuthzProblem(m proto.Message) (string, string) {
	c := m.(*extauthzv3.ExtAuthz)
	svc := c.GetHttpService()
	if c.GetAllowedHeaders() != nil && svc.GetAuthorizationRequest().GetAllowedHeaders() != nil { //nolint:staticcheck
		return "allowed_headers", "Invalid duplicate configuration for allowed_headers."
	}
	if svc == nil {
		return "", ""
	}
	switch {
	case svc.GetPathPrefix() != "" && svc.GetPathPrefix()[0] != '/':
		return "http_service.path_prefix", `path_prefix should start with "/".`
	case svc.GetPathOverride() != "" && svc.GetPathOverride()[0] != '/':
		return "http_service.path_override", `path_override should start with "/".`
	case svc.GetPathPrefix() != "" && svc.GetPathOverride() != "":
		return "http_service", "Only one of path_prefix or path_override may be set, not both."
	}
	return "", ""
}

// luaProblem: inline_code and default_source_code are exclusive (lua_filter.cc:861-866).
func luaProblem(m proto.Message) (string, string) {
	c := m.(*luav3.Lua)
	if c.GetDefaultSourceCode() != nil && c.GetInlineCode() != "" { //nolint:staticcheck
		return "default_source_code", "Error: Only one of `inline_code` or `default_source_code` can be set for the Lua filter."
	}
	return "", ""
}

// jwtURI is the shape http_parser accepts as an absolute URL with a host (Http::Utility::Url::
// initialize, http/utility.cc:399-412): a scheme, "://", a host, no space.
var jwtURI = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#]+([/?#]\S*)?$`)

// jwtAuthnProblem: the providers' inline JWKS (validateJwtConfig, filter_factory.cc:25-37), then
// FilterConfigImpl (filter_config.cc:27-75): remote JWKS URIs, the requirement map's providers,
// then each rule's requirement. Providers in name order (Envoy: its map's).
func jwtAuthnProblem(m proto.Message) (string, string) {
	c := m.(*jwtv3.JwtAuthentication)
	providers := c.GetProviders()
	names := slices.Sorted(maps.Keys(providers))
	for _, name := range names {
		jwks := providers[name].GetLocalJwks()
		text := jwks.GetInlineString() + string(jwks.GetInlineBytes())
		if text == "" {
			continue
		}
		if status := jwksStatus(text); status != "" {
			return fmt.Sprintf("providers[%s].local_jwks", name), fmt.Sprintf("Provider '%s' in jwt_authn config has invalid local jwks: %s", name, status)
		}
	}
	for _, name := range names {
		if rj := providers[name].GetRemoteJwks(); rj != nil && !jwtURI.MatchString(rj.GetHttpUri().GetUri()) {
			return fmt.Sprintf("providers[%s].remote_jwks.http_uri.uri", name), fmt.Sprintf("Provider '%s' has an invalid URI: '%s'", name, rj.GetHttpUri().GetUri())
		}
	}
	reqs := c.GetRequirementMap()
	reqNames := slices.Sorted(maps.Keys(reqs))
	for _, name := range reqNames {
		if bad := jwtMissingProvider(reqs[name], providers); bad != "" {
			return fmt.Sprintf("requirement_map[%s]", name), fmt.Sprintf("Required provider ['%s'] is not configured.", bad)
		}
	}
	for i, rule := range c.GetRules() {
		where := fmt.Sprintf("rules[%d]", i)
		if rn := rule.GetRequirementName(); rn != "" {
			if _, ok := reqs[rn]; !ok {
				return where + ".requirement_name", fmt.Sprintf("Wrong requirement_name: %s. It should be one of [%s]", rn, strings.Join(reqNames, ","))
			}
			continue
		}
		if bad := jwtMissingProvider(rule.GetRequires(), providers); bad != "" {
			return where + ".requires", fmt.Sprintf("Required provider ['%s'] is not configured.", bad)
		}
	}
	return "", ""
}

// jwtMissingProvider: the first provider a requirement names that is not configured (Verifier::
// create, verifier.cc:440-483).
func jwtMissingProvider(r *jwtv3.JwtRequirement, providers map[string]*jwtv3.JwtProvider) string {
	if r == nil {
		return ""
	}
	name := r.GetProviderName()
	if pa := r.GetProviderAndAudiences(); pa != nil {
		name = pa.GetProviderName()
	}
	if name != "" {
		if _, ok := providers[name]; !ok {
			return name
		}
		return ""
	}
	list := r.GetRequiresAny().GetRequirements()
	if r.GetRequiresAll() != nil {
		list = r.GetRequiresAll().GetRequirements()
	}
	for _, sub := range list {
		if bad := jwtMissingProvider(sub, providers); bad != "" {
			return bad
		}
	}
	return ""
}

// jwksStatus is jwt_verify_lib's Jwks::createFrom(…, JWKS) as far as it needs no key math
// (jwks.cc createFromJwksCore, extractJwk; status.cc's words): "" when it is accepted or when only
// decoding a key could tell.
func jwksStatus(text string) string {
	var doc map[string]any
	if json.Unmarshal([]byte(text), &doc) != nil || doc == nil {
		return "Jwks is an invalid JSON"
	}
	keys, ok := doc["keys"]
	if !ok {
		if x509Map(doc) {
			return "" // PEM certificates by kid: parsing them is not modelled
		}
		return "Jwks does not have [keys] field"
	}
	list, ok := keys.([]any)
	if !ok {
		return "[keys] in Jwks is not an array"
	}
	valid := 0
	for _, k := range list {
		key, ok := k.(map[string]any)
		if !ok {
			continue
		}
		status, known := jwkStatus(key)
		switch {
		case !known:
			return ""
		case status != "":
			return status
		}
		valid++
	}
	if valid == 0 {
		return "Jwks doesn't have any valid public key"
	}
	return ""
}

func x509Map(doc map[string]any) bool {
	for k, v := range doc {
		if s, ok := v.(string); !ok || k == "" || s == "" {
			return false
		}
	}
	return len(doc) > 0
}

// jwkStatus: one key's refusal; known is false when telling needs the key's math (an RSA or EC
// key whose fields are all there).
func jwkStatus(key map[string]any) (status string, known bool) {
	str := func(name string) (string, string) { // value, "missing" / "wrong" / ""
		v, ok := key[name]
		if !ok {
			return "", "missing"
		}
		s, ok := v.(string)
		if !ok {
			return "", "wrong"
		}
		return s, ""
	}
	kty, code := str("kty")
	switch code {
	case "missing":
		return "[kty] is missing in [keys]", true
	case "wrong":
		return "[kty] is bad in [keys]", true
	}
	alg, algCode := str("alg")
	algSet := algCode == ""
	switch kty {
	case "oct":
		if algSet && alg != "HS256" && alg != "HS384" && alg != "HS512" {
			return "[alg] does not start with [HS] for an HMAC key", true
		}
		k, code := str("k")
		switch code {
		case "missing":
			return "[k] field is missing for an HMAC key", true
		case "wrong":
			return "[k] field is not string for an HMAC key", true
		}
		if raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(k, "=")); err != nil || len(raw) == 0 {
			return "Jwks Oct key is an invalid Base64", true
		}
		return "", true
	case "RSA":
		if algSet && !strings.HasPrefix(alg, "RS") {
			return "[alg] is not started with [RS] for a RSA key", true
		}
		for _, f := range []string{"n", "e"} {
			switch _, code := str(f); code {
			case "missing":
				return fmt.Sprintf("[%s] field is missing for a RSA key", f), true
			case "wrong":
				return fmt.Sprintf("[%s] field is not string for a RSA key", f), true
			}
		}
		return "", false
	case "EC":
		if algSet && !strings.HasPrefix(alg, "ES") {
			return "[alg] is not started with [ES] for an EC key", true
		}
		return "", false
	}
	return "[kty] is not supported in [keys]", true
}

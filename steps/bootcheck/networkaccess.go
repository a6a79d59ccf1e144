package bootcheck

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	rbacv3 "github.com/envoyproxy/go-control-plane/envoy/config/rbac/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/ext_proc/v3"
	geoipv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/geoip/v3"
	rbacnetv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/rbac/v3"
	rtv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/reverse_tunnel/v3"
)

// rbacNetworkInputs: what a network RBAC match tree may read (network/rbac/rbac_filter.cc:18-58);
// the tree is built for HTTP data, so an input with no HTTP factory is refused by the lookup
// first, and one with an HTTP factory not listed here by the filter.
var rbacNetworkInputs = map[string]bool{}

func init() {
	for _, name := range []string{
		"envoy.extensions.matching.common_inputs.network.v3.DestinationIPInput", "envoy.extensions.matching.common_inputs.network.v3.DestinationPortInput",
		"envoy.extensions.matching.common_inputs.network.v3.SourceIPInput", "envoy.extensions.matching.common_inputs.network.v3.SourcePortInput",
		"envoy.extensions.matching.common_inputs.network.v3.DirectSourceIPInput", "envoy.extensions.matching.common_inputs.network.v3.ServerNameInput",
		"envoy.extensions.matching.common_inputs.network.v3.NetworkNamespaceInput", "envoy.extensions.matching.common_inputs.ssl.v3.UriSanInput",
		"envoy.extensions.matching.common_inputs.ssl.v3.DnsSanInput", "envoy.extensions.matching.common_inputs.ssl.v3.SubjectInput",
		"envoy.extensions.matching.common_inputs.network.v3.FilterStateInput",
	} {
		rbacNetworkInputs["type.googleapis.com/"+name] = true
	}
}

// rbacNetworkProblem is the network RBAC factory (network/rbac/config.cc:77-90): no header rule
// in the rules, then the shadow rules (validateRbacRules, :19-75; Envoy walks the policies in its
// map's order, here by name); then the engines as the HTTP filter builds them, but a match tree
// may read only the inputs above.
func rbacNetworkProblem(c *rbacnetv3.RBAC) (msg, field string) {
	for _, side := range []struct {
		field string
		rules *rbacv3.RBAC
	}{{"rules", c.GetRules()}, {"shadow_rules", c.GetShadowRules()}} {
		policies := side.rules.GetPolicies()
		for _, name := range slices.Sorted(maps.Keys(policies)) {
			for i, p := range policies[name].GetPermissions() {
				if where, found := rbacPermissionHeader(p); found {
					return "Found header(" + elided + ") rule,not supported by RBAC network filter", fmt.Sprintf(".%s.policies[%s].permissions[%d]%s", side.field, name, i, where)
				}
			}
			for i, p := range policies[name].GetPrincipals() {
				if where, found := rbacPrincipalHeader(p); found {
					return "Found header(" + elided + ") rule,not supported by RBAC network filter", fmt.Sprintf(".%s.policies[%s].principals[%d]%s", side.field, name, i, where)
				}
			}
		}
	}
	// createEngine, createShadowEngine (filters/common/rbac/utility.h:71-107).
	for _, side := range []struct {
		field, rulesField string
		tree              bool
		rules             *rbacv3.RBAC
	}{{"matcher", "rules", c.GetMatcher() != nil, c.GetRules()}, {"shadow_matcher", "shadow_rules", c.GetShadowMatcher() != nil, c.GetShadowRules()}} {
		if !side.tree {
			if where, msg := rbacRulesProblem(side.rules); msg != "" {
				return msg, "." + side.rulesField + "." + where
			}
			continue
		}
		tree := c.GetMatcher()
		if side.field == "shadow_matcher" {
			tree = c.GetShadowMatcher()
		}
		if msg := celMapProblem(tree); msg != "" {
			return msg, "." + side.field
		}
		// Only inputs with an HTTP factory reach the filter's check; one without is the
		// lookup's to refuse (not judged here).
		bad := firstBadInput(tree, func(u string) bool {
			return rbacNetworkInputs[u] || factoryName("envoy.matching.http.input", u[strings.LastIndex(u, "/")+1:]) == ""
		})
		if bad != "" {
			return fmt.Sprintf("requirement violation while creating RBAC match tree: RBAC network filter cannot match '%s'", bad), "." + side.field
		}
	}
	return "", ""
}

// rbacPermissionHeader finds a header rule in a permission, through and, or and not.
func rbacPermissionHeader(p *rbacv3.Permission) (string, bool) {
	switch {
	case p.GetHeader() != nil:
		return ".header", true
	case p.GetAndRules() != nil || p.GetOrRules() != nil:
		set, field := p.GetAndRules(), ".and_rules"
		if set == nil {
			set, field = p.GetOrRules(), ".or_rules"
		}
		for i, r := range set.GetRules() {
			if where, found := rbacPermissionHeader(r); found {
				return fmt.Sprintf("%s.rules[%d]%s", field, i, where), true
			}
		}
	case p.GetNotRule() != nil:
		where, found := rbacPermissionHeader(p.GetNotRule())
		return ".not_rule" + where, found
	}
	return "", false
}

// rbacPrincipalHeader finds a header rule in a principal, through and, or and not.
func rbacPrincipalHeader(p *rbacv3.Principal) (string, bool) {
	switch {
	case p.GetHeader() != nil:
		return ".header", true
	case p.GetAndIds() != nil || p.GetOrIds() != nil:
		set, field := p.GetAndIds(), ".and_ids"
		if set == nil {
			set, field = p.GetOrIds(), ".or_ids"
		}
		for i, id := range set.GetIds() {
			if where, found := rbacPrincipalHeader(id); found {
				return fmt.Sprintf("%s.ids[%d]%s", field, i, where), true
			}
		}
	case p.GetNotId() != nil:
		where, found := rbacPrincipalHeader(p.GetNotId())
		return ".not_id" + where, found
	}
	return "", false
}

// extProcNetworkProblem is the network ext_proc's verifyFilterConfig (network/ext_proc/
// config.cc:20-34), thrown with the status's message (:41-44).
func extProcNetworkProblem(c *extprocv3.NetworkExternalProcessor) (msg, field string) {
	switch {
	case c.GetGrpcService() == nil:
		return "A grpc_service must be configured", ""
	case c.GetProcessingMode().GetProcessRead() == extprocv3.ProcessingMode_SKIP && c.GetProcessingMode().GetProcessWrite() == extprocv3.ProcessingMode_SKIP:
		return "both read and write paths are skipped, at least one must be enabled.", ".processing_mode"
	}
	return "", ""
}

// geoipNetworkProblem: client_ip is a format string (network/geoip/config.cc:21-28); the provider
// after it needs its database files, not judged here.
func geoipNetworkProblem(c *geoipv3.Geoip) (msg, field string) {
	if msg := parsedFormat(c.GetClientIp(), "Failed to parse client_ip: "); msg != "" {
		return msg, ".client_ip"
	}
	return "", ""
}

// reverseTunnelProblem: the validation's three formats, in order (reverse_tunnel_filter.cc:
// 72-130).
func reverseTunnelProblem(c *rtv3.ReverseTunnel) (msg, field string) {
	v := c.GetValidation()
	for _, f := range []struct{ field, format string }{
		{"node_id_format", v.GetNodeIdFormat()}, {"cluster_id_format", v.GetClusterIdFormat()}, {"tenant_id_format", v.GetTenantIdFormat()},
	} {
		if msg := parsedFormat(f.format, "Failed to parse "+f.field+": "); msg != "" {
			return msg, ".validation." + f.field
		}
	}
	return "", ""
}

// parsedFormat parses a format string its owner wraps a returned status of with prefix (the
// status's message); an error a command parser throws passes by unwrapped. "" when it parses.
func parsedFormat(format, prefix string) string {
	if format == "" {
		return ""
	}
	if _, err := (formatParser{}).parse(format); err != nil {
		if err.thrown {
			return err.msg
		}
		return prefix + err.msg
	}
	return ""
}

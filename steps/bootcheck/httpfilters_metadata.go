package bootcheck

import (
	"fmt"

	bandwidthv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/bandwidth_limit/v3"
	h2mv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/header_to_metadata/v3"
	j2mv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/json_to_metadata/v3"
	localratelimitv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/local_ratelimit/v3"
	t2mv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/thrift_to_metadata/v3"
	thriftv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/thrift_proxy/v3"
	"google.golang.org/protobuf/proto"
)

func init() {
	httpFilterChecks["envoy.extensions.filters.http.header_to_metadata.v3.Config"] = func(m proto.Message) (string, string) { return headerToMetadataProblem(m, false) }
	httpFilterChecks["envoy.extensions.filters.http.json_to_metadata.v3.JsonToMetadata"] = func(m proto.Message) (string, string) { return jsonToMetadataProblem(m, false) }
	httpFilterChecks["envoy.extensions.filters.http.thrift_to_metadata.v3.ThriftToMetadata"] = thriftToMetadataProblem
	// Per-route configs are built by the same constructors with per_route set
	// (createRouteSpecificFilterConfigTyped in each filter's config.cc).
	httpRouteConfigChecks["envoy.extensions.filters.http.header_to_metadata.v3.Config"] = func(m proto.Message) (string, string) { return headerToMetadataProblem(m, true) }
	httpRouteConfigChecks["envoy.extensions.filters.http.json_to_metadata.v3.JsonToMetadata"] = func(m proto.Message) (string, string) { return jsonToMetadataProblem(m, true) }
	httpRouteConfigChecks["envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit"] = localRateLimitRouteProblem
	httpRouteConfigChecks["envoy.extensions.filters.http.bandwidth_limit.v3.BandwidthLimit"] = bandwidthLimitRouteProblem
}

// headerToMetadataProblem is Config (header_to_metadata_filter.cc:114-146): each rule of the
// request, then the response rules (Rule, :50-110), and for a per-route config at least one rule.
func headerToMetadataProblem(m proto.Message, perRoute bool) (string, string) {
	c := m.(*h2mv3.Config)
	for _, side := range []struct {
		field string
		rules []*h2mv3.Config_Rule
	}{{"request_rules", c.GetRequestRules()}, {"response_rules", c.GetResponseRules()}} {
		for i, r := range side.rules {
			where := fmt.Sprintf("%s[%d]", side.field, i)
			selector := "header '" + lowerASCII(r.GetHeader()) + "'"
			if r.GetHeader() == "" {
				selector = "cookie '" + r.GetCookie() + "'"
			}
			present := r.GetOnHeaderPresent()
			switch {
			case r.GetCookie() != "" && r.GetHeader() != "":
				return where, "Cannot specify both header and cookie in the same rule"
			case r.GetCookie() == "" && r.GetHeader() == "":
				return where, "One of Cookie or Header option needs to be specified"
			case present == nil && r.GetOnHeaderMissing() == nil:
				return where, fmt.Sprintf("header to metadata filter: rule for %s has neither `on_header_present` nor `on_header_missing` set", selector)
			case present.GetValue() != "" && present.GetRegexValueRewrite() != nil:
				return where + ".on_header_present", "Cannot specify both value and regex_value_rewrite"
			case r.GetCookie() != "" && r.GetRemove():
				return where + ".remove", "Cannot specify remove for cookie"
			case r.GetOnHeaderMissing() != nil && r.GetOnHeaderMissing().GetValue() == "":
				return where + ".on_header_missing", "Cannot specify on_header_missing rule with an empty value"
			}
		}
	}
	if perRoute && len(c.GetRequestRules()) == 0 && len(c.GetResponseRules()) == 0 {
		return "", "header_to_metadata_filter: Per filter configs must at least specify either request or response rules"
	}
	return "", ""
}

// lowerASCII is Http::LowerCaseString.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// jsonToMetadataProblem is FilterConfig (json_to_metadata/filter.cc:123-150): the request's rules,
// then the response's (Rule, :91-110), and for a per-route config at least one of them.
func jsonToMetadataProblem(m proto.Message, perRoute bool) (string, string) {
	c := m.(*j2mv3.JsonToMetadata)
	for _, side := range []struct {
		field string
		rules []*j2mv3.JsonToMetadata_Rule
	}{{"request_rules", c.GetRequestRules().GetRules()}, {"response_rules", c.GetResponseRules().GetRules()}} {
		for i, r := range side.rules {
			where := fmt.Sprintf("%s.rules[%d]", side.field, i)
			switch {
			case r.GetOnPresent() == nil && r.GetOnMissing() == nil:
				return where, "json to metadata filter: neither `on_present` nor `on_missing` set"
			case r.GetOnMissing() != nil && r.GetOnMissing().GetValue() == nil:
				return where + ".on_missing", "json to metadata filter: cannot specify on_missing rule with empty value"
			case r.GetOnError() != nil && r.GetOnError().GetValue() == nil:
				return where + ".on_error", "json to metadata filter: cannot specify on_error rule with empty value"
			}
		}
	}
	if perRoute && len(c.GetRequestRules().GetRules()) == 0 && len(c.GetResponseRules().GetRules()) == 0 {
		return "", "json_to_metadata_filter: Per route configs must at least specify one of request_rules or response_rules."
	}
	return "", ""
}

// thriftToMetadataProblem is FilterConfig (thrift_to_metadata/filter.cc:125-156): each rule
// (Rule, :15-30), at least one rule, and not the TWITTER protocol.
func thriftToMetadataProblem(m proto.Message) (string, string) {
	c := m.(*t2mv3.ThriftToMetadata)
	for _, side := range []struct {
		field string
		rules []*t2mv3.Rule
	}{{"request_rules", c.GetRequestRules()}, {"response_rules", c.GetResponseRules()}} {
		for i, r := range side.rules {
			where := fmt.Sprintf("%s[%d]", side.field, i)
			switch {
			case r.GetOnPresent() == nil && r.GetOnMissing() == nil:
				return where, "thrift to metadata filter: neither `on_present` nor `on_missing` set"
			case r.GetOnMissing() != nil && r.GetOnMissing().GetValue() == nil:
				return where + ".on_missing", "thrift to metadata filter: cannot specify on_missing rule with empty value"
			}
		}
	}
	switch {
	case len(c.GetRequestRules()) == 0 && len(c.GetResponseRules()) == 0:
		return "", "thrift_to_metadata filter: Per filter configs must at least specify either request or response rules"
	case c.GetProtocol() == thriftv3.ProtocolType_TWITTER:
		return "protocol", "thrift_to_metadata filter: Protocol TWITTER is not supported"
	}
	return "", ""
}

// localRateLimitRouteProblem: a per-route local rate limit needs its token bucket
// (local_ratelimit.cc:80-84), then is checked as the filter's is.
func localRateLimitRouteProblem(m proto.Message) (string, string) {
	if m.(*localratelimitv3.LocalRateLimit).GetTokenBucket() == nil {
		return "", "local rate limit token bucket must be set for per filter configs"
	}
	return localRateLimitProblem(m)
}

// bandwidthLimitRouteProblem: a per-route bandwidth limit needs limit_kbps (bandwidth_limit.cc:
// 71-74).
func bandwidthLimitRouteProblem(m proto.Message) (string, string) {
	if m.(*bandwidthv3.BandwidthLimit).GetLimitKbps() == nil {
		return "", "limit must be set for per route filter config"
	}
	return "", ""
}

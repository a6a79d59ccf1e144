package bootcheck

import (
	"fmt"
	"maps"
	"math"
	"net/netip"
	"slices"
	"strings"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	apikeyv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/api_key_auth/v3"
	basicauthv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/basic_auth/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/ext_proc/v3"
	fileserverv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/file_server/v3"
	filterchainv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/filter_chain/v3"
	geoipv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/geoip/v3"
	headermutationv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/header_mutation/v3"
	healthcheckv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/health_check/v3"
	iptaggingv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/ip_tagging/v3"
	transformv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/transform/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

func init() {
	for typ, check := range map[string]func(proto.Message) (string, string){
		"envoy.extensions.filters.http.api_key_auth.v3.ApiKeyAuth":        apiKeyAuthProblem,
		"envoy.extensions.filters.http.basic_auth.v3.BasicAuth":           basicAuthProblem,
		"envoy.extensions.filters.http.ext_proc.v3.ExternalProcessor":     extProcProblem,
		"envoy.extensions.filters.http.file_server.v3.FileServerConfig":   fileServerProblem,
		"envoy.extensions.filters.http.filter_chain.v3.FilterChainConfig": filterChainFilterProblem,
		"envoy.extensions.filters.http.geoip.v3.Geoip":                    geoipProblem,
		"envoy.extensions.filters.http.header_mutation.v3.HeaderMutation": headerMutationProblem,
		"envoy.extensions.filters.http.health_check.v3.HealthCheck":       healthCheckFilterProblem,
		"envoy.extensions.filters.http.ip_tagging.v3.IPTagging":           ipTaggingProblem,
		"envoy.extensions.filters.http.transform.v3.TransformConfig":      transformProblem,
	} {
		httpFilterChecks[typ] = check
	}
}

// apiKeyAuthProblem: each key source names a header, a query parameter or a cookie
// (KeySources::Source, api_key_auth.cc:21-33).
func apiKeyAuthProblem(m proto.Message) (string, string) {
	for i, s := range m.(*apikeyv3.ApiKeyAuth).GetKeySources() {
		if s.GetHeader() == "" && s.GetQuery() == "" && s.GetCookie() == "" {
			return fmt.Sprintf("key_sources[%d]", i), "One of 'header'/'query'/'cookie' must be set."
		}
	}
	return "", ""
}

// basicAuthProblem is readHtpasswd (basic_auth/config.cc:18-63) on inline users: per line (not
// empty, not a comment) user:{SHA}<28 base64 characters>, each user once.
func basicAuthProblem(m proto.Message) (string, string) {
	users := m.(*basicauthv3.BasicAuth).GetUsers()
	text := users.GetInlineString() + string(users.GetInlineBytes())
	seen := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		name, hash, ok := strings.Cut(line, ":")
		switch {
		case !ok:
			return "users", "basic auth: invalid htpasswd format, username:password is expected"
		case name == "" || hash == "":
			return "users", "basic auth: empty user name or password"
		case seen[name]:
			return "users", "basic auth: duplicate users"
		case !strings.HasPrefix(hash, "{SHA}"):
			return "users", "basic auth: unsupported htpasswd format: please use {SHA}"
		case len(hash)-5 != 28:
			return "users", "basic auth: invalid htpasswd format, invalid SHA hash length"
		}
		seen[name] = true
	}
	return "", ""
}

// extProcProblem is verifyFilterConfig then verifyProcessingModeConfig (ext_proc/config.cc:16-72).
func extProcProblem(m proto.Message) (string, string) {
	c := m.(*extprocv3.ExternalProcessor)
	mode := c.GetProcessingMode()
	switch {
	case (c.GetGrpcService() != nil) == (c.GetHttpService() != nil):
		return "", "One and only one of grpc_service or http_service must be configured"
	case c.GetDisableClearRouteCache() && c.GetRouteCacheAction() != extprocv3.ExternalProcessor_DEFAULT:
		return "disable_clear_route_cache", "disable_clear_route_cache and route_cache_action can not be set to none-default at the same time."
	case c.GetHttpService() != nil && (mode.GetRequestBodyMode() != extprocv3.ProcessingMode_NONE || mode.GetResponseBodyMode() != extprocv3.ProcessingMode_NONE ||
		mode.GetRequestTrailerMode() == extprocv3.ProcessingMode_SEND || mode.GetResponseTrailerMode() == extprocv3.ProcessingMode_SEND):
		return "processing_mode", "If the ext_proc filter is configured with http_service instead of gRPC service, then the processing modes of this filter can not be configured to send body or trailer."
	case mode.GetRequestBodyMode() == extprocv3.ProcessingMode_FULL_DUPLEX_STREAMED && mode.GetRequestTrailerMode() != extprocv3.ProcessingMode_SEND:
		return "processing_mode", "If the ext_proc filter has the request_body_mode set to FULL_DUPLEX_STREAMED, then the request_trailer_mode has to be set to SEND"
	case mode.GetResponseBodyMode() == extprocv3.ProcessingMode_FULL_DUPLEX_STREAMED && mode.GetResponseTrailerMode() != extprocv3.ProcessingMode_SEND:
		return "processing_mode", "If the ext_proc filter has the response_body_mode set to FULL_DUPLEX_STREAMED, then the response_trailer_mode has to be set to SEND"
	}
	return "", ""
}

// fileServerProblem is validateProto (file_server/config.cc:21-55).
func fileServerProblem(m proto.Message) (string, string) {
	c := m.(*fileserverv3.FileServerConfig)
	prefixes := map[string]bool{}
	for i, pm := range c.GetPathMappings() {
		if prefixes[pm.GetRequestPathPrefix()] {
			return fmt.Sprintf("path_mappings[%d]", i), "duplicate request_path_prefix: " + pm.GetRequestPathPrefix()
		}
		prefixes[pm.GetRequestPathPrefix()] = true
	}
	files, list := map[string]bool{}, false
	for i, d := range c.GetDirectoryBehaviors() {
		where := fmt.Sprintf("directory_behaviors[%d]", i)
		switch file := d.GetDefaultFile(); {
		case file == "" && d.GetList() == nil:
			return where, "directory_behavior must set one of default_file or list"
		case file != "" && d.GetList() != nil:
			return where, "directory_behavior must have only one of default_file or list"
		case file != "" && files[file]:
			return where, "duplicate default_file in directory_behaviors: " + file
		case file != "":
			files[file] = true
		case list:
			return where, "multiple list directives"
		default:
			list = true
		}
	}
	return "", ""
}

// filterChainFilterProblem: the filter_chain filter may not hold itself (filter_chain/filter.cc:
// 24-31).
func filterChainFilterProblem(m proto.Message) (string, string) {
	for i, f := range m.(*filterchainv3.FilterChainConfig).GetDefaultFilterChain().GetFilters() {
		if factoryType(f.GetTypedConfig()) == "envoy.extensions.filters.http.filter_chain.v3.FilterChainConfig" {
			return fmt.Sprintf("default_filter_chain.filters[%d]", i), "FilterChain filter cannot be configured recursively."
		}
	}
	return "", ""
}

// geoipProblem is validateConfig (geoip/config.cc:15-22), before the provider reads its database.
func geoipProblem(m proto.Message) (string, string) {
	if c := m.(*geoipv3.Geoip); c.GetXffConfig() != nil && c.GetCustomHeaderConfig() != nil {
		return "", "Only one of xff_config or custom_header_config can be set in the geoip filter configuration"
	}
	return "", ""
}

// headerMutationProblem: the query parameter mutations, after the header ones (Mutations,
// header_mutation.cc:76-108).
func headerMutationProblem(m proto.Message) (string, string) {
	for i, q := range m.(*headermutationv3.HeaderMutation).GetMutations().GetQueryParameterMutations() {
		where := fmt.Sprintf("mutations.query_parameter_mutations[%d]", i)
		switch {
		case q.GetAppend() != nil && q.GetRemove() != "":
			return where, "Only one of 'append'/'remove can be specified."
		case q.GetAppend() != nil && q.GetAppend().GetRecord() == nil:
			return where + ".append", "No record specified for append mutation."
		case q.GetAppend() != nil && !isStringValue(q.GetAppend().GetRecord().GetValue()):
			return where + ".append.record.value", "Only string value is allowed for record value."
		case q.GetAppend() == nil && q.GetRemove() == "":
			return where, "One of 'append'/'remove' must be specified."
		}
	}
	return "", ""
}

func isStringValue(v *structpb.Value) bool {
	_, ok := v.GetKind().(*structpb.Value_StringValue)
	return ok
}

// healthCheckFilterProblem (health_check/config.cc:25-50): no cache time without pass-through, and no
// NaN minimum healthy percentage (read only without pass-through), in the map's order (here by
// cluster name).
func healthCheckFilterProblem(m proto.Message) (string, string) {
	c := m.(*healthcheckv3.HealthCheck)
	pass := c.GetPassThroughMode().GetValue()
	if !pass && fillMillis(c.GetCacheTime()) != 0 {
		return "cache_time", "cache_time_ms must not be set when path_through_mode is disabled"
	}
	if !pass {
		pct := c.GetClusterMinHealthyPercentages()
		for _, name := range slices.Sorted(maps.Keys(pct)) {
			if math.IsNaN(pct[name].GetValue()) {
				return "cluster_min_healthy_percentages", "cluster_min_healthy_percentages contains a NaN value for cluster: " + name
			}
		}
	}
	return "", ""
}

// ipTaggingProblem (ip_tagging_filter.cc:180-200, then the tags' ranges, :40-50).
func ipTaggingProblem(m proto.Message) (string, string) {
	c := m.(*iptaggingv3.IPTagging)
	switch {
	case len(c.GetIpTags()) == 0 && c.GetIpTagsDatasource() == nil:
		return "", "HTTP IP Tagging Filter requires either ip_tags or ip_tags_datasource to be specified."
	case len(c.GetIpTags()) > 0 && c.GetIpTagsDatasource() != nil:
		return "", "Only one of ip_tags or ip_tags_datasource can be configured."
	}
	for i, tag := range c.GetIpTags() {
		for j, r := range tag.GetIpList() {
			if msg := cidrComboProblem(r); msg != "" {
				return fmt.Sprintf("ip_tags[%d].ip_list[%d]", i, j), msg
			}
		}
	}
	return "", ""
}

// cidrComboProblem: CidrRange::create refuses an address that is not an IP; its owners word it so.
func cidrComboProblem(r *corev3.CidrRange) string {
	if _, err := netip.ParseAddr(r.GetAddressPrefix()); err != nil {
		return fmt.Sprintf("invalid ip/mask combo '%s/%d' (format is <ip>/<# mask bits>)", r.GetAddressPrefix(), r.GetPrefixLen().GetValue())
	}
	return ""
}

// transformProblem: the route and cluster caches cannot both be cleared (transform.cc:122-127).
func transformProblem(m proto.Message) (string, string) {
	if c := m.(*transformv3.TransformConfig); c.GetClearClusterCache() && c.GetClearRouteCache() {
		return "", "Only one of clear_cluster_cache and clear_route_cache can be set to true"
	}
	return "", ""
}

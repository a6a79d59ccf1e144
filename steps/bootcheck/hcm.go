package bootcheck

import (
	"fmt"
	"net/netip"
	"strings"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	xffv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/http/original_ip_detection/xff/v3"
)

// hcmChecks: what building an HTTP connection manager refuses, in the order of
// HttpConnectionManagerConfig's constructor (source/extensions/filters/network/
// http_connection_manager/config.cc at the stored commit): its own options, the route table,
// the access log options, the codec against the listener, the HTTP filter chain (FilterChainHelper
// ::processFilters, httpfilterchain.go), then the upgrades.
func hcmChecks(hcm *hcmv3.HttpConnectionManager, path string, quicListener bool, static map[string]*clusterv3.Cluster, add addFunc) {
	fail := func(where, msg string) { add(stageListeners, path+where, msg) }
	if where, msg := hcmOptionsProblem(hcm); msg != "" {
		fail(where, msg)
		return
	}
	// validateRds (config.cc:214-223): a config source or an xdstp: name; the message ends with
	// the Rds's DebugString (elided).
	if rds := hcm.GetRds(); rds != nil && rds.GetConfigSource() == nil && !strings.HasPrefix(rds.GetRouteConfigName(), "xdstp:") {
		fail(".rds", "An RDS config must have either a 'config_source' or an xDS-TP based 'route_config_name'. Error while parsing RDS config:\n"+elided)
		return
	}
	if rc := hcm.GetRouteConfig(); rc != nil {
		if routeChecks(rc, path+".route_config", static, add) {
			return
		}
	}
	// Inline scoped routes: each carries its route table, not its name, and that table is built
	// before the next scope is read (makeScopedRouteInfos, scoped_rds.cc:95-108).
	for i, sr := range hcm.GetScopedRoutes().GetScopedRouteConfigurationsList().GetScopedRouteConfigurations() {
		at := fmt.Sprintf(".scoped_routes.scoped_route_configurations_list.scoped_route_configurations[%d]", i)
		switch {
		case sr.GetRouteConfigurationName() != "":
			fail(at+".route_configuration_name", "Fetching routes via RDS (route_configuration_name) is not supported with inline scoped routes.")
			return
		case sr.GetRouteConfiguration() == nil:
			fail(at, "You must specify a route_configuration with inline scoped routes.")
			return
		case routeChecks(sr.GetRouteConfiguration(), path+at+".route_configuration", static, add):
			return
		}
	}
	if hcm.GetAccessLogOptions() != nil {
		switch {
		case hcm.GetFlushAccessLogOnNewRequest():
			fail(".access_log_options", "Only one of flush_access_log_on_new_request or access_log_options can be specified.")
			return
		case hcm.GetAccessLogFlushInterval() != nil:
			fail(".access_log_options", "Only one of access_log_flush_interval or access_log_options can be specified.")
			return
		}
	}
	http3 := hcm.GetCodecType() == hcmv3.HttpConnectionManager_HTTP3
	switch {
	case http3 && !quicListener:
		fail(".codec_type", "HTTP/3 codec configured on non-QUIC listener.")
		return
	case !http3 && quicListener:
		fail(".codec_type", "Non-HTTP/3 codec configured on QUIC listener.")
		return
	}
	if httpFilterChainProblem(hcm.GetHttpFilters(), ".http_filters", "http", fail) {
		return
	}
	upgrades := map[string]bool{}
	for i, u := range hcm.GetUpgradeConfigs() {
		name := strings.ToLower(u.GetUpgradeType())
		if upgrades[name] {
			fail(fmt.Sprintf(".upgrade_configs[%d].upgrade_type", i), fmt.Sprintf("Error: multiple upgrade configs with the same name: '%s'", u.GetUpgradeType()))
			return
		}
		upgrades[name] = true
		if len(u.GetFilters()) > 0 && httpFilterChainProblem(u.GetFilters(), fmt.Sprintf(".upgrade_configs[%d].filters", i), "http upgrade", fail) {
			return
		}
	}
}

// hcmOptionsProblem: the connection manager's own options, in its constructor's order
// (config.cc:360-585): the header validator (set after the internal addresses, so its refusal is
// the one reported), the internal address ranges, HTTP/2 options, header sizes, host ports, the
// request ID, original IP detection and early header mutation extensions.
func hcmOptionsProblem(hcm *hcmv3.HttpConnectionManager) (where, msg string) {
	// The stock build leaves ENVOY_ENABLE_UHV off (config.cc:195-207); the runtime flag that
	// would turn it on is inEnvoyOrder's, which has the bootstrap.
	if hv := hcm.GetTypedHeaderValidationConfig(); hv != nil {
		return ".typed_header_validation_config", fmt.Sprintf("This Envoy binary does not support header validator extensions.: '%s'", hv.GetName())
	}
	ranges := hcm.GetInternalAddressConfig().GetCidrRanges()
	for i := len(ranges) - 1; i >= 0; i-- { // IpList keeps the last bad one (cidr_range.cc:233)
		if _, err := netip.ParseAddr(ranges[i].GetAddressPrefix()); err != nil {
			return fmt.Sprintf(".internal_address_config.cidr_ranges[%d]", i), fmt.Sprintf("invalid ip/mask combo '%s/%d' (format is <ip>/<# mask bits>)", ranges[i].GetAddressPrefix(), ranges[i].GetPrefixLen().GetValue())
		}
	}
	if msg := http2OptionsProblem(hcm.GetHttp2ProtocolOptions(), nil); msg != "" {
		return ".http2_protocol_options", msg
	}
	// max_header_field_size_kb against max_request_headers_kb: its default is the runtime's
	// (httpBootstrapProblems).
	switch {
	case hcm.GetCommonHttpProtocolOptions().GetMaxResponseHeadersKb() != nil:
		return ".common_http_protocol_options.max_response_headers_kb", "Error: max_response_headers_kb cannot be set on http_connection_manager."
	case hcm.GetStripAnyHostPort() && hcm.GetStripMatchingHostPort():
		return ".strip_any_host_port", "Error: Only one of `strip_matching_host_port` or `strip_any_host_port` can be set."
	}
	// RequestIDExtensionFactory::fromProto (request_id_extension_impl.cc:12-19): by the Any's own
	// type; uuid is the stock build's only request ID extension.
	if rid := hcm.GetRequestIdExtension().GetTypedConfig(); rid != nil {
		if typ := typeName(rid); typ != "envoy.extensions.request_id.uuid.v3.UuidRequestIdConfig" {
			return ".request_id_extension.typed_config", fmt.Sprintf("Didn't find a registered implementation for type: '%s'", typ)
		}
	}
	detection := hcm.GetOriginalIpDetectionExtensions()
	switch {
	case len(detection) > 0 && hcm.GetUseRemoteAddress().GetValue():
		return ".original_ip_detection_extensions", "Original IP detection extensions and use_remote_address may not be mixed"
	case len(detection) > 0 && hcm.GetXffNumTrustedHops() > 0:
		return ".original_ip_detection_extensions", "Original IP detection extensions and xff_num_trusted_hops may not be mixed"
	}
	for i, e := range detection {
		at := fmt.Sprintf(".original_ip_detection_extensions[%d]", i)
		switch factoryType(e.GetTypedConfig()) {
		case "envoy.extensions.http.original_ip_detection.custom_header.v3.CustomHeaderConfig":
		case "envoy.extensions.http.original_ip_detection.xff.v3.XffConfig":
			var xff xffv3.XffConfig // XffIPDetection::create (xff.cc:15)
			if e.GetTypedConfig().UnmarshalTo(&xff) == nil && xff.GetXffTrustedCidrs() != nil && xff.GetXffNumTrustedHops() > 0 {
				return at + ".typed_config", "Cannot set both xff_num_trusted_hops and xff_trusted_cidrs"
			}
		default:
			return at, fmt.Sprintf("Original IP detection extension not found: '%s'", e.GetName())
		}
	}
	for i, e := range hcm.GetEarlyHeaderMutationExtensions() {
		if factoryType(e.GetTypedConfig()) != "envoy.extensions.http.early_header_mutation.header_mutation.v3.HeaderMutation" {
			return fmt.Sprintf(".early_header_mutation_extensions[%d]", i), fmt.Sprintf("Early header mutation extension not found: '%s'", e.GetName())
		}
	}
	return "", ""
}

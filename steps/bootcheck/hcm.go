package bootcheck

import (
	"fmt"
	"strings"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
)

// hcmChecks: what building an HTTP connection manager refuses, in the order of
// HttpConnectionManagerConfig's constructor (source/extensions/filters/network/
// http_connection_manager/config.cc at the stored commit): its own options, the route table,
// the access log options, the codec against the listener, the HTTP filter chain (FilterChainHelper
// ::processFilters, httpfilterchain.go), then the upgrades.
func hcmChecks(hcm *hcmv3.HttpConnectionManager, path string, quicListener bool, static map[string]*clusterv3.Cluster, add addFunc) {
	fail := func(where, msg string) { add(stageListeners, path+where, msg) }
	switch {
	case hcm.GetCommonHttpProtocolOptions().GetMaxResponseHeadersKb() != nil:
		fail(".common_http_protocol_options.max_response_headers_kb", "Error: max_response_headers_kb cannot be set on http_connection_manager.")
		return
	case hcm.GetStripAnyHostPort() && hcm.GetStripMatchingHostPort():
		fail(".strip_any_host_port", "Error: Only one of `strip_matching_host_port` or `strip_any_host_port` can be set.")
		return
	case len(hcm.GetOriginalIpDetectionExtensions()) > 0 && hcm.GetUseRemoteAddress().GetValue():
		fail(".original_ip_detection_extensions", "Original IP detection extensions and use_remote_address may not be mixed")
		return
	case len(hcm.GetOriginalIpDetectionExtensions()) > 0 && hcm.GetXffNumTrustedHops() > 0:
		fail(".original_ip_detection_extensions", "Original IP detection extensions and xff_num_trusted_hops may not be mixed")
		return
	}
	if rc := hcm.GetRouteConfig(); rc != nil {
		if routeChecks(rc, path+".route_config", static, add) {
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

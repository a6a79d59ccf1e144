package bootcheck

import (
	"fmt"
	"math"
	"strings"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	upstreamhttpv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/upstreams/http/v3"
)

// httpOptionsProblem: a cluster's HTTP protocol options as ClusterInfoImpl makes them
// (createOptions, upstream_impl.cc:1058-1090; ProtocolOptionsConfigImpl::
// createProtocolOptionsConfig, extensions/upstreams/http/config.cc:224-281): the HTTP/2 options
// (Http2::Utility::initializeAndValidateOptions), the header size limits, then, for the typed
// options, the alternate protocols cache and the header validator.
func httpOptionsProblem(c *clusterv3.Cluster, opts *upstreamhttpv3.HttpProtocolOptions, bs *bootstrapv3.Bootstrap) (msg, where string) {
	const typed = ".typed_extension_protocol_options[" + httpProtocolOptions + "]"
	if opts == nil {
		if c.GetProtocolSelection() == clusterv3.Cluster_USE_CONFIGURED_PROTOCOL && c.GetHttpProtocolOptions() != nil && c.GetHttp2ProtocolOptions() != nil {
			return "cluster: Both HTTP1 and HTTP2 options may only be configured with non-default 'protocol_selection' values", ".http2_protocol_options"
		}
		if msg := http2OptionsProblem(c.GetHttp2ProtocolOptions(), c.GetCommonHttpProtocolOptions()); msg != "" {
			return msg, ".http2_protocol_options"
		}
		return "", ""
	}
	h2 := opts.GetExplicitHttpConfig().GetHttp2ProtocolOptions()
	switch {
	case opts.GetUseDownstreamProtocolConfig() != nil:
		h2 = opts.GetUseDownstreamProtocolConfig().GetHttp2ProtocolOptions()
	case opts.GetAutoConfig() != nil:
		h2 = opts.GetAutoConfig().GetHttp2ProtocolOptions()
	}
	if msg := http2OptionsProblem(h2, opts.GetCommonHttpProtocolOptions()); msg != "" {
		return msg, typed
	}
	if auto := opts.GetAutoConfig(); auto.GetHttp3ProtocolOptions() != nil && auto.GetAlternateProtocolsCacheOptions() == nil {
		return "alternate protocols cache must be configured when HTTP/3 is enabled with auto_config", typed + ".auto_config"
	}
	// The stock build leaves ENVOY_ENABLE_UHV off (config.cc:144-154).
	if hv := opts.GetHeaderValidationConfig(); hv != nil {
		return fmt.Sprintf("This Envoy binary does not support header validator extensions: '%s'", hv.GetName()), typed + ".header_validation_config"
	}
	if runtimeFlag(bs, "envoy.reloadable_features.enable_universal_header_validator", false) {
		return "Header validator can not be enabled since this Envoy binary does not support it.", typed
	}
	return "", ""
}

// http2OptionsProblem: custom SETTINGS parameters (validateCustomSettingsParameters,
// source/common/http/utility.cc:107-165), then max_header_field_size_kb within
// max_response_headers_kb.
func http2OptionsProblem(h2 *corev3.Http2ProtocolOptions, common *corev3.HttpProtocolOptions) string {
	var collisions, custom []string
	seen := map[uint32]uint32{}
	for _, p := range h2.GetCustomSettingsParameters() {
		id, v := p.GetIdentifier().GetValue(), p.GetValue().GetValue()
		if first, dup := seen[id]; dup {
			if first != v {
				custom = append(custom, fmt.Sprintf("0x%02x", id))
			}
		} else {
			seen[id] = v
		}
		switch id {
		case 2: // ENABLE_PUSH
			if v == 1 {
				return "server push is not supported by Envoy and can not be enabled via a SETTINGS parameter."
			}
		case 8: // ENABLE_CONNECT_PROTOCOL
			return `the "allow_connect" SETTINGS parameter must only be configured through the named field`
		case 1:
			if h2.GetHpackTableSize() != nil {
				collisions = append(collisions, "hpack_table_size")
			}
		case 3:
			if h2.GetMaxConcurrentStreams() != nil {
				collisions = append(collisions, "max_concurrent_streams")
			}
		case 4:
			if h2.GetInitialStreamWindowSize() != nil {
				collisions = append(collisions, "initial_stream_window_size")
			}
		}
	}
	if len(custom) > 0 {
		return "inconsistent HTTP/2 custom SETTINGS parameter(s) detected; identifiers = {" + strings.Join(custom, ",") + "}"
	}
	if len(collisions) > 0 {
		return "the {" + strings.Join(collisions, ",") + "} HTTP/2 SETTINGS parameter(s) can not be configured through both named and custom parameters"
	}
	if h2.GetMaxHeaderFieldSizeKb() != nil && common.GetMaxResponseHeadersKb() != nil &&
		h2.GetMaxHeaderFieldSizeKb().GetValue() > common.GetMaxResponseHeadersKb().GetValue() {
		return "max_header_field_size_kb must not exceed max_response_headers_kb"
	}
	return ""
}

// runtimeFlag: a feature flag as the static runtime layers leave it (the last layer that names
// it wins), def when none does.
func runtimeFlag(bs *bootstrapv3.Bootstrap, key string, def bool) bool {
	on := def
	for _, l := range bs.GetLayeredRuntime().GetLayers() {
		if v, ok := l.GetStaticLayer().GetFields()[key]; ok {
			on = v.GetBoolValue()
		}
	}
	return on
}

// runtimeInteger: a whole number the static runtime layers give key (Snapshot::getInteger).
func runtimeInteger(bs *bootstrapv3.Bootstrap, key string) (uint64, bool) {
	n, set := uint64(0), false
	for _, l := range bs.GetLayeredRuntime().GetLayers() {
		if v, ok := l.GetStaticLayer().GetFields()[key]; ok {
			if f := v.GetNumberValue(); v.GetKind() != nil && f >= 0 && f == math.Trunc(f) {
				n, set = uint64(f), true
			}
		}
	}
	return n, set
}

// runtimeKeySet: some static runtime layer names the key (a percentage Envoy may read as on).
func runtimeKeySet(bs *bootstrapv3.Bootstrap, key string) bool {
	for _, l := range bs.GetLayeredRuntime().GetLayers() {
		if _, ok := l.GetStaticLayer().GetFields()[key]; ok {
			return true
		}
	}
	return false
}

// bindConfigProblem is createUpstreamLocalAddressSelector (upstream_impl.cc:341-420, then
// default_local_address_selector_factory.cc:15-50), in ClusterInfoImpl's initialisers after the
// circuit breakers: the cluster's own bind config, else the bootstrap's.
func bindConfigProblem(c *clusterv3.Cluster, bs *bootstrapv3.Bootstrap) (msg, where string) {
	bind, who, where := c.GetUpstreamBindConfig(), "Cluster "+c.GetName(), ".upstream_bind_config"
	if bind == nil {
		bind, who, where = bs.GetClusterManager().GetUpstreamBindConfig(), "Bootstrap", ""
	}
	if bind == nil {
		return "", ""
	}
	extra, additional := bind.GetExtraSourceAddresses(), bind.GetAdditionalSourceAddresses()
	switch {
	case len(extra) > 0 && len(additional) > 0:
		return fmt.Sprintf("Can't specify both `extra_source_addresses` and `additional_source_addresses` in the %s's upstream binding config", who), where
	case bind.GetSourceAddress() == nil && (len(extra) > 0 || len(additional) > 0):
		return fmt.Sprintf("%s's upstream binding config has extra/additional source addresses but no source_address. Extra/additional addresses cannot be specified if source_address is not set.", who), where
	case bind.GetLocalAddressSelector() != nil || bind.GetSourceAddress() == nil:
		return "", "" // another selector judges its own addresses
	}
	addrs := []*corev3.SocketAddress{bind.GetSourceAddress()}
	for _, e := range extra {
		addrs = append(addrs, e.GetAddress())
	}
	addrs = append(addrs, additional...)
	for _, a := range addrs { // parseBindConfig resolves each
		if msg, _ := addressProblem(&corev3.Address{Address: &corev3.Address_SocketAddress{SocketAddress: a}}); msg != "" {
			return msg, where
		}
	}
	switch {
	case len(addrs) > 2:
		return fmt.Sprintf("%s's upstream binding config has more than one extra/additional source addresses. Only one extra/additional source can be supported in BindConfig's extra_source_addresses/additional_source_addresses field", who), where
	case len(addrs) == 2 && strings.Contains(addrs[0].GetAddress(), ":") == strings.Contains(addrs[1].GetAddress(), ":"):
		return fmt.Sprintf("%s's upstream binding config has two same IP version source addresses. Only two different IP version source addresses can be supported in BindConfig's source_address and extra_source_addresses/additional_source_addresses fields", who), where
	}
	return "", ""
}

package bootcheck

import (
	"strings"
	"testing"
)

// withADS: ADS configured, for discovery.
const withADS = `node: {id: a, cluster: b}
dynamic_resources:
  ads_config: {api_type: GRPC, transport_api_version: V3, grpc_services: [{envoy_grpc: {cluster_name: xds}}]}
`

// hcmWith is a bootstrap whose one listener's connection manager has the HTTP filters given
// (YAML list items at six spaces' indent), then the router; ADS is configured.
func hcmWith(filters string) string {
	filters = strings.ReplaceAll("    "+strings.TrimSuffix(filters, "\n"), "\n", "\n    ") + "\n"
	return withADS + `static_resources:
  clusters:
  - name: xds
    typed_extension_protocol_options:
      envoy.extensions.upstreams.http.v3.HttpProtocolOptions:
        "@type": type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions
        explicit_http_config: {http2_protocol_options: {}}
    load_assignment: {cluster_name: xds, endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: 127.0.0.1, port_value: 1}}}}]}]}
  listeners:
  - name: l
    address: {socket_address: {address: 0.0.0.0, port_value: 80}}
    filter_chains:
    - filters:
      - name: hcm
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
          stat_prefix: h
          route_config: {}
          http_filters:
` + filters + `          - name: envoy.filters.http.router
            typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router}
`
}

// listenerWith is a bootstrap with one listener on the address given, with the listener filters
// given (YAML list items at four spaces' indent); a TCP listener has a TCP proxy's filter chain, a
// UDP one (connection-less) none. ADS is configured.
func listenerWith(address, filters string) string {
	chains := "    filter_chains:\n    - filters:\n      - name: t\n        typed_config: {\"@type\": type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy, stat_prefix: t, cluster: xds}\n"
	if address == udpAddress {
		chains = ""
	}
	return withADS + "static_resources:\n  listeners:\n  - name: l\n    address: " + address + "\n    listener_filters:\n" + filters + chains +
		"  clusters:\n  - {name: xds, typed_extension_protocol_options: {envoy.extensions.upstreams.http.v3.HttpProtocolOptions: {\"@type\": type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions, explicit_http_config: {http2_protocol_options: {}}}}, load_assignment: {cluster_name: xds}}\n"
}

// routeWith is a bootstrap with one route to a static cluster, with the route action's field
// given, and the virtual host's.
func routeWith(action, vhost string) string {
	return `static_resources:
  clusters:
  - name: c
  listeners:
  - name: l
    address: {socket_address: {address: 0.0.0.0, port_value: 80}}
    filter_chains:
    - filters:
      - name: hcm
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
          stat_prefix: h
          route_config:
            virtual_hosts:
            - name: v
              domains: ["*"]
              ` + vhost + `
              routes:
              - match: {prefix: "/"}
                route: {cluster: c, ` + action + `}
          http_filters:
          - name: envoy.filters.http.router
            typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router}
`
}

const (
	tcpAddress = "{socket_address: {address: 0.0.0.0, port_value: 80}}"
	udpAddress = "{socket_address: {address: 0.0.0.0, port_value: 53, protocol: UDP}}"
	tlsCluster = "static_resources:\n  clusters:\n  - name: c\n    transport_socket:\n      name: envoy.transport_sockets.tls\n      typed_config: {\"@type\": type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.%s}\n"
)

// An extension is looked up among the factories of the category Envoy asks, by its type: what
// the stock build registers there is accepted, nothing else (envoy/registry/registry.h:302).
func TestExtensionRegistry(t *testing.T) {
	for _, tt := range []struct {
		name, config, want string // want: "" accepted, else the first problem's message
	}{
		{"match-delegate wraps a stock filter", hcmWith(`      - name: wrapped
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.common.matching.v3.ExtensionWithMatcher
          extension_config:
            name: cors
            typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.cors.v3.Cors}
`), ""},
		{"match-delegate wraps a type no HTTP factory takes", hcmWith(`      - name: wrapped
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.common.matching.v3.ExtensionWithMatcher
          extension_config:
            name: tp
            typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy, stat_prefix: t, cluster: c}
`), "Didn't find a registered implementation for 'tp' with type URL: 'envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy'"},
		{"an HTTP filter's per-route type names its factory too", hcmWith(`      - name: lua
        typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.lua.v3.LuaPerRoute}
`), ""},
		{"an upstream-only filter in the connection manager", hcmWith(`      - name: codec
        typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.upstream_codec.v3.UpstreamCodec}
`), "Didn't find a registered implementation for 'codec' with type URL: 'envoy.extensions.filters.http.upstream_codec.v3.UpstreamCodec'"},
		{"an optional filter Envoy lacks is skipped", hcmWith(`      - name: codec
        is_optional: true
        typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.upstream_codec.v3.UpstreamCodec}
`), ""},
		{"discovery: no default to apply without warming", hcmWith(`      - name: dyn
        config_discovery:
          config_source: {ads: {}, resource_api_version: V3}
          apply_default_config_without_warming: true
          type_urls: [type.googleapis.com/envoy.extensions.filters.http.cors.v3.Cors]
`), "Error: filter config dyn applied without warming but has no default config."},
		{"discovery: a required type no factory takes", hcmWith(`      - name: dyn
        config_discovery:
          config_source: {ads: {}, resource_api_version: V3}
          type_urls: [type.googleapis.com/envoy.extensions.filters.http.cors.v3.Cors, type.googleapis.com/envoy.extensions.filters.http.upstream_codec.v3.UpstreamCodec]
`), "Error: no factory found for a required type URL envoy.extensions.filters.http.upstream_codec.v3.UpstreamCodec."},
		{"discovery: a default config no factory takes", hcmWith(`      - name: dyn
        config_discovery:
          config_source: {ads: {}, resource_api_version: V3}
          type_urls: [type.googleapis.com/envoy.extensions.filters.http.cors.v3.Cors]
          default_config: {"@type": type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy, stat_prefix: t, cluster: c}
`), "Error: cannot find filter factory dyn for default filter configuration with type URL type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy."},
		{"discovery: a default config of a type not required", hcmWith(`      - name: dyn
        config_discovery:
          config_source: {ads: {}, resource_api_version: V3}
          type_urls: [type.googleapis.com/envoy.extensions.filters.http.cors.v3.Cors]
          default_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.buffer.v3.Buffer, max_request_bytes: 5}
`), "Error: filter config has type URL envoy.extensions.filters.http.buffer.v3.Buffer but expect envoy.extensions.filters.http.cors.v3.Cors."},
		{"discovery: a default config of the type required", hcmWith(`      - name: dyn
        config_discovery:
          config_source: {ads: {}, resource_api_version: V3}
          type_urls: [type.googleapis.com/envoy.extensions.filters.http.cors.v3.Cors]
          default_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.cors.v3.Cors}
`), ""},
		{"a cluster's socket is an upstream one", strings.ReplaceAll(tlsCluster, "%s", "DownstreamTlsContext"),
			"Didn't find a registered implementation for 'envoy.transport_sockets.tls' with type URL: 'envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext'"},
		{"an upstream TLS socket on a cluster", strings.ReplaceAll(tlsCluster, "%s", "UpstreamTlsContext"), ""},
		{"a TCP listener's filter", listenerWith(tcpAddress, "    - name: tls\n      typed_config: {\"@type\": type.googleapis.com/envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector}\n"), ""},
		{"a UDP listener's filters are UDP listener filters", listenerWith(udpAddress, "    - name: tls\n      typed_config: {\"@type\": type.googleapis.com/envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector}\n"),
			"Didn't find a registered implementation for 'tls' with type URL: 'envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector'"},
		{"a UDP listener filter on a TCP listener", listenerWith(tcpAddress, "    - name: dns\n      typed_config: {\"@type\": type.googleapis.com/envoy.extensions.filters.udp.dns_filter.v3.DnsFilterConfig, stat_prefix: d}\n"),
			"Didn't find a registered implementation for 'dns' with type URL: 'envoy.extensions.filters.udp.dns_filter.v3.DnsFilterConfig'"},
		{"a UDP listener filter takes no discovery", listenerWith(udpAddress, "    - name: dyn\n      config_discovery: {config_source: {ads: {}}, type_urls: [x]}\n"),
			"UDP listener filter: dyn is configured with unsupported dynamic configuration"},
		{"a TCP listener filter's discovery names a type no factory takes", listenerWith(tcpAddress, "    - name: dyn\n      config_discovery: {config_source: {ads: {}}, type_urls: [type.googleapis.com/envoy.extensions.filters.http.cors.v3.Cors]}\n"),
			"Error: no listener factory found for a required type URL envoy.extensions.filters.http.cors.v3.Cors."},
		{"the bootstrap's tracer", "tracing:\n  http:\n    name: envoy.tracers.lightstep\n    typed_config: {\"@type\": type.googleapis.com/envoy.config.trace.v3.LightstepConfig, collector_cluster: c}\n",
			"Didn't find a registered implementation for 'envoy.tracers.lightstep' with type URL: 'envoy.config.trace.v3.LightstepConfig'"},
		{"an access log's extension filter", "admin:\n  access_log:\n  - name: f\n    filter: {extension_filter: {name: x, typed_config: {\"@type\": type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog, path: /dev/null}}}\n    typed_config: {\"@type\": type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog, path: /dev/null}\n",
			"Didn't find a registered implementation for 'x' with type URL: 'envoy.extensions.access_loggers.file.v3.FileAccessLog'"},
		{"a stock retry host predicate", routeWith("retry_policy: {retry_host_predicate: [{name: p, typed_config: {\"@type\": type.googleapis.com/envoy.extensions.retry.host.previous_hosts.v3.PreviousHostsPredicate}}]}", ""), ""},
		{"a virtual host's retry policy no route uses is not built", routeWith("retry_policy: {}", "retry_policy: {retry_host_predicate: [{name: p, typed_config: {\"@type\": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router}}]}"), ""},
		{"a virtual host's retry policy a route uses", routeWith("timeout: 1s", "retry_policy: {retry_host_predicate: [{name: p, typed_config: {\"@type\": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router}}]}"),
			"Didn't find a registered implementation for 'p' with type URL: 'envoy.extensions.filters.http.router.v3.Router'"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := Validate([]byte(tt.config))
			switch {
			case tt.want == "" && !r.OK():
				t.Errorf("refused: %s", r.Report("x.yaml"))
			case tt.want != "" && (r.OK() || r.Problems[0].Message != tt.want):
				t.Errorf("got %s\nwant %s", r.Report("x.yaml"), tt.want)
			}
		})
	}
}

// The generated registry holds what the generator read: every category the lookups ask, and the
// facts it adds by hand (the match-delegate filter, a per-route type, the split socket types).
func TestRegistryIsGenerated(t *testing.T) {
	for _, c := range []string{catNetworkFilter, catListenerFilter, catUDPListenerFilter, catHTTPFilter, catUpstreamHTTPFilter,
		catUpstreamSocket, catDownstreamSocket, catAccessLogger, catStatsSink, catLbPolicy} {
		if len(registry()[c]) == 0 {
			t.Errorf("no stock factory in %s", c)
		}
	}
	for _, c := range []struct{ category, typ, want string }{
		{catUpstreamHTTPFilter, "envoy.extensions.common.matching.v3.ExtensionWithMatcher", "envoy.filters.http.match_delegate"},
		{catHTTPFilter, "envoy.extensions.filters.http.dynamic_modules.v3.DynamicModuleFilterPerRoute", "envoy.filters.http.dynamic_modules"},
		{catUpstreamSocket, "envoy.extensions.transport_sockets.quic.v3.QuicUpstreamTransport", "envoy.transport_sockets.quic"},
		{catDownstreamSocket, "envoy.extensions.transport_sockets.quic.v3.QuicUpstreamTransport", ""},
	} {
		if got := factoryName(c.category, c.typ); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.category, c.typ, got, c.want)
		}
	}
}

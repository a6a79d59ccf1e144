package bootcheck

import (
	"strings"
	"testing"
)

// A source over ADS with no ads_config: validate mode refuses it only where a subscription starts
// (a STATIC cluster's SDS); served, everywhere, a listener's last.
func TestADSSourceWithoutADS(t *testing.T) {
	ref := reference(t)
	i, j := strings.Index(ref, "  ads_config:"), strings.Index(ref, "  cds_config:")
	if i < 0 || j < i {
		t.Fatal("the reference has no ads_config before cds_config")
	}
	withoutADS := ref[:i] + ref[j:]
	sds := func(typ string) string {
		return "node: {id: a, cluster: b}\nstatic_resources:\n  clusters:\n  - name: c\n    type: " + typ + `
    load_assignment: {cluster_name: c, endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: localhost, port_value: 1}}}}]}]}
    transport_socket:
      name: envoy.transport_sockets.tls
      typed_config:
        "@type": type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext
        common_tls_context:
          tls_certificate_sds_secret_configs:
          - {name: s, sds_config: {ads: {}}}
`
	}
	rds := `node: {id: a, cluster: b}
static_resources:
  listeners:
  - address: {socket_address: {address: 0.0.0.0, port_value: 1}}
    filter_chains:
    - filters:
      - name: hcm
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
          stat_prefix: s
          rds: {route_config_name: r, config_source: {ads: {}}}
          http_filters: [{name: envoy.filters.http.router, typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router}}]
`
	eds := "node: {id: a, cluster: b}\nstatic_resources:\n  clusters:\n  - {name: c, type: EDS, eds_cluster_config: {eds_config: {ads: {}}}}\n"
	for _, c := range []struct {
		name, text      string
		validate, serve string // the path refused, "" when accepted
	}{
		{"CDS and LDS (never started in validate mode)", withoutADS, "", "dynamic_resources.cds_config.ads"},
		{"a listener's RDS (its init target never runs)", rds, "", "static_resources.listeners[0].filter_chains[0].filters[0].typed_config.rds.config_source.ads"},
		{"an EDS cluster (secondary: never initialized)", eds, "", "static_resources.clusters[0].eds_cluster_config.eds_config.ads"},
		{"a STRICT_DNS cluster's SDS (its DNS is never answered)", sds("STRICT_DNS"), "", "static_resources.clusters[0].transport_socket.typed_config.common_tls_context.tls_certificate_sds_secret_configs[0].sds_config.ads"},
		{"a STATIC cluster's SDS (started as the cluster is added)", strings.Replace(sds("STATIC"), "localhost", "127.0.0.1", 1),
			"static_resources.clusters[0].transport_socket.typed_config.common_tls_context.tls_certificate_sds_secret_configs[0].sds_config.ads",
			"static_resources.clusters[0].transport_socket.typed_config.common_tls_context.tls_certificate_sds_secret_configs[0].sds_config.ads"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, mode := range []struct {
				serve bool
				want  string
			}{{false, c.validate}, {true, c.serve}} {
				r := ValidateWith([]byte(c.text), Options{Serve: mode.serve})
				switch {
				case mode.want == "" && !r.OK():
					t.Errorf("serve=%v: refused: %v", mode.serve, r.Problems)
				case mode.want != "" && (r.OK() || r.Problems[0].Message != noADS || r.Problems[0].Path != mode.want):
					t.Errorf("serve=%v: want %s at %s, got %+v", mode.serve, noADS, mode.want, r.Problems)
				}
			}
		})
	}
}

// Served, a listener's source over ADS is refused after everything else a listener is refused
// for: the server's init manager starts it once the listeners are built.
func TestServedListenerADSComesLast(t *testing.T) {
	text := `node: {id: a, cluster: b}
static_resources:
  listeners:
  - address: {socket_address: {address: 0.0.0.0, port_value: 1}}
    filter_chains:
    - filters:
      - name: hcm
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
          stat_prefix: s
          rds: {route_config_name: r, config_source: {ads: {}}}
          http_filters: [{name: envoy.filters.http.router, typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router}}]
  - address: {socket_address: {address: 0.0.0.0, port_value: 1}}
    filter_chains: [{filters: [{name: t, typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy, stat_prefix: t, cluster: nowhere}}]}]
`
	r := ValidateWith([]byte(text), Options{Serve: true})
	if len(r.Problems) < 2 || r.Problems[0].Message == noADS || r.Problems[len(r.Problems)-1].Message != noADS {
		t.Fatalf("%+v", r.Problems)
	}
}

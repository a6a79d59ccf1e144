package bootcheck

import (
	"net/netip"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	spav3 "github.com/envoyproxy/go-control-plane/envoy/extensions/quic/server_preferred_address/v3"
	quicv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/quic/v3"
)

// quicOptionsProblem: a QUIC listener's factory (ActiveQuicListenerFactory, source/common/quic/
// active_quic_listener.cc:376-386) builds its server preferred address config. The fixed one
// (source/extensions/quic/server_preferred_address/fixed_server_preferred_address_config.cc)
// parses each family's address; its refusals start with the config's DebugString (elided).
func quicOptionsProblem(l *listenerv3.Listener, path string) (msg, where string) {
	if l.GetAddress().GetSocketAddress().GetProtocol() != corev3.SocketAddress_UDP {
		return "", ""
	}
	ext := l.GetUdpListenerConfig().GetQuicOptions().GetServerPreferredAddressConfig()
	cfg := &spav3.FixedServerPreferredAddressConfig{}
	if ext == nil || ext.GetTypedConfig().UnmarshalTo(cfg) != nil {
		return "", ""
	}
	at := path + ".udp_listener_config.quic_options.server_preferred_address_config.typed_config"
	for _, fam := range []struct {
		name, addr string
		family     *spav3.FixedServerPreferredAddressConfig_AddressFamilyConfig
		field      string
	}{{"v4", cfg.GetIpv4Address(), cfg.GetIpv4Config(), ".ipv4"}, {"v6", cfg.GetIpv6Address(), cfg.GetIpv6Config(), ".ipv6"}} {
		switch {
		case fam.family != nil && fam.family.GetDnatAddress() != nil && fam.family.GetAddress() == nil:
			return elided + ": Proto constraint validation failed ('dnat_address' but not 'address' is set in server preferred address for " + fam.name + ")", at + fam.field + "_config"
		case fam.family == nil && fam.addr != "":
			// QuicIpAddress::FromString: either family's text form.
			if _, err := netip.ParseAddr(fam.addr); err != nil {
				return elided + ": Proto constraint validation failed (bad " + fam.name + " server preferred address: " + fam.addr + ")", at + fam.field + "_address"
			}
		}
	}
	return "", ""
}

// quicTransportProblem is QuicServerTransportSocketConfigFactory::createTransportSocketFactory
// (source/common/quic/quic_server_transport_socket_factory.cc:15-46) once the server context
// config is made (tls.go judges that first, then calls this): no client certificates, and early
// data needs resumption.
func quicTransportProblem(q *quicv3.QuicDownstreamTransport, path string) (msg, where string) {
	if q.GetDownstreamTlsContext().GetRequireClientCertificate().GetValue() {
		return "TLS Client Authentication is not supported over QUIC", path + ".downstream_tls_context.require_client_certificate"
	}
	early := q.GetEnableEarlyData() == nil || q.GetEnableEarlyData().GetValue()
	if resumption := q.GetEnableResumption() == nil || q.GetEnableResumption().GetValue(); !resumption && early {
		return "QUIC early data is enabled but resumption is disabled. Early data requires resumption.", path + ".enable_resumption"
	}
	return "", ""
}

package bootcheck

import (
	"fmt"
	"net/netip"

	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	dnsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/udp/dns_filter/v3"
	udpv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/udp/udp_proxy/v3"
)

// udpListenerFiltersProblem is createListenerFilterFactories for a UDP listener that is not QUIC
// (listener_impl.cc:810-816): each UDP listener filter's factory builds its config in order.
func udpListenerFiltersProblem(l *listenerv3.Listener, path string) (msg, where string) {
	for i, f := range l.GetListenerFilters() {
		at := fmt.Sprintf("%s.listener_filters[%d].typed_config", path, i)
		inner, err := f.GetTypedConfig().UnmarshalNew()
		if err != nil {
			continue
		}
		switch v := inner.(type) {
		case *udpv3.UdpProxyConfig:
			if msg, field := udpProxyProblem(v); msg != "" {
				return msg, at + field
			}
		case *dnsv3.DnsFilterConfig:
			if msg, field := dnsFilterProblem(v); msg != "" {
				return msg, at + field
			}
		}
	}
	return "", ""
}

// udpProxyProblem is UdpProxyFilterConfigImpl's constructor (udp/udp_proxy/config.cc:100-150):
// per-packet load balancing excludes a tunnel and session filters; then (after the access logs)
// the tunnel's config (TunnelingConfigImpl, :26-94: the POST path, the proxy port, the back-off;
// its two hosts are formats, not judged here). Binding the original source IP needs the host's
// capabilities: not judged.
func udpProxyProblem(c *udpv3.UdpProxyConfig) (msg, field string) {
	switch {
	case c.GetUsePerPacketLoadBalancing() && c.GetTunnelingConfig() != nil:
		return "Only one of use_per_packet_load_balancing or tunneling_config can be used.", ".use_per_packet_load_balancing"
	case c.GetUsePerPacketLoadBalancing() && len(c.GetSessionFilters()) > 0:
		return "Only one of use_per_packet_load_balancing or session_filters can be used.", ".use_per_packet_load_balancing"
	}
	t := c.GetTunnelingConfig()
	if t == nil {
		return "", ""
	}
	switch post := t.GetPostPath(); {
	case post != "" && !t.GetUsePost():
		return "Can't set a post path when POST method isn't used", ".tunneling_config.post_path"
	case post != "" && post[0] != '/':
		return "Path must start with '/'", ".tunneling_config.post_path"
	}
	if p := t.GetProxyPort(); p != nil && (p.GetValue() == 0 || p.GetValue() > 65535) {
		return "Port value not in range", ".tunneling_config.proxy_port"
	}
	if b := t.GetRetryOptions().GetBackoffOptions(); b != nil {
		base := b.GetBaseInterval().AsDuration().Milliseconds()
		max := base * 10
		if b.GetMaxInterval() != nil {
			max = b.GetMaxInterval().AsDuration().Milliseconds()
		}
		if max < base {
			return "max_backoff_interval must be greater or equal to base_backoff_interval", ".tunneling_config.retry_options.backoff_options"
		}
	}
	return "", ""
}

// dnsFilterProblem: an inline DNS table's addresses are IPs (DnsFilterEnvoyConfig, udp/
// dns_filter/dns_filter.cc:44-70; parseInternetAddressNoThrow with no port). Envoy starts each
// list at a random entry, so with two bad addresses either may be named; here the first.
func dnsFilterProblem(c *dnsv3.DnsFilterConfig) (msg, field string) {
	for i, d := range c.GetServerConfig().GetInlineDnsTable().GetVirtualDomains() {
		for j, a := range d.GetEndpoint().GetAddressList().GetAddress() {
			if _, err := netip.ParseAddr(a); err != nil {
				return "malformed IP address: " + a, fmt.Sprintf(".server_config.inline_dns_table.virtual_domains[%d].endpoint.address_list.address[%d]", i, j)
			}
		}
	}
	return "", ""
}

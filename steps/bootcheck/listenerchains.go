package bootcheck

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	"google.golang.org/protobuf/proto"
)

// filterChainsProblem is ListenerImpl::validateFilterChains (listener_impl.cc:840-868): a TCP or
// QUIC listener needs a filter chain, a QUIC one a transport socket in each, and a
// connection-less UDP listener none.
func filterChainsProblem(l *listenerv3.Listener, quic bool) string {
	if l.GetAddress() == nil {
		return ""
	}
	udp := l.GetAddress().GetSocketAddress().GetProtocol() == corev3.SocketAddress_UDP
	chains := l.GetFilterChains()
	hasChain := len(chains) > 0 || l.GetDefaultFilterChain() != nil
	where := addressString(l.GetAddress())
	switch {
	case !hasChain && (!udp || quic):
		return fmt.Sprintf("error adding listener '%s': no filter chains specified", where)
	case udp && quic:
		for _, fc := range append(slices.Clone(chains), l.GetDefaultFilterChain()) {
			if fc != nil && fc.GetTransportSocket() == nil {
				return fmt.Sprintf("error adding listener '%s': no transport socket specified for connection oriented UDP listener", where)
			}
		}
	case udp && hasChain:
		return fmt.Sprintf("error adding listener '%s': %d filter chain(s) specified for connection-less UDP listener.", where, len(chains))
	}
	return ""
}

// filterChainsBuildProblem is FilterChainManagerImpl::addFilterChains (filter_chain_manager_impl.cc:
// 125-160): per chain, its match checked for duplicates, the chain built, its match indexed; then
// the default chain is built. Problems inside a chain's filters that other checks find are put
// in that order by listenerOrder.
func filterChainsBuildProblem(l *listenerv3.Listener, b builtListener, path string, quic bool, static map[string]*clusterv3.Cluster, add addFunc) (msg, where string) {
	matcher := l.GetFilterChainMatcher() != nil
	prefix := fmt.Sprintf("error adding listener '%s': ", b.where)
	seen := map[string]bool{} // filter chain names, with a matcher
	leaves := map[string]bool{}
	chains := l.GetFilterChains()
	for j, fc := range chains {
		fcPath := fmt.Sprintf("%s.filter_chains[%d]", path, j)
		// verifyNoDuplicateMatchers (:177-204): skipped for equal matches under a matcher (:187).
		m := fc.GetFilterChainMatch()
		if m.GetAddressSuffix() != "" || m.GetSuffixLen() != nil {
			return fmt.Sprintf("%sfilter chain '%s' contains unimplemented fields", prefix, fc.GetName()), fcPath
		}
		if !matcher {
			for _, earlier := range chains[:j] {
				if proto.Equal(earlier.GetFilterChainMatch(), m) {
					return fmt.Sprintf("%sfilter chain '%s' has the same matching rules defined as '%s'. duplicate matcher is: %s",
						prefix, fc.GetName(), earlier.GetName(), matcherJSON(m)), fcPath
				}
			}
		}
		if msg, where := chainBuildProblem(fc, fcPath, quic, static, add); msg != "" {
			return msg, where
		}
		// setupFilterChainMatcher (:207-290).
		if matcher {
			switch {
			case fc.GetName() == "":
				return prefix + `"name" field is required when using a listener matcher`, fcPath + ".name"
			case seen[fc.GetName()]:
				return fmt.Sprintf(`%s"name" field is duplicated with value '%s'`, prefix, fc.GetName()), fcPath + ".name"
			}
			seen[fc.GetName()] = true
			continue
		}
		if msg, where := matchIndexProblem(m, prefix, fcPath+".filter_chain_match", leaves); msg != "" {
			return msg, where
		}
	}
	if dc := l.GetDefaultFilterChain(); dc != nil {
		return chainBuildProblem(dc, path+".default_filter_chain", quic, static, add)
	}
	return "", ""
}

const quicDownstreamTransport = "envoy.extensions.transport_sockets.quic.v3.QuicDownstreamTransport"

// chainBuildProblem is ListenerFilterChainFactoryBuilder::buildFilterChainInternal
// (filter_chain_manager_impl.cc:874-932): the transport socket, then the network filters.
func chainBuildProblem(fc *listenerv3.FilterChain, path string, quic bool, static map[string]*clusterv3.Cluster, add addFunc) (msg, where string) {
	ts := fc.GetTransportSocket()
	if quic {
		// :890-908: the socket's DebugString in the message is elided.
		if typ := factoryType(ts.GetTypedConfig()); takes(catDownstreamSocket, typ) && typ != quicDownstreamTransport {
			return fmt.Sprintf("error building filter chain for quic listener: wrong transport socket config specified for quic transport socket: %s. \nUse QuicDownstreamTransport instead.", elided), path + ".transport_socket"
		}
		filters := fc.GetFilters()
		if len(filters) == 0 || filters[len(filters)-1].GetTypedConfig().GetTypeUrl() != "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager" {
			return "error building network filter chain for quic listener: requires http_connection_manager filter to be last in the chain.", path + ".filters"
		}
	}
	return networkFiltersProblem(fc.GetFilters(), path, quic, static, add)
}

// matchIndexProblem is setupFilterChainMatcher without a matcher (:231-288): the CIDR ranges
// parsed (the last malformed one of a list is the one reported), partial wildcards refused, then
// each combination of the match's values indexed, refused when a chain already holds it
// (addFilterChainForSourcePorts, :497-509).
func matchIndexProblem(m *listenerv3.FilterChainMatch, prefix, path string, leaves map[string]bool) (msg, where string) {
	var cidrs [3][]string
	for i, list := range [][]*corev3.CidrRange{m.GetPrefixRanges(), m.GetSourcePrefixRanges(), m.GetDirectSourcePrefixRanges()} {
		bad := ""
		for _, r := range list {
			ip, err := netip.ParseAddr(r.GetAddressPrefix())
			if err != nil {
				bad = r.GetAddressPrefix()
				continue
			}
			bits := int(min(r.GetPrefixLen().GetValue(), uint32(ip.BitLen())))
			cidrs[i] = append(cidrs[i], netip.PrefixFrom(ip, bits).Masked().String())
		}
		if bad != "" {
			field := [...]string{".prefix_ranges", ".source_prefix_ranges", ".direct_source_prefix_ranges"}[i]
			return "malformed IP address: " + bad, path + field
		}
	}
	var names []string
	for _, n := range m.GetServerNames() {
		if strings.Contains(n, "*") && !strings.HasPrefix(n, "*.") {
			return prefix + `partial wildcards are not supported in "server_names"`, path + ".server_names"
		}
		n = strings.ToLower(n)
		if strings.HasPrefix(n, "*.") {
			n = n[1:]
		}
		names = append(names, n)
	}
	orAll := func(list []string) []string {
		if len(list) == 0 {
			return []string{""}
		}
		return list
	}
	var ports []string
	for _, p := range m.GetSourcePorts() {
		ports = append(ports, fmt.Sprint(p))
	}
	leaf := []string{fmt.Sprint(m.GetDestinationPort().GetValue())}
	for _, dim := range [][]string{orAll(cidrs[0]), orAll(names), {m.GetTransportProtocol()}, orAll(m.GetApplicationProtocols()),
		orAll(cidrs[2]), {m.GetSourceType().String()}, orAll(cidrs[1]), orAll(ports)} {
		var next []string
		for _, l := range leaf {
			for _, v := range dim {
				next = append(next, l+"\x00"+v)
			}
		}
		leaf = next
	}
	for _, l := range leaf {
		if leaves[l] {
			return prefix + "multiple filter chains with overlapping matching rules are defined", path
		}
		leaves[l] = true
	}
	return "", ""
}

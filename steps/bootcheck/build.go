package bootcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
)

// Terminal filters, by the type their typed_config carries, with the name their factory registers
// (what Envoy's message calls their type): each must be the last of its chain.
var (
	terminalNetworkFilters = map[string]string{
		"envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager": "envoy.filters.network.http_connection_manager",
		"envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy":                            "envoy.filters.network.tcp_proxy",
		"envoy.extensions.filters.network.direct_response.v3.Config":                        "envoy.filters.network.direct_response",
		"envoy.extensions.filters.network.echo.v3.Echo":                                     "envoy.filters.network.echo",
		"envoy.extensions.filters.network.redis_proxy.v3.RedisProxy":                        "envoy.filters.network.redis_proxy",
		"envoy.extensions.filters.network.thrift_proxy.v3.ThriftProxy":                      "envoy.filters.network.thrift_proxy",
	}
	terminalHTTPFilters = map[string]string{
		"envoy.extensions.filters.http.router.v3.Router": "envoy.filters.http.router",
	}
)

// listenerChecks: what building the static listeners refuses: an address that is not an IP, a
// terminal filter that is not last (Config::Utility::validateTerminalFilters), and a static route
// table naming a cluster the cluster manager does not have (RouteEntryImplBase::validateClusters).
func listenerChecks(bs *bootstrapv3.Bootstrap, static map[string]*clusterv3.Cluster, add addFunc) {
	bound := map[string]string{} // address → the listener that holds it
	for i, l := range bs.GetStaticResources().GetListeners() {
		path := fmt.Sprintf("static_resources.listeners[%d]", i)
		// ListenerManagerImpl::addOrUpdateListener (source/common/listener_manager/
		// listener_manager_impl.cc): an address, unless it is an internal listener.
		if l.GetAddress() == nil && l.GetInternalListener() == nil && l.GetApiListener() == nil {
			add(stageListeners, path, fmt.Sprintf("error adding listener named '%s': address is necessary", l.GetName()))
			continue
		}
		checkIP(stageListeners, l.GetAddress(), path+".address", add)
		quic := l.GetUdpListenerConfig().GetQuicOptions() != nil
		if msg := filterChainsProblem(l, quic); msg != "" {
			add(stageListeners, path, msg)
			continue
		}
		chains := l.GetFilterChains()
		for j, fc := range chains {
			fcPath := fmt.Sprintf("%s.filter_chains[%d]", path, j)
			filterChainChecks(fc, fcPath, quic, static, add)
			for _, earlier := range chains[:j] {
				if proto.Equal(earlier.GetFilterChainMatch(), fc.GetFilterChainMatch()) {
					add(stageListeners, fcPath, fmt.Sprintf("filter chain '%s' has the same matching rules defined as '%s'. duplicate matcher is: %s",
						fc.GetName(), earlier.GetName(), matcherJSON(fc.GetFilterChainMatch())))
					break
				}
			}
		}
		if dc := l.GetDefaultFilterChain(); dc != nil {
			filterChainChecks(dc, path+".default_filter_chain", quic, static, add)
		}
		duplicateAddressCheck(l, path, bound, add) // once the listener is built
	}
}

func filterChainChecks(fc *listenerv3.FilterChain, path string, quic bool, static map[string]*clusterv3.Cluster, add addFunc) {
	filters := fc.GetFilters()
	for k, f := range filters {
		fpath := fmt.Sprintf("%s.filters[%d]", path, k)
		typ := typeName(f.GetTypedConfig())
		if factory, terminal := terminalNetworkFilters[typ]; terminal && k < len(filters)-1 {
			add(stageListeners, fpath, fmt.Sprintf("Error: terminal filter named %s of type %s must be the last filter in a network filter chain.", f.GetName(), factory))
		}
		hcm := &hcmv3.HttpConnectionManager{}
		if typ != string(hcm.ProtoReflect().Descriptor().FullName()) || f.GetTypedConfig().UnmarshalTo(hcm) != nil {
			continue
		}
		hcmChecks(hcm, fpath+".typed_config", quic, static, add)
	}
}

// typeName is the full name of the message an Any carries, "" when there is none.
func typeName(a *anypb.Any) string {
	if a == nil {
		return ""
	}
	name := a.GetTypeUrl()
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '/' {
			return name[i+1:]
		}
	}
	return name
}

// matcherJSON is a filter chain match as Envoy prints it in that message: compact JSON with the
// proto field names.
func matcherJSON(m *listenerv3.FilterChainMatch) string {
	raw, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(m)
	if err != nil {
		return "{}"
	}
	var compact bytes.Buffer
	if json.Compact(&compact, raw) != nil {
		return string(raw)
	}
	return compact.String()
}

// duplicateAddressCheck: a listener binding the address another listener of another name holds
// is refused once it is built (ListenerManagerImpl::setNewOrDrainingSocketFactory); one of the
// same name replaces the first.
func duplicateAddressCheck(l *listenerv3.Listener, path string, bound map[string]string, add addFunc) {
	sa := l.GetAddress().GetSocketAddress()
	if sa == nil || (l.GetBindToPort() != nil && !l.GetBindToPort().GetValue()) {
		return
	}
	addr := addressString(l.GetAddress())
	key := sa.GetProtocol().String() + " " + addr
	if holder, taken := bound[key]; taken && holder != l.GetName() {
		add(stageListeners, path+".address", fmt.Sprintf("error adding listener: '%s' has duplicate address '%s' as existing listener, to check if the listener has duplicated addresses with other listeners or 'enable_reuse_port' is set to 'false' for the listener", l.GetName(), addr))
		return
	}
	bound[key] = l.GetName()
}

// addressString is an address as Envoy prints it (Address::Instance::asString): ip:port, [ipv6]:port,
// or a pipe's path.
func addressString(a *corev3.Address) string {
	if p := a.GetPipe(); p != nil {
		return p.GetPath()
	}
	sa := a.GetSocketAddress()
	if strings.Contains(sa.GetAddress(), ":") {
		return fmt.Sprintf("[%s]:%d", sa.GetAddress(), sa.GetPortValue())
	}
	return fmt.Sprintf("%s:%d", sa.GetAddress(), sa.GetPortValue())
}

// filterChainsProblem is ListenerImpl::validateFilterChains: a TCP or QUIC listener needs a filter
// chain, a QUIC one a transport socket in each, and a connection-less UDP listener none.
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

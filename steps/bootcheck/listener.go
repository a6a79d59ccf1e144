package bootcheck

import (
	"fmt"
	"net/netip"
	"strings"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	metricsv3 "github.com/envoyproxy/go-control-plane/envoy/config/metrics/v3"
)

// listenerChecks: what MainImpl::initialize refuses as it adds each static listener
// (source/server/configuration_impl.cc:149-154 → ListenerManagerImpl::addOrUpdateListener →
// ListenerImpl's constructor, source/common/listener_manager/listener_impl.cc). Validate mode
// makes no socket (ValidationListenerComponentFactory), so nothing is bound. Each listener's
// checks run in the constructor's order and stop at its first problem; the problems other checks
// find inside a listener are put in that order too, and those of a listener Envoy never builds
// dropped (listenerOrder). It returns the listeners Envoy never builds.
func listenerChecks(bs *bootstrapv3.Bootstrap, static map[string]*clusterv3.Cluster, add addFunc) listenerOrder {
	order := listenerOrder{phase: map[string]int{}}
	names := map[string]bool{}
	var built []builtListener // what the listener manager holds, for the duplicate address check
	for i, l := range bs.GetStaticResources().GetListeners() {
		path := fmt.Sprintf("static_resources.listeners[%d]", i)
		if msg, where := addListenerProblem(l, path); msg != "" {
			add(stageListeners, where, msg)
			continue
		}
		// A listener named like one already added: blockLdsUpdate is true for every listener not
		// added via the API, so it is never built (listener_impl.h:252-256,
		// listener_manager_impl.cc:620-627). An unnamed one gets a random UUID (:521-525).
		if l.GetName() != "" && names[l.GetName()] {
			order.skipped = append(order.skipped, i)
			continue
		}
		names[l.GetName()] = true
		b := newBuiltListener(l)
		if msg, where := listenerProblem(l, b, path, internalListenerExtension(bs), static, add); msg != "" {
			if where == path { // validateFilterChains: the listener as a whole
				order.phase[where] = listenerPhases["filter_chains"]
			}
			add(stageListeners, where, msg)
			continue
		}
		// Once built, its socket factory: ListenerManagerImpl::setNewOrDrainingSocketFactory
		// (listener_manager_impl.cc:1204-1215), then the connection balancer (listener_impl.cc:
		// 925-936, from addSocketFactory).
		for _, other := range built {
			if other.duplicates(b) {
				order.phase[path+".address"] = listenerPhases[""]
				add(stageListeners, path+".address", fmt.Sprintf("error adding listener: '%s' has duplicate address '%s' as existing listener, to check if the listener has duplicated addresses with other listeners or 'enable_reuse_port' is set to 'false' for the listener", l.GetName(), b.where))
				break
			}
		}
		if ext := l.GetConnectionBalanceConfig().GetExtendBalance(); ext != nil && b.stream {
			// The envoy.network.connection_balance category is empty in the stock build.
			add(stageListeners, path, fmt.Sprintf("Didn't find a registered implementation for type: '%s'", factoryType(ext.GetTypedConfig())))
		}
		built = append(built, b)
	}
	return order
}

// addListenerProblem is ListenerManagerImpl::addOrUpdateListener before it builds anything
// (listener_manager_impl.cc:526-557). The stock envoy binary does not link the API listener
// extension (source/extensions/api_listeners/default_api_listener is in neither source/exe/BUILD
// nor extensions_build_config.bzl), so a bootstrap api_listener is always refused.
func addListenerProblem(l *listenerv3.Listener, path string) (msg, where string) {
	name := l.GetName()
	switch {
	case l.GetApiListener() != nil && l.GetInternalListener() != nil:
		return fmt.Sprintf("error adding listener named '%s': api_listener and internal_listener cannot be both set", name), path + ".api_listener"
	case l.GetApiListener() != nil:
		return fmt.Sprintf("error adding listener named '%s': missing the API listener extension", name), path + ".api_listener"
	case l.GetInternalListener() == nil && l.GetAddress() == nil:
		return fmt.Sprintf("error adding listener named '%s': address is necessary", name), path + ".name"
	}
	return "", ""
}

// builtListener is what ListenerImpl holds of its addresses.
type builtListener struct {
	stream    bool     // socket_type_: Stream, or Datagram (UDP)
	bind      bool     // bind_to_port
	addresses []string // asString of each, the first the main one
	ports     []uint32 // each IP address's port; 0 for others
	ip        []bool
	where     string // the addresses joined by ',' as Envoy's messages print them
}

func newBuiltListener(l *listenerv3.Listener) builtListener {
	b := builtListener{stream: true, bind: l.GetBindToPort() == nil || l.GetBindToPort().GetValue()}
	if l.GetInternalListener() != nil { // an EnvoyInternalInstance named for the listener (listener_impl.cc:402-405)
		b.addresses, b.ports, b.ip = []string{"envoy://" + l.GetName() + "/"}, []uint32{0}, []bool{false}
	} else {
		b.stream = l.GetAddress().GetSocketAddress().GetProtocol() != corev3.SocketAddress_UDP
		for _, a := range append([]*corev3.Address{l.GetAddress()}, additionalAddresses(l)...) {
			b.addresses = append(b.addresses, addressString(a))
			b.ports = append(b.ports, a.GetSocketAddress().GetPortValue())
			b.ip = append(b.ip, a.GetSocketAddress() != nil)
		}
	}
	b.where = strings.Join(b.addresses, ",")
	return b
}

func additionalAddresses(l *listenerv3.Listener) []*corev3.Address {
	var out []*corev3.Address
	for _, a := range l.GetAdditionalAddresses() {
		out = append(out, a.GetAddress())
	}
	return out
}

// duplicates is ListenerImpl::hasDuplicatedAddress called on the existing listener e with the new
// one n (listener_impl.cc:1284-1306): same socket type, and one of n's addresses equal to one of
// e's — a port-0 IP address counts only when e does not bind.
func (e builtListener) duplicates(n builtListener) bool {
	if e.stream != n.stream {
		return false
	}
	for i, addr := range n.addresses {
		if n.ip[i] && n.ports[i] == 0 && e.bind {
			continue
		}
		for _, mine := range e.addresses {
			if mine == addr {
				return true
			}
		}
	}
	return false
}

// listenerProblem is ListenerImpl::create and its constructor up to the filter chains, then the
// chains, then buildInternalListener (listener_impl.cc:313-470).
func listenerProblem(l *listenerv3.Listener, b builtListener, path string, internalExt bool, static map[string]*clusterv3.Cluster, add addFunc) (msg, where string) {
	// generateListenerStatsScope (listener_impl.cc:270-290): a stats matcher in the metadata must
	// unpack (the runtime guard strict_stats_matcher_unpacked is on); the status ends with the
	// Any's DebugString (elided).
	if a, ok := l.GetMetadata().GetTypedFilterMetadata()["envoy.stats_matcher"]; ok && typeName(a) != string((&metricsv3.StatsMatcher{}).ProtoReflect().Descriptor().FullName()) {
		return fmt.Sprintf("Failed to unpack stats matcher for listener %s: Unable to unpack as envoy.config.metrics.v3.StatsMatcher: %s", l.GetName(), elided),
			path + ".metadata.typed_filter_metadata"
	}
	if l.GetInternalListener() == nil {
		if msg, where := addressesProblem(l, b, path); msg != "" {
			return msg, where
		}
	}
	// validateConfig (listener_impl.cc:583-600); whether the kernel has MPTCP is not judged.
	if l.GetEnableMptcp() {
		if !b.stream {
			return fmt.Sprintf("listener %s: enable_mptcp can only be used with TCP listeners", l.GetName()), path + ".enable_mptcp"
		}
		for _, ip := range b.ip {
			if !ip {
				return fmt.Sprintf("listener %s: enable_mptcp can only be used with IP addresses", l.GetName()), path + ".enable_mptcp"
			}
		}
	}
	// buildUdpListenerFactory (listener_impl.cc:704-713): QUIC takes no connection balancer.
	quic := !b.stream && l.GetUdpListenerConfig().GetQuicOptions() != nil
	if quic && l.GetConnectionBalanceConfig() != nil {
		return "connection_balance_config is configured for QUIC listener which doesn't work with connection balancer.", path + ".udp_listener_config.quic_options"
	}
	if msg, where := quicOptionsProblem(l, path); msg != "" {
		return msg, where
	}
	if b.stream {
		if msg, where := listenerFiltersProblem(l, path); msg != "" {
			return msg, where
		}
	} else if !quic {
		if msg, where := udpListenerFiltersProblem(l, path); msg != "" {
			return msg, where
		}
	}
	if msg := filterChainsProblem(l, quic); msg != "" {
		return msg, path
	}
	if msg, where := filterChainsBuildProblem(l, b, path, quic, static, add); msg != "" {
		return msg, where
	}
	if b.stream {
		return internalListenerProblem(l, path, internalExt)
	}
	return "", ""
}

// addressesProblem: the address resolved (as an IP: no DNS), then each additional address
// (listener_impl.cc:406-437). checkIpv4CompatAddress is given the main address each time, with
// the additional address's own ipv4_compat flag (:430-432).
func addressesProblem(l *listenerv3.Listener, b builtListener, path string) (msg, where string) {
	if msg, field := listenAddressProblem(l.GetAddress()); msg != "" {
		return msg, path + ".address" + field
	}
	if msg := ipv4CompatProblem(l.GetAddress(), l.GetAddress()); msg != "" {
		return msg, path + ".address.socket_address.ipv4_compat"
	}
	for i, extra := range l.GetAdditionalAddresses() {
		at := fmt.Sprintf("%s.additional_addresses[%d].address", path, i)
		if (extra.GetAddress().GetSocketAddress().GetProtocol() != corev3.SocketAddress_UDP) != b.stream {
			return fmt.Sprintf("listener %s: has different socket type. The listener only support same socket type for all the addresses.", l.GetName()), at
		}
		if msg, field := listenAddressProblem(extra.GetAddress()); msg != "" {
			return msg, at + field
		}
		if msg := ipv4CompatProblem(l.GetAddress(), extra.GetAddress()); msg != "" {
			return msg, at + ".socket_address.ipv4_compat"
		}
	}
	return "", ""
}

// listenAddressProblem is Network::Address::resolveProtoAddress: addressProblem, then a pipe path
// (not abstract) with an embedded NUL (PipeInstance, source/common/network/address_impl.cc:436-441).
func listenAddressProblem(a *corev3.Address) (msg, field string) {
	if msg, field := addressProblem(a); msg != "" {
		return msg, field
	}
	if p := a.GetPipe().GetPath(); p != "" && p[0] != '@' && strings.ContainsRune(p, 0) {
		return "UNIX domain socket pathname contains embedded null characters", ".pipe.path"
	}
	return "", ""
}

// ipv4CompatProblem is ListenerImpl::checkIpv4CompatAddress (listener_impl.cc:568-580): only
// "::" or an IPv4-mapped IPv6 address may set ipv4_compat.
func ipv4CompatProblem(resolved, flagged *corev3.Address) string {
	sa := resolved.GetSocketAddress()
	if sa == nil || !flagged.GetSocketAddress().GetIpv4Compat() {
		return ""
	}
	ip, err := netip.ParseAddr(sa.GetAddress())
	if err != nil || (ip.Is6() && (ip.IsUnspecified() || ip.Is4In6())) {
		return ""
	}
	return "Only IPv6 address '::' or valid IPv4-mapped IPv6 address can set ipv4_compat: " + addressString(resolved)
}

// internalListenerProblem is ListenerImpl::buildInternalListener (listener_impl.cc:610-667), for
// TCP listeners once their filter chains are built. Validate mode has no internal listener
// registry, so it looks for the bootstrap extension's exact type URL (:637-650).
func internalListenerProblem(l *listenerv3.Listener, path string, internalExt bool) (msg, where string) {
	at := path + ".internal_listener"
	if l.GetInternalListener() == nil {
		if l.GetAddress().GetEnvoyInternalAddress() != nil {
			return fmt.Sprintf("error adding listener named '%s': use internal_listener field instead of address for internal listeners", l.GetName()), at
		}
		for _, a := range l.GetAdditionalAddresses() {
			if a.GetAddress().GetEnvoyInternalAddress() != nil {
				return fmt.Sprintf("error adding listener named '%s': use internal_listener field instead of address for internal listeners", l.GetName()), at
			}
		}
		return "", ""
	}
	switch {
	case l.GetAddress() != nil || len(l.GetAdditionalAddresses()) > 0:
		return fmt.Sprintf("error adding listener '%s': address should not be used when an internal listener config is provided", l.GetName()), at
	case l.GetConnectionBalanceConfig().GetExactBalance() != nil || l.GetEnableMptcp() || l.GetEnableReusePort() != nil ||
		l.GetFreebind().GetValue() || l.GetTcpBacklogSize() != nil || l.GetTcpFastOpenQueueLength() != nil || l.GetTransparent().GetValue():
		return fmt.Sprintf("error adding listener named '%s': has unsupported tcp listener feature", l.GetName()), at
	case len(l.GetSocketOptions()) > 0:
		return fmt.Sprintf("error adding listener named '%s': does not support socket option", l.GetName()), at
	case !internalExt:
		return fmt.Sprintf("error adding listener named '%s': InternalListener bootstrap extension is mandatory", l.GetName()), at
	}
	return "", ""
}

// internalListenerExtension: the bootstrap has the InternalListener extension, by its exact type
// URL (a TypedStruct-wrapped one is not found, listener_impl.cc:642-647).
func internalListenerExtension(bs *bootstrapv3.Bootstrap) bool {
	for _, e := range bs.GetBootstrapExtensions() {
		if e.GetTypedConfig().GetTypeUrl() == "type.googleapis.com/envoy.extensions.bootstrap.internal_listener.v3.InternalListener" {
			return true
		}
	}
	return false
}

// addressString is an address as Envoy prints it (Address::Instance::asString): ip:port,
// [ipv6]:port in its canonical form, a pipe's path, or envoy://name/endpoint.
func addressString(a *corev3.Address) string {
	if p := a.GetPipe(); p != nil {
		return p.GetPath()
	}
	if in := a.GetEnvoyInternalAddress(); in != nil {
		return "envoy://" + in.GetServerListenerName() + "/" + in.GetEndpointId()
	}
	sa := a.GetSocketAddress()
	host := sa.GetAddress()
	if ip, err := netip.ParseAddr(host); err == nil {
		host = ip.String()
	}
	if strings.Contains(host, ":") {
		return fmt.Sprintf("[%s]:%d", host, sa.GetPortValue())
	}
	return fmt.Sprintf("%s:%d", host, sa.GetPortValue())
}

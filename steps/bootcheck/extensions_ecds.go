package bootcheck

import (
	"fmt"
	"slices"
	"strings"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	compositev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/composite/v3"
)

// listenerSockets is, for each listener's path, the category its listener filters are looked up
// in. A listener's socket is a stream unless its socket_address says UDP (listener_impl.cc:336,
// network/utility.cc:469 protobufAddressSocketType); a UDP listener with quic_options is QUIC,
// one without is connectionless (listener_impl.cc:707, :806-827).
func listenerSockets(tree []visited) map[string]string {
	out := map[string]string{}
	for _, n := range tree {
		l, ok := n.m.Interface().(*listenerv3.Listener)
		if !ok {
			continue
		}
		switch {
		case l.GetInternalListener() != nil || l.GetAddress().GetSocketAddress().GetProtocol() != corev3.SocketAddress_UDP:
			out[n.path] = catListenerFilter
		case l.GetUdpListenerConfig().GetQuicOptions() != nil:
			out[n.path] = catQUICListenerFilter
		default:
			out[n.path] = catUDPListenerFilter
		}
	}
	return out
}

// listenerFilterCheck: a listener filter's factory, or for one found by discovery the checks
// ProdListenerComponentFactory makes before subscribing (listener_manager_impl.cc:146-166 for a
// TCP listener, :213-236 for QUIC); a UDP listener takes no discovery (:196-200).
func listenerFilterCheck(f *listenerv3.ListenerFilter, category, path string, add addFunc) {
	discovery := f.GetConfigDiscovery()
	if discovery == nil {
		factoryCheck(category, f.GetName(), f.GetTypedConfig(), path, add)
		return
	}
	switch {
	case category == catUDPListenerFilter:
		add(stageListeners, path+".config_discovery", fmt.Sprintf("UDP listener filter: %s is configured with unsupported dynamic configuration", f.GetName()))
		return
	case discovery.GetApplyDefaultConfigWithoutWarming() && discovery.GetDefaultConfig() == nil:
		add(stageListeners, path+".config_discovery", fmt.Sprintf("Error: listener filter config %s applied without warming but has no default config.", f.GetName()))
		return
	}
	for i, url := range discovery.GetTypeUrls() {
		if typ := descriptorName(url); !takes(category, typ) {
			add(stageListeners, fmt.Sprintf("%s.config_discovery.type_urls[%d]", path, i), fmt.Sprintf("Error: no listener factory found for a required type URL %s.", typ))
			return
		}
	}
	ecdsCheck(category, f.GetName(), discovery, path, add)
}

// httpEcdsCheck: an HTTP filter found by discovery (filter_chain_helper.h:174-190), then what
// every discovered filter's provider checks.
func httpEcdsCheck(category, name string, discovery *corev3.ExtensionConfigSource, path string, add addFunc) {
	if discovery.GetApplyDefaultConfigWithoutWarming() && discovery.GetDefaultConfig() == nil {
		add(stageListeners, path+".config_discovery", fmt.Sprintf("Error: filter config %s applied without warming but has no default config.", name))
		return
	}
	for i, url := range discovery.GetTypeUrls() {
		if typ := descriptorName(url); !takes(category, typ) {
			add(stageListeners, fmt.Sprintf("%s.config_discovery.type_urls[%d]", path, i), fmt.Sprintf("Error: no factory found for a required type URL %s.", typ))
			return
		}
	}
	ecdsCheck(category, name, discovery, path, add)
}

// ecdsCheck: a discovered filter's default config must be one a factory of the category takes,
// and of one of the types it requires (config_discovery_impl.h:600-606, :656-666 getDefaultConfig;
// config_discovery_impl.cc:19-26, :278-287). A network filter's discovery is checked here only
// (listener_manager_impl.cc:97-106).
func ecdsCheck(category, name string, discovery *corev3.ExtensionConfigSource, path string, add addFunc) {
	def := discovery.GetDefaultConfig()
	if def == nil {
		return
	}
	where := path + ".config_discovery.default_config"
	typ := factoryType(def)
	if def.GetTypeUrl() == "" || !takes(category, typ) {
		add(stageListeners, where, fmt.Sprintf("Error: cannot find filter factory %s for default filter configuration with type URL %s.", name, def.GetTypeUrl()))
		return
	}
	var want []string
	for _, url := range discovery.GetTypeUrls() {
		if descriptorName(url) == typ {
			return
		}
		if !slices.Contains(want, descriptorName(url)) {
			want = append(want, descriptorName(url))
		}
	}
	// An absl::flat_hash_set joined: with more than one type its order is the hash's.
	add(stageListeners, where, fmt.Sprintf("Error: filter config has type URL %s but expect %s.", typ, strings.Join(want, ", ")))
}

// descriptorName is TypeUtil::typeUrlToDescriptorFullName: what follows the last '/'.
func descriptorName(url string) string { return url[strings.LastIndex(url, "/")+1:] }

// compositeActionCheck: the composite filter's action is made when its match tree is built, at
// load (source/common/matcher/matcher.h:319-328), and looks up the filters it runs, by priority
// (composite/action.cc:51-84): a filter chain's each (:201-244), none for a chain named for run
// time or a discovered config, else its typed_config (:145, :177).
func compositeActionCheck(a *compositev3.ExecuteFilterAction, path string, add addFunc) {
	category := httpCategory(path)
	switch {
	case a.GetFilterChain() != nil:
		if len(a.GetFilterChain().GetTypedConfig()) == 0 {
			add(stageOfAny(path), path+".filter_chain", "filter_chain must contain at least one filter.")
			return
		}
		for i, f := range a.GetFilterChain().GetTypedConfig() {
			if factoryCheck(category, f.GetName(), f.GetTypedConfig(), fmt.Sprintf("%s.filter_chain.typed_config[%d]", path, i), add) {
				return
			}
		}
	case a.GetFilterChainName() != "" || a.GetDynamicConfig() != nil:
	default:
		factoryCheck(category, a.GetTypedConfig().GetName(), a.GetTypedConfig().GetTypedConfig(), path+".typed_config", add)
	}
}

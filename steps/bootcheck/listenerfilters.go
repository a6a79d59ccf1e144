package bootcheck

import (
	"fmt"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	ppv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/listener/proxy_protocol/v3"
)

// listenerFiltersProblem is ListenerImpl::createListenerFilterFactories (listener_impl.cc:456,
// after the UDP listener factory): each TCP listener filter's factory run in order (the
// factory lookup itself is extensions.go's).
func listenerFiltersProblem(l *listenerv3.Listener, path string) (msg, where string) {
	for i, f := range l.GetListenerFilters() {
		at := fmt.Sprintf("%s.listener_filters[%d].typed_config", path, i)
		pp := &ppv3.ProxyProtocol{}
		if f.GetTypedConfig().UnmarshalTo(pp) != nil {
			continue
		}
		// proxy_protocol's Config (source/extensions/filters/listener/proxy_protocol/
		// proxy_protocol.cc:180-198): a filter that allows no version is refused.
		v1, v2 := true, true
		for _, v := range pp.GetDisallowedVersions() {
			switch v {
			case corev3.ProxyProtocolConfig_V1:
				v1 = false
			case corev3.ProxyProtocolConfig_V2:
				v2 = false
			}
		}
		if !v1 && !v2 {
			return "Proxy Protocol filter is misconfigured: all proxy protocol versions are disallowed.", at + ".disallowed_versions"
		}
	}
	return "", ""
}

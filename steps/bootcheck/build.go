package bootcheck

import (
	"bytes"
	"encoding/json"

	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/anypb"
)

// Terminal filters, by the type their typed_config carries, with the name their factory registers
// (what Envoy's message calls their type): each must be the last of its chain. The network ones
// are the stock factories built with FactoryBase(name, true) or whose isTerminalFilterByProto
// says so (source/extensions/filters/network/*/config.h); dynamic_modules asks its config.
var (
	terminalNetworkFilters = map[string]string{
		"envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager":  "envoy.filters.network.http_connection_manager",
		"envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy":                             "envoy.filters.network.tcp_proxy",
		"envoy.extensions.filters.network.direct_response.v3.Config":                         "envoy.filters.network.direct_response",
		"envoy.extensions.filters.network.echo.v3.Echo":                                      "envoy.filters.network.echo",
		"envoy.extensions.filters.network.redis_proxy.v3.RedisProxy":                         "envoy.filters.network.redis_proxy",
		"envoy.extensions.filters.network.thrift_proxy.v3.ThriftProxy":                       "envoy.filters.network.thrift_proxy",
		"envoy.extensions.filters.network.dubbo_proxy.v3.DubboProxy":                         "envoy.filters.network.dubbo_proxy",
		"envoy.extensions.filters.network.generic_proxy.v3.GenericProxy":                     "envoy.filters.network.generic_proxy",
		"envoy.extensions.filters.network.reverse_tunnel.v3.ReverseTunnel":                   "envoy.filters.network.reverse_tunnel",
		"envoy.extensions.filters.network.reverse_tunnel.v3.DrainAwareHttpConnectionManager": "envoy.filters.network.reverse_tunnel_drain_aware_http_connection_manager",
	}
	terminalHTTPFilters = map[string]string{
		"envoy.extensions.filters.http.router.v3.Router": "envoy.filters.http.router",
	}
)

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

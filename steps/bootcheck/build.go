package bootcheck

import (
	"bytes"
	"encoding/json"

	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/anypb"
)

// terminalNetworkFilters are the network filters, by the type their typed_config carries, that
// must be the last of their chain: the stock factories built with FactoryBase(name, true) or
// whose isTerminalFilterByProto says so (source/extensions/filters/network/*/config.h);
// dynamic_modules asks its config (networkFactory). Their names are the registry's.
var terminalNetworkFilters = map[string]bool{
	"envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager":  true,
	"envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy":                             true,
	"envoy.extensions.filters.network.direct_response.v3.Config":                         true,
	"envoy.extensions.filters.network.echo.v3.Echo":                                      true,
	"envoy.extensions.filters.network.redis_proxy.v3.RedisProxy":                         true,
	"envoy.extensions.filters.network.thrift_proxy.v3.ThriftProxy":                       true,
	"envoy.extensions.filters.network.dubbo_proxy.v3.DubboProxy":                         true,
	"envoy.extensions.filters.network.generic_proxy.v3.GenericProxy":                     true,
	"envoy.extensions.filters.network.reverse_tunnel.v3.ReverseTunnel":                   true,
	"envoy.extensions.filters.network.reverse_tunnel.v3.DrainAwareHttpConnectionManager": true,
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

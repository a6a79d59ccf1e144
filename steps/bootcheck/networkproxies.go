package bootcheck

import (
	"fmt"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	dubbov3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/dubbo_proxy/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/ext_proc/v3"
	genericv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/generic_proxy/v3"
	geoipv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/geoip/v3"
	rbacnetv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/rbac/v3"
	redisv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/redis_proxy/v3"
	rtv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/reverse_tunnel/v3"
	tcpv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/tcp_proxy/v3"
	thriftv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/thrift_proxy/v3"
	zkv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/zookeeper_proxy/v3"
	"google.golang.org/protobuf/types/known/anypb"
)

// networkFilterProblem is what a stock network filter's factory refuses as it is built
// (createFilterFactoryFromProto), field is where, below the filter's typed_config: the proxies'
// (networkrpc.go, networkgeneric.go) and the access filters' (networkaccess.go) among them.
func networkFilterProblem(config *anypb.Any, static map[string]*clusterv3.Cluster) (msg, field string) {
	inner, err := config.UnmarshalNew()
	if err != nil {
		return "", ""
	}
	switch v := inner.(type) {
	case *tcpv3.TcpProxy:
		return tcpProxyProblem(v)
	case *rbacnetv3.RBAC:
		return rbacNetworkProblem(v)
	case *extprocv3.NetworkExternalProcessor:
		return extProcNetworkProblem(v)
	case *geoipv3.Geoip:
		return geoipNetworkProblem(v)
	case *redisv3.RedisProxy:
		return redisProblem(v)
	case *dubbov3.DubboProxy:
		return dubboProblem(v)
	case *thriftv3.ThriftProxy:
		return thriftProblem(v, static)
	case *zkv3.ZooKeeperProxy:
		return zookeeperProblem(v)
	case *genericv3.GenericProxy:
		return genericProxyProblem(v)
	case *rtv3.ReverseTunnel:
		return reverseTunnelProblem(v)
	}
	return "", ""
}

// tcpProxyProblem is TcpProxy::Config::SharedConfig's constructor (source/common/tcp_proxy/
// tcp_proxy.cc:100-285): the tunneling config (TunnelingConfigHelperImpl, :985-1010), the access
// log options, the back-off, the proxy protocol TLVs (parseTLVs, :366-400; a format string is
// not judged), then the upstream connect mode.
func tcpProxyProblem(c *tcpv3.TcpProxy) (msg, field string) {
	if t := c.GetTunnelingConfig(); t != nil && t.GetPostPath() != "" && !t.GetUsePost() {
		return "Can't set a post path when POST method isn't used", ".tunneling_config.post_path"
	}
	// The tunnel's request ID extension, found by its Any's own type (tcp_proxy.cc:1021-1029;
	// RequestIDExtensionFactory::fromProto, request_id_extension_impl.cc:12-19): uuid is the
	// stock build's only one.
	if rid := c.GetTunnelingConfig().GetRequestIdExtension().GetTypedConfig(); rid != nil {
		if typ := typeName(rid); typ != "envoy.extensions.request_id.uuid.v3.UuidRequestIdConfig" {
			return fmt.Sprintf("Failed to create request ID extension: INVALID_ARGUMENT: Didn't find a registered implementation for type: '%s'", typ), ".tunneling_config.request_id_extension.typed_config"
		}
	}
	if c.GetAccessLogOptions() != nil {
		if c.GetFlushAccessLogOnConnected() {
			return "Only one of flush_access_log_on_connected or access_log_options can be specified.", ".access_log_options"
		}
		if c.GetAccessLogFlushInterval() != nil {
			return "Only one of access_log_flush_interval or access_log_options can be specified.", ".access_log_options"
		}
	}
	if b := c.GetBackoffOptions(); b != nil {
		base := b.GetBaseInterval().AsDuration().Milliseconds()
		max := base * 10
		if b.GetMaxInterval() != nil {
			max = b.GetMaxInterval().AsDuration().Milliseconds()
		}
		if max < base {
			return "max_backoff_interval must be greater or equal to base_backoff_interval", ".backoff_options"
		}
	}
	for i, tlv := range c.GetProxyProtocolTlvs() {
		at := fmt.Sprintf(".proxy_protocol_tlvs[%d]", i)
		switch value, format := len(tlv.GetValue()) > 0, tlv.GetFormatString() != nil; {
		case value && format:
			return "Invalid TLV configuration: only one of 'value' or 'format_string' may be set.", at
		case !value && !format:
			return "Invalid TLV configuration: one of 'value' or 'format_string' must be set.", at
		}
	}
	if c.GetUpstreamConnectMode() != tcpv3.UpstreamConnectMode_IMMEDIATE && c.GetMaxEarlyDataBytes() == nil {
		return "max_early_data_bytes must be set when upstream_connect_mode is not IMMEDIATE", ".upstream_connect_mode"
	}
	return "", ""
}

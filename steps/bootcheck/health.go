package bootcheck

import (
	"fmt"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	thriftv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/thrift_proxy/v3"
	thrifthcv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/health_checkers/thrift/v3"
	upstreamhttpv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/upstreams/http/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"
)

// healthCheckProblem: the cluster's health checker as ClusterFactoryImplBase::create makes it,
// once the cluster is built (HealthCheckerFactory::create, source/common/upstream/
// health_checker_impl.cc:51-92, then the checker's own constructor).
func healthCheckProblem(c *clusterv3.Cluster, opts *upstreamhttpv3.HttpProtocolOptions) (msg, where string) {
	if len(c.GetHealthChecks()) != 1 {
		return "", ""
	}
	hc := c.GetHealthChecks()[0]
	const at = ".health_checks[0]"
	switch {
	case hc.GetGrpcHealthCheck() != nil && !usesHTTP2(c, opts):
		return fmt.Sprintf("%s cluster must support HTTP/2 for gRPC healthchecking", c.GetName()), at + ".grpc_health_check"
	case hc.GetTcpHealthCheck() != nil: // health_checkers/tcp: send, then receive
		tcp := hc.GetTcpHealthCheck()
		if msg := payloadProblem(append([]*corev3.HealthCheck_Payload{tcp.GetSend()}, tcp.GetReceive()...)); msg != "" {
			return msg, at + ".tcp_health_check"
		}
	case hc.GetHttpHealthCheck() != nil:
		if msg := httpHealthCheckProblem(hc.GetHttpHealthCheck()); msg != "" {
			return msg, at + ".http_health_check"
		}
	case hc.GetCustomHealthCheck() != nil:
		var thrift thrifthcv3.Thrift // health_checkers/thrift/thrift.cc:33-38
		if hc.GetCustomHealthCheck().GetTypedConfig().UnmarshalTo(&thrift) == nil &&
			(thrift.GetTransport() == thriftv3.TransportType_AUTO_TRANSPORT || thrift.GetProtocol() == thriftv3.ProtocolType_AUTO_PROTOCOL || thrift.GetProtocol() == thriftv3.ProtocolType_TWITTER) {
			return "Unsupported transport or protocol in thrift health check configuration: " + elided, at + ".custom_health_check"
		}
	}
	return "", ""
}

// usesHTTP2: ClusterInfoImpl's HTTP2 feature (extensions/upstreams/http/config.cc:62-73 useHttp2;
// without typed options, the cluster's own http2_protocol_options, upstream_impl.cc:1071-1083).
func usesHTTP2(c *clusterv3.Cluster, opts *upstreamhttpv3.HttpProtocolOptions) bool {
	if opts == nil {
		return c.GetHttp2ProtocolOptions() != nil
	}
	return opts.GetExplicitHttpConfig().GetHttp2ProtocolOptions() != nil || opts.GetUseDownstreamProtocolConfig().GetHttp2ProtocolOptions() != nil ||
		opts.GetAutoConfig() != nil
}

// httpHealthCheckProblem is HttpHealthCheckerImpl's constructor (health_checkers/http/
// health_checker_impl.cc:56-117): the status ranges (expected, then retriable), then a payload
// only with a method that has a body, the payloads' hex, and the expected response's length.
func httpHealthCheckProblem(h *corev3.HealthCheck_HttpHealthCheck) string {
	for _, ranges := range []struct {
		kind string
		rs   []*typev3.Int64Range
	}{{"expected", h.GetExpectedStatuses()}, {"retriable", h.GetRetriableStatuses()}} {
		for _, r := range ranges.rs {
			start, end := uint64(r.GetStart()), uint64(r.GetEnd())
			switch {
			case start >= end:
				return fmt.Sprintf("Invalid http %s status range: expecting start < end, but found start=%d and end=%d", ranges.kind, start, end)
			case start < 100:
				return fmt.Sprintf("Invalid http %s status range: expecting start >= 100, but found start=%d", ranges.kind, start)
			case end > 600:
				return fmt.Sprintf("Invalid http %s status range: expecting end <= 600, but found end=%d", ranges.kind, end)
			}
		}
	}
	if h.GetSend() != nil {
		switch m := h.GetMethod(); m {
		case corev3.RequestMethod_METHOD_UNSPECIFIED, corev3.RequestMethod_GET, corev3.RequestMethod_HEAD, corev3.RequestMethod_DELETE, corev3.RequestMethod_TRACE:
			if m == corev3.RequestMethod_METHOD_UNSPECIFIED {
				m = corev3.RequestMethod_GET // getMethod: unspecified is GET
			}
			return fmt.Sprintf("HTTP health check cannot specify a request payload with method '%s'. Only methods that support a request body (POST, PUT, PATCH, OPTIONS) can be used with payload.", m)
		}
		if msg := payloadProblem([]*corev3.HealthCheck_Payload{h.GetSend()}); msg != "" {
			return msg
		}
	}
	if msg := payloadProblem(h.GetReceive()); msg != "" {
		return msg
	}
	limit := uint64(1024) // kDefaultMaxBytesInBuffer, common/upstream/health_checker_impl.h:31
	if h.GetResponseBufferSize() != nil {
		limit = h.GetResponseBufferSize().GetValue()
	}
	total := uint64(0)
	for _, p := range h.GetReceive() {
		if p.GetPayload() != nil {
			total += uint64(len(p.GetText())/2 + len(p.GetBinary()))
		}
	}
	if limit != 0 && total > limit {
		return fmt.Sprintf("The expected response length '%d' is over than http health response buffer size '%d'", total, limit)
	}
	return ""
}

// payloadProblem: a text payload is hex, an even number of hex digits, not empty
// (PayloadMatcher::decodePayload, health_checker_impl.cc:94-106; Hex::decode).
func payloadProblem(payloads []*corev3.HealthCheck_Payload) string {
	for _, p := range payloads {
		text, ok := p.GetPayload().(*corev3.HealthCheck_Payload_Text)
		if !ok {
			continue
		}
		if !isHex(text.Text) {
			return fmt.Sprintf("invalid hex string '%s'", text.Text)
		}
	}
	return ""
}

func isHex(s string) bool {
	if s == "" || len(s)%2 != 0 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

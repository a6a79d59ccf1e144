package bootcheck

import (
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	tcpproxyv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/tcp_proxy/v3"
)

// rewriteChecks parses the single format strings of routes, tracing and TCP tunnels.
func rewriteChecks(msg any, fail func(string, *formatError)) {
	switch v := msg.(type) {
	case *routev3.RouteAction:
		// source/common/router/config_impl.cc:754-779: a status is wrapped, an exception is not.
		if err := wrappedFormat(v.GetPathRewrite(), "Failed to create path rewrite formatter: "); err != nil {
			fail(".path_rewrite", err)
		} else if err := wrappedFormat(v.GetHostRewrite(), "Failed to create host rewrite formatter: "); err != nil {
			fail(".host_rewrite", err)
		}
	case *routev3.RedirectAction: // config_impl.cc:202-210
		if err := wrappedFormat(v.GetPathRewrite(), "Failed to create path_rewrite formatter: "); err != nil {
			fail(".path_rewrite", err)
		}
	case *routev3.Tracing: // config_impl.cc:436-445, THROW_IF_NOT_OK_REF
		operationsCheck(v.GetOperation(), v.GetUpstreamOperation(), fail)
	case *hcmv3.HttpConnectionManager_Tracing: // source/common/tracing/tracer_config_impl.cc:54-67
		operationsCheck(v.GetOperation(), v.GetUpstreamOperation(), fail)
	case *tcpproxyv3.TcpProxy_TunnelingConfig:
		tunnelCheck(v, fail)
	}
}

// wrappedFormat parses a route's format (when set): Envoy words a returned status with prefix
// and absl's status text, while an error its command parsers throw passes by unwrapped.
func wrappedFormat(format, prefix string) *formatError {
	if format == "" {
		return nil
	}
	_, err := formatParser{}.parse(format)
	if err != nil && !err.thrown {
		return status(prefix + "INVALID_ARGUMENT: " + err.msg)
	}
	return err
}

func operationsCheck(operation, upstream string, fail func(string, *formatError)) {
	for _, f := range []struct{ field, format string }{{".operation", operation}, {".upstream_operation", upstream}} {
		if _, err := (formatParser{}).parse(f.format); f.format != "" && err != nil {
			fail(f.field, err)
			return
		}
	}
}

// tunnelCheck is TunnelingConfigHelperImpl's construction (source/common/tcp_proxy/tcp_proxy.cc:
// 962-1020): the headers to add, with the tunnel's formatters, then the hostname as a format.
func tunnelCheck(t *tcpproxyv3.TcpProxy_TunnelingConfig, fail func(string, *formatError)) {
	p := formatParser{}
	if len(t.GetFormatters()) > 0 {
		var err *formatError
		if p, err = formatterExtensions(t.GetFormatters(), false); err != nil {
			fail(".formatters", err)
			return
		}
	}
	failed := false
	headersCheck(t.GetHeadersToAdd(), ".headers_to_add", nil, ".headers_to_remove", p, func(where string, err *formatError) {
		failed = true
		fail(where, err)
	})
	if failed || t.GetPostPath() != "" && !t.GetUsePost() { // Envoy refuses the post path first
		return
	}
	hostname := &corev3.SubstitutionFormatString{Format: &corev3.SubstitutionFormatString_TextFormatSource{
		TextFormatSource: &corev3.DataSource{Specifier: &corev3.DataSource_InlineString{InlineString: t.GetHostname()}}}}
	formatStringCheck(hostname, false, func(_ string, err *formatError) { fail(".hostname", err) })
}

package bootcheck

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	filev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/access_loggers/file/v3"
	setfilterstatev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/common/set_filter_state/v3"
	localratelimitv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/local_ratelimit/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	tcpproxyv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/tcp_proxy/v3"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/structpb"
)

// formatChecks parses the format strings Envoy parses while it builds what holds them (access
// logs, local replies, direct responses, route headers, xDS gRPC metadata), and makes the stock
// access loggers' own checks (format_loggers.go), each staged where its owner is built.
func formatChecks(tree []visited, clusters func(string) bool, add addFunc) {
	var extraParsers []string // typed configs whose owner hands its access logs extra commands
	for _, n := range tree {
		path := n.path
		msg := n.m.Interface()
		if n.inner != nil {
			msg = n.inner
			a, _ := n.m.Interface().(*anypb.Any)
			switch typeName(a) {
			// generic_proxy/config.cc:133 and dns_filter.cc:206 pass command parsers of their own.
			case "envoy.extensions.filters.network.generic_proxy.v3.GenericProxy",
				"envoy.extensions.filters.udp.dns_filter.v3.DnsFilterConfig":
				extraParsers = append(extraParsers, path)
			}
		}
		st := stageOfAny(path)
		fail := func(where string, err *formatError) { add(st, path+where, err.msg) }
		open := slices.ContainsFunc(extraParsers, func(p string) bool { return strings.HasPrefix(path, p+".") })
		switch v := msg.(type) {
		case *corev3.SubstitutionFormatString:
			if strings.Contains(path, ".proxy_protocol_tlvs[") { // tcp_proxy.cc:396-400: a returned status wrapped, ToString'd
				fail = func(where string, err *formatError) {
					if !err.thrown {
						err = status("Failed to parse TLV format string: INVALID_ARGUMENT: " + err.msg)
					}
					add(st, path+where, err.msg)
				}
			}
			formatStringCheck(v, open, fail)
		case *filev3.FileAccessLog:
			// file/config.cc:31-70: the legacy fields, parsed with no formatter extensions.
			p := formatParser{open: open}
			switch f := v.GetAccessLogFormat().(type) {
			case *filev3.FileAccessLog_Format:
				if _, err := p.parse(f.Format); err != nil {
					fail(".format", err)
				}
			case *filev3.FileAccessLog_JsonFormat:
				if err := structFormatCheck(f.JsonFormat, p); err != nil {
					fail(".json_format", err)
				}
			case *filev3.FileAccessLog_TypedJsonFormat:
				if err := structFormatCheck(f.TypedJsonFormat, p); err != nil {
					fail(".typed_json_format", err)
				}
			}
		case headerEditor: // RouteConfiguration, VirtualHost, Route, a weighted cluster (config_impl.cc:598-609, 1622-1635, 2133-2145; weighted_cluster_specifier.cc:101-110)
			headersCheck(v.GetRequestHeadersToAdd(), ".request_headers_to_add", v.GetRequestHeadersToRemove(), ".request_headers_to_remove", formatParser{}, fail)
			headersCheck(v.GetResponseHeadersToAdd(), ".response_headers_to_add", v.GetResponseHeadersToRemove(), ".response_headers_to_remove", formatParser{}, fail)
		case *hcmv3.ResponseMapper: // source/common/local_reply/local_reply.cc:98, after its body format
			headersCheck(v.GetHeadersToAdd(), ".headers_to_add", nil, ".headers_to_remove", formatParser{}, fail)
		case *localratelimitv3.LocalRateLimit: // filters/http/local_ratelimit/local_ratelimit.cc:65-73
			headersCheck(v.GetResponseHeadersToAdd(), ".response_headers_to_add", nil, ".response_headers_to_remove", formatParser{}, fail)
			headersCheck(v.GetRequestHeadersToAddWhenNotEnforced(), ".request_headers_to_add_when_not_enforced", nil, "", formatParser{}, fail)
		case *setfilterstatev3.FilterStateValue:
			// set_filter_state's Config::parse (filters/common/set_filter_state/filter_config.cc:
			// 51-75), one value after another: the object factory (by factory_key, else
			// object_key; the message names object_key), then the value's format string.
			key, field := v.GetFactoryKey(), ".factory_key"
			if key == "" {
				key, field = v.GetObjectKey(), ".object_key"
			}
			if !slices.Contains(filterStateObjectFactories, key) {
				add(st, path+field, fmt.Sprintf("'%s' does not have an object factory", v.GetObjectKey()))
			}
		case *corev3.GrpcService:
			grpcMetadataCheck(v, path, clusters, add)
		case *routev3.RouteAction, *routev3.RedirectAction, *routev3.Tracing, *hcmv3.HttpConnectionManager_Tracing, *tcpproxyv3.TcpProxy_TunnelingConfig:
			rewriteChecks(v, fail)
		default:
			loggerChecks(msg, path, st, clusters, fail)
		}
	}
}

// formatStringCheck is SubstitutionFormatStringUtils::fromProtoConfig (source/common/formatter/
// substitution_format_string.cc:30-55): the formatter extensions, then the format.
func formatStringCheck(sfs *corev3.SubstitutionFormatString, open bool, fail func(string, *formatError)) {
	p, err := formatterExtensions(sfs.GetFormatters(), open)
	if err != nil {
		fail(".formatters", err)
		return
	}
	switch f := sfs.GetFormat().(type) {
	case *corev3.SubstitutionFormatString_TextFormat:
		if _, err := p.parse(f.TextFormat); err != nil {
			fail(".text_format", err)
		}
	case *corev3.SubstitutionFormatString_JsonFormat:
		if err := structFormatCheck(f.JsonFormat, p); err != nil {
			fail(".json_format", err)
		}
	case *corev3.SubstitutionFormatString_TextFormatSource:
		if inline, ok := f.TextFormatSource.GetSpecifier().(*corev3.DataSource_InlineString); ok {
			if _, err := p.parse(inline.InlineString); err != nil {
				fail(".text_format_source.inline_string", err)
			}
		}
	}
}

// formatterCommands are the commands each stock formatter extension adds, by the type its
// typed_config carries (source/extensions/formatter/*): nil checks for none. file_content,
// generic_secret and dynamic modules add commands whose checks need files, secrets or a module.
var formatterCommands = map[string]map[string]func(string) *formatError{
	"envoy.extensions.formatter.cel.v3.Cel":                                {},
	"envoy.extensions.formatter.metadata.v3.Metadata":                      {},
	"envoy.extensions.formatter.req_without_query.v3.ReqWithoutQuery":      {"REQ_WITHOUT_QUERY": reqWithoutQueryArg},
	"envoy.extensions.formatter.file_content.v3.FileContent":               {"FILE_CONTENT": nil},
	"envoy.extensions.formatter.generic_secret.v3.GenericSecret":           {"SECRET": nil},
	"envoy.extensions.formatter.dynamic_modules.v3.DynamicModuleFormatter": nil, // any command
}

// reqWithoutQueryArg: REQ_WITHOUT_QUERY(header?alt) checks its headers as REQ does
// (source/extensions/formatter/req_without_query/req_without_query.cc:70-75), with no syntax check.
func reqWithoutQueryArg(arg string) *formatError { return headersArg(arg) }

// formatterExtensions is SubstitutionFormatStringUtils::parseFormatters (substitution_format_
// string.cc:8-28): each formatter's factory is found by its config's type.
func formatterExtensions(formatters []*corev3.TypedExtensionConfig, open bool) (formatParser, *formatError) {
	p := formatParser{open: open}
	for _, f := range formatters {
		commands, known := formatterCommands[factoryType(f.GetTypedConfig())]
		if !known {
			return p, status("Formatter not found: " + f.GetName())
		}
		if commands == nil {
			p.open = true
			continue
		}
		if p.extra == nil {
			p.extra = map[string]func(string) *formatError{}
		}
		maps.Copy(p.extra, commands)
	}
	return p, nil
}

// structFormatCheck is JsonFormatterImpl::create (substitution_formatter.cc:353-368): every
// string holding a '%', keys in sorted order, is parsed as a format.
func structFormatCheck(s *structpb.Struct, p formatParser) *formatError {
	fields := s.GetFields()
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		if err := valueFormatCheck(fields[k], p); err != nil {
			return err
		}
	}
	return nil
}

func valueFormatCheck(v *structpb.Value, p formatParser) *formatError {
	switch k := v.GetKind().(type) {
	case *structpb.Value_StringValue:
		if strings.Contains(k.StringValue, "%") {
			_, err := p.parse(k.StringValue)
			return err
		}
	case *structpb.Value_StructValue:
		return structFormatCheck(k.StructValue, p)
	case *structpb.Value_ListValue:
		for _, e := range k.ListValue.GetValues() {
			if err := valueFormatCheck(e, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// headerEditor is what route tables, virtual hosts, routes and weighted clusters share: headers
// to add and to remove, on the request and on the response.
type headerEditor interface {
	GetRequestHeadersToAdd() []*corev3.HeaderValueOption
	GetRequestHeadersToRemove() []string
	GetResponseHeadersToAdd() []*corev3.HeaderValueOption
	GetResponseHeadersToRemove() []string
}

// perRequestState is HeaderParser::translatePerRequestState (source/common/router/
// header_parser_utils.cc:86-119): with envoy.reloadable_features.remove_legacy_route_formatter
// false by default (runtime_features.cc:248), a header's %PER_REQUEST_STATE(k)% is FILTER_STATE.
var perRequestState = regexp.MustCompile(`%PER_REQUEST_STATE\((.+?)\)%`)

// headersCheck is HeaderParser::configure (source/common/router/header_parser.cc:95-142): each
// header to add (append and append_action not both, no :-prefixed or host header, its value a
// format), then each header to remove.
func headersCheck(toAdd []*corev3.HeaderValueOption, addField string, toRemove []string, removeField string, p formatParser, fail func(string, *formatError)) {
	for i, h := range toAdd {
		where := fmt.Sprintf("%s[%d]", addField, i)
		if h.GetAppend() != nil && h.GetAppendAction() != corev3.HeaderValueOption_APPEND_IF_EXISTS_OR_ADD {
			fail(where+".append", status("Both append and append_action are set and it's not allowed"))
			return
		}
		if err := headerValueCheck(h.GetHeader(), p); err != nil {
			fail(where+".header", err)
			return
		}
	}
	for i, name := range toRemove {
		if strings.HasPrefix(name, ":") || strings.EqualFold(name, "host") {
			fail(fmt.Sprintf("%s[%d]", removeField, i), status(":-prefixed or host headers may not be removed"))
			return
		}
	}
}

// headerValueCheck is parseHttpHeaderFormatter (header_parser.cc:26-55).
func headerValueCheck(h *corev3.HeaderValue, p formatParser) *formatError {
	if strings.HasPrefix(h.GetKey(), ":") || strings.EqualFold(h.GetKey(), "host") {
		return status(":-prefixed or host headers may not be modified")
	}
	value := perRequestState.ReplaceAllString(h.GetValue(), "%FILTER_STATE(${1}:PLAIN)%")
	_, err := p.parse(value)
	return err
}

// grpcMetadataCheck: an Envoy gRPC client parses its initial_metadata as headers to set
// (source/common/grpc/async_client_impl.cc:63-66) when it is made; only the xDS clients are
// surely made while validating: the ADS mux's and each gRPC config source's.
func grpcMetadataCheck(g *corev3.GrpcService, path string, clusters func(string) bool, add addFunc) {
	if g.GetEnvoyGrpc() == nil || !clusters(g.GetEnvoyGrpc().GetClusterName()) {
		return
	}
	st := stageSubscriptions
	switch {
	case strings.HasPrefix(path, "dynamic_resources.ads_config."):
		st = stageADSCluster
	case !strings.Contains(path, "api_config_source."):
		return
	}
	for i, h := range g.GetInitialMetadata() {
		if err := headerValueCheck(h, formatParser{}); err != nil {
			add(st, fmt.Sprintf("%s.initial_metadata[%d]", path, i), err.msg)
			return
		}
	}
}

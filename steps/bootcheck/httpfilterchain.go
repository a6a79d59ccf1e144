package bootcheck

import (
	"fmt"
	"strings"

	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
)

// terminalHTTP: the stock HTTP filters whose factory says they end a chain
// (isTerminalFilterByProtoTyped true: router/config.h:24, mcp_router/config.h:24), by the type
// their config carries, with the name their factory registers (what Envoy's message calls their
// type). dynamic_modules' terminal_filter is not here: it needs a module file, refused before.
var terminalHTTP = map[string]string{
	"envoy.extensions.filters.http.router.v3.Router":        "envoy.filters.http.router",
	"envoy.extensions.filters.http.mcp_router.v3.McpRouter": "envoy.filters.http.mcp_router",
}

// httpFilterChainProblem is FilterChainHelper::processFilters (source/common/http/
// filter_chain_helper.h:110-160): per filter, in order, the last may not be disabled, a filter
// found by discovery is checked as its provider is made (ecdsProblem), a static one is built by its
// factory (its type unknown is extensions.go's; optional and unknown, skipped) — its own checks
// (httpFilterConfigProblem) — then the terminal filter must come last and last must come a
// terminal filter (Config::Utility::validateTerminalFilters, config/utility.cc:390-410).
func httpFilterChainProblem(filters []*hcmv3.HttpFilter, path, chain string, fail func(where, msg string)) bool {
	for i, f := range filters {
		fpath := fmt.Sprintf("%s[%d]", path, i)
		last := i == len(filters)-1
		if last && f.GetDisabled() {
			fail(fpath+".disabled", fmt.Sprintf("Error: the last (terminal) filter (%s) in the chain cannot be disabled by default.", f.GetName()))
			return true
		}
		if f.GetConfigDiscovery() != nil {
			if ecdsProblem(f, fpath+".config_discovery", chain, last, fail) {
				return true
			}
			continue
		}
		typ := factoryType(f.GetTypedConfig())
		if !takes(catHTTPFilter, typ) {
			continue // refused by extensions.go, or optional and skipped
		}
		if httpFilterConfigProblem(f.GetTypedConfig(), typ, fpath+".typed_config", fail) {
			return true
		}
		if msg := httpTerminalProblem(f.GetName(), typ, chain, last); msg != "" {
			fail(fpath, msg)
			return true
		}
	}
	return false
}

// httpTerminalProblem is Config::Utility::validateTerminalFilters for an HTTP filter of type typ.
func httpTerminalProblem(name, typ, chain string, last bool) string {
	factory, terminal := terminalHTTP[typ]
	if !terminal {
		factory = httpFilterFactoryName(typ)
	}
	switch {
	case terminal && !last:
		return fmt.Sprintf("Error: terminal filter named %s of type %s must be the last filter in a %s filter chain.", name, factory, chain)
	case !terminal && last:
		return fmt.Sprintf("Error: non-terminal filter named %s of type %s is the last filter in a %s filter chain.", name, factory, chain)
	}
	return ""
}

// ecdsProblem: an HTTP filter configured by discovery (FilterChainHelper::
// processDynamicFilterConfig, filter_chain_helper.h:170-190, then FilterConfigProviderManagerImpl
// ::createDynamicFilterConfigProvider, config_discovery_impl.h:578-620): a default is needed to
// apply it without warming, every type URL needs an HTTP filter factory; then its default config
// needs a factory, one of the type URLs, and its terminal check (getDefaultConfig, :656-671),
// before it is built as the filter (applyLastOrDefaultConfig).
func ecdsProblem(f *hcmv3.HttpFilter, path, chain string, last bool, fail func(where, msg string)) bool {
	cd := f.GetConfigDiscovery()
	if cd.GetApplyDefaultConfigWithoutWarming() && cd.GetDefaultConfig() == nil {
		fail(path+".apply_default_config_without_warming", fmt.Sprintf("Error: filter config %s applied without warming but has no default config.", f.GetName()))
		return true
	}
	required := map[string]bool{}
	for i, url := range cd.GetTypeUrls() {
		typ := url[strings.LastIndex(url, "/")+1:] // TypeUtil::typeUrlToDescriptorFullName
		if !takes(catHTTPFilter, typ) {
			fail(fmt.Sprintf("%s.type_urls[%d]", path, i), fmt.Sprintf("Error: no factory found for a required type URL %s.", typ))
			return true
		}
		required[typ] = true
	}
	def := cd.GetDefaultConfig()
	if def == nil {
		return false
	}
	typ := factoryType(def)
	if !takes(catHTTPFilter, typeName(def)) {
		fail(path+".default_config", fmt.Sprintf("Error: cannot find filter factory %s for default filter configuration with type URL %s.", f.GetName(), def.GetTypeUrl()))
		return true
	}
	if !required[typ] {
		want := make([]string, 0, len(required))
		for _, url := range cd.GetTypeUrls() { // a hash set's order in Envoy: one URL, one way
			want = append(want, url[strings.LastIndex(url, "/")+1:])
		}
		fail(path+".default_config", fmt.Sprintf("Error: filter config has type URL %s but expect %s.", typ, strings.Join(want, ", ")))
		return true
	}
	if msg := httpTerminalProblem(f.GetName(), typ, chain, last); msg != "" {
		fail(path+".default_config", msg)
		return true
	}
	return httpFilterConfigProblem(def, typ, path+".default_config", fail)
}

// httpFilterFactoryName is the name an HTTP filter's factory registers, by Envoy's convention
// from its config's package: envoy.extensions.filters.http.cors.v3.Cors is envoy.filters.http.cors.
func httpFilterFactoryName(typ string) string {
	if name := factoryName(catHTTPFilter, typ); name != "" {
		return name // the stock factory registering the type (envoy.filters.http.match_delegate)
	}
	rest := strings.TrimPrefix(typ, "envoy.extensions.filters.http.")
	if i := strings.Index(rest, "."); i > 0 {
		rest = rest[:i]
	}
	return "envoy.filters.http." + rest
}

// httpFilterConfigProblem: what an HTTP filter's own factory refuses as it builds the filter from
// config (the checks by filter, httpfilter*.go). The config is unpacked only for a type that has
// checks.
func httpFilterConfigProblem(config *anypb.Any, typ, path string, fail func(where, msg string)) bool {
	check, ok := httpFilterChecks[typ]
	if !ok || typeName(config) != typ {
		return false
	}
	where, msg := runConfigCheck(check, config, path)
	if msg == "" {
		return false
	}
	fail(where, msg)
	return true
}

// runConfigCheck unpacks config and runs check on it: the problem's path (under path) and its
// message, "" when the check passes or the config does not unpack.
func runConfigCheck(check func(proto.Message) (where, msg string), config *anypb.Any, path string) (string, string) {
	m, err := config.UnmarshalNew()
	if err != nil {
		return "", ""
	}
	where, msg := check(m)
	if where != "" {
		path += "." + where
	}
	return path, msg
}

// httpRouteConfigChecks: the same for a per-route config of that type (typed_per_filter_config).
var httpRouteConfigChecks = map[string]func(proto.Message) (where, msg string){}

// httpRouteConfigProblem: what a per-route config's factory refuses as the route table is built
// (PerFilterConfigs::createRouteSpecificFilterConfig, per_filter_config.cc:44-48).
func httpRouteConfigProblem(config *anypb.Any, path string, add addFunc) bool {
	typ := typeName(config)
	check, ok := httpRouteConfigChecks[typ]
	if !ok {
		return false
	}
	where, msg := runConfigCheck(check, config, path)
	if msg == "" {
		return false
	}
	add(stageListeners, where, msg)
	return true
}

// httpFilterChecks: per HTTP filter config type, its factory's refusals: the field path (below
// typed_config) and Envoy's message of the first, "" when none.
var httpFilterChecks = map[string]func(proto.Message) (where, msg string){}

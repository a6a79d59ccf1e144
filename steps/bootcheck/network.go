package bootcheck

import (
	"fmt"
	"strings"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	dmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/dynamic_modules/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"google.golang.org/protobuf/types/known/anypb"
)

// networkFactory is the stock factory a network filter config finds by its type (or a
// TypedStruct's), and whether it is terminal (isTerminalFilterByProto: dynamic_modules asks
// the config, the others are fixed). known is false for a type the stock build has no network
// filter for.
func networkFactory(config *anypb.Any) (name string, terminal, known bool) {
	typ := factoryType(config)
	name = factoryName(catNetworkFilter, typ) // the stock build's, extensions_gen.go
	known = name != ""
	terminal = terminalNetworkFilters[typ]
	if dm := (&dmv3.DynamicModuleNetworkFilter{}); known && typ == string(dm.ProtoReflect().Descriptor().FullName()) {
		terminal = config.UnmarshalTo(dm) == nil && dm.GetTerminalFilter()
	}
	return name, terminal, known
}

// networkFiltersProblem is ProdListenerComponentFactory::createNetworkFilterFactoryListImpl
// (listener_manager_impl.cc:72-120): each filter's factory found (extensions.go), its config
// made, its place checked (Config::Utility::validateTerminalFilters, source/common/config/
// utility.cc:390-410), then the filter's factory run.
func networkFiltersProblem(filters []*listenerv3.Filter, chainPath string, quic bool, static map[string]*clusterv3.Cluster, add addFunc) (msg, where string) {
	for k, f := range filters {
		fpath := fmt.Sprintf("%s.filters[%d]", chainPath, k)
		last := k == len(filters)-1
		if cd := f.GetConfigDiscovery(); cd != nil {
			if msg := ecdsDefaultProblem(f.GetName(), cd, last); msg != "" {
				return msg, fpath + ".config_discovery.default_config"
			}
			continue
		}
		name, terminal, known := networkFactory(f.GetTypedConfig())
		if !known {
			return "", "" // the extension check's to refuse, or not a stock filter this judges
		}
		if msg := networkTerminalProblem(f.GetName(), name, terminal, last); msg != "" {
			return msg, fpath
		}
		hcm := &hcmv3.HttpConnectionManager{}
		if name == "envoy.filters.network.http_connection_manager" && f.GetTypedConfig().UnmarshalTo(hcm) == nil {
			hcmChecks(hcm, fpath+".typed_config", quic, static, add)
			continue
		}
		if msg, field := networkFilterProblem(f.GetTypedConfig(), static); msg != "" {
			return msg, fpath + ".typed_config" + field
		}
	}
	return "", ""
}

// networkTerminalProblem is Config::Utility::validateTerminalFilters for a network chain.
func networkTerminalProblem(name, factory string, terminal, last bool) string {
	switch {
	case terminal && !last:
		return fmt.Sprintf("Error: terminal filter named %s of type %s must be the last filter in a network filter chain.", name, factory)
	case !terminal && last:
		return fmt.Sprintf("Error: non-terminal filter named %s of type %s is the last filter in a network filter chain.", name, factory)
	}
	return ""
}

// ecdsDefaultProblem: a network filter from extension config discovery is judged by its
// default_config, if it has one (FilterConfigProviderManagerImpl::getDefaultConfig,
// source/common/filter/config_discovery_impl.h:655-671): a factory for its type, a type among
// type_urls (config_discovery_impl.cc:20-27), then its place in the chain.
func ecdsDefaultProblem(name string, cd *corev3.ExtensionConfigSource, last bool) string {
	def := cd.GetDefaultConfig()
	if def == nil {
		return ""
	}
	factory, terminal, known := networkFactory(def)
	if !known {
		if takes(catNetworkFilter, factoryType(def)) {
			return "" // a network filter this does not know: not judged
		}
		return fmt.Sprintf("Error: cannot find filter factory %s for default filter configuration with type URL %s.", name, def.GetTypeUrl())
	}
	var want []string
	found := false
	for _, u := range cd.GetTypeUrls() {
		u = u[strings.LastIndex(u, "/")+1:]
		want = append(want, u)
		found = found || u == factoryType(def)
	}
	if !found {
		if len(want) > 1 { // Envoy lists a hash set: its order is not the file's
			return ""
		}
		return fmt.Sprintf("Error: filter config has type URL %s but expect %s.", factoryType(def), strings.Join(want, ", "))
	}
	return networkTerminalProblem(name, factory, terminal, last)
}

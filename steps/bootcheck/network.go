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

// networkFilterNames are the stock build's network filters (source/extensions/
// extensions_build_config.bzl), by the type their factory takes, with the name it registers
// (source/extensions/filters/network/well_known_names.h).
var networkFilterNames = map[string]string{
	"envoy.extensions.filters.network.connection_limit.v3.ConnectionLimit":               "envoy.filters.network.connection_limit",
	"envoy.extensions.filters.network.dynamic_modules.v3.DynamicModuleNetworkFilter":     "envoy.filters.network.dynamic_modules",
	"envoy.extensions.filters.network.ext_authz.v3.ExtAuthz":                             "envoy.filters.network.ext_authz",
	"envoy.extensions.filters.network.ext_proc.v3.NetworkExternalProcessor":              "envoy.filters.network.ext_proc",
	"envoy.extensions.filters.network.local_ratelimit.v3.LocalRateLimit":                 "envoy.filters.network.local_ratelimit",
	"envoy.extensions.filters.network.mongo_proxy.v3.MongoProxy":                         "envoy.filters.network.mongo_proxy",
	"envoy.extensions.filters.network.tcp_bandwidth_limit.v3.TcpBandwidthLimit":          "envoy.filters.network.tcp_bandwidth_limit",
	"envoy.extensions.filters.network.ratelimit.v3.RateLimit":                            "envoy.filters.network.ratelimit",
	"envoy.extensions.filters.network.rbac.v3.RBAC":                                      "envoy.filters.network.rbac",
	"envoy.extensions.filters.network.set_filter_state.v3.Config":                        "envoy.filters.network.set_filter_state",
	"envoy.extensions.filters.network.geoip.v3.Geoip":                                    "envoy.filters.network.geoip",
	"envoy.extensions.filters.network.sni_cluster.v3.SniCluster":                         "envoy.filters.network.sni_cluster",
	"envoy.extensions.filters.network.sni_dynamic_forward_proxy.v3.FilterConfig":         "envoy.filters.network.sni_dynamic_forward_proxy",
	"envoy.extensions.filters.network.wasm.v3.Wasm":                                      "envoy.filters.network.wasm",
	"envoy.extensions.filters.network.zookeeper_proxy.v3.ZooKeeperProxy":                 "envoy.filters.network.zookeeper_proxy",
	"envoy.extensions.filters.network.reverse_tunnel.v3.DrainAwareHttpConnectionManager": "envoy.filters.network.reverse_tunnel_drain_aware_http_connection_manager",
	"envoy.extensions.filters.network.reverse_tunnel.v3.ReverseTunnel":                   "envoy.filters.network.reverse_tunnel",
	"envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager":  "envoy.filters.network.http_connection_manager",
	"envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy":                             "envoy.filters.network.tcp_proxy",
	"envoy.extensions.filters.network.direct_response.v3.Config":                         "envoy.filters.network.direct_response",
	"envoy.extensions.filters.network.echo.v3.Echo":                                      "envoy.filters.network.echo",
	"envoy.extensions.filters.network.redis_proxy.v3.RedisProxy":                         "envoy.filters.network.redis_proxy",
	"envoy.extensions.filters.network.thrift_proxy.v3.ThriftProxy":                       "envoy.filters.network.thrift_proxy",
	"envoy.extensions.filters.network.dubbo_proxy.v3.DubboProxy":                         "envoy.filters.network.dubbo_proxy",
	"envoy.extensions.filters.network.generic_proxy.v3.GenericProxy":                     "envoy.filters.network.generic_proxy",
}

// networkFactory is the stock factory a network filter config finds by its type (or a
// TypedStruct's), and whether it is terminal (isTerminalFilterByProto: dynamic_modules asks
// the config, the others are fixed). known is false for a type the stock build has no network
// filter for.
func networkFactory(config *anypb.Any) (name string, terminal, known bool) {
	typ := factoryType(config)
	name, known = networkFilterNames[typ]
	if _, t := terminalNetworkFilters[typ]; t {
		terminal = true
	}
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

package bootcheck

import (
	"fmt"
	"strings"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
)

// cdsLocatorChecks: CDS named by cds_resources_locator. The cluster manager decodes the locator
// before it looks at cds_config (cluster_manager_impl.cc:451-458; XdsResourceIdentifier::
// decodeUrl, xds_resource.cc:171-208), then subscribes to it as a collection
// (SubscriptionFactoryImpl::collectionSubscriptionFromUrl, subscription_factory_impl.cc:159-252),
// which checks no node.
func cdsLocatorChecks(bs *bootstrapv3.Bootstrap, primary func(string) bool, add addFunc) {
	url := bs.GetDynamicResources().GetCdsResourcesLocator()
	if url == "" {
		return
	}
	const at = "dynamic_resources.cds_resources_locator"
	path := url
	if i := strings.Index(url, "://"); i >= 0 { // Http::Utility::extractHostPathFromUri
		path = url[i+3:]
	}
	rest := "/"
	if i := strings.IndexByte(path, '/'); i >= 0 {
		rest = path[i:]
	}
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		for _, c := range strings.Split(rest[i+1:], ",") {
			if !strings.HasPrefix(c, "alt=") && !strings.HasPrefix(c, "entry=") {
				add(stageSubscriptions, at, "Unknown fragment component "+c)
				return
			}
		}
		rest = rest[:i]
	}
	switch {
	case strings.HasPrefix(url, "xdstp:"):
	case strings.HasPrefix(url, "http:"):
	case strings.HasPrefix(url, "file:"):
		return // a file: needs the file
	default:
		add(stageSubscriptions, at, url+" does not have a xdstp:, http: or file: scheme")
		return
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		rest = rest[:i]
	}
	typ, _, _ := strings.Cut(rest[1:], "/")
	if typ == "" {
		add(stageSubscriptions, at, "Resource type missing from "+rest)
		return
	}
	if !strings.HasPrefix(url, "xdstp:") {
		add(stageSubscriptions, at, "Unsupported code path")
		return
	}
	const clusterType = "envoy.config.cluster.v3.Cluster"
	if typ != clusterType {
		add(stageSubscriptions, at, fmt.Sprintf("xdstp:// type does not match %s in %s", clusterType, url))
		return
	}
	cds := bs.GetDynamicResources().GetCdsConfig()
	switch src := cds.GetApiConfigSource(); {
	case src != nil:
		const where = "dynamic_resources.cds_config.api_config_source"
		if msg, bad := backingClusterProblem(src, primary); bad {
			add(stageSubscriptions, where, msg)
			return
		}
		switch src.GetApiType() {
		case corev3.ApiConfigSource_DELTA_GRPC, corev3.ApiConfigSource_AGGREGATED_GRPC, corev3.ApiConfigSource_AGGREGATED_DELTA_GRPC:
		default:
			add(stageSubscriptions, where+".api_type", "Unknown xdstp:// transport API type in "+elided)
		}
	case cds.GetAds() != nil:
	default:
		add(stageSubscriptions, "dynamic_resources.cds_config", "Missing or not supported config source specifier in envoy::config::core::v3::ConfigSource for a collection. Only ADS and gRPC in delta-xDS mode are supported.")
	}
}

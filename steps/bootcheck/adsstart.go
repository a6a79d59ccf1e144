package bootcheck

import (
	"fmt"
	"slices"
	"strings"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
)

// noADS is what the null mux says when a subscription over ADS starts with no ADS configured.
const noADS = "ADS must be configured to support an ADS config source"

// adsStartProblems keeps, of the "no ADS" refusals subscriptionChecks made for every ADS source,
// the ones Envoy meets. The null mux refuses only as a subscription starts (addWatch,
// null_grpc_mux_impl.h:23; GrpcSubscriptionImpl::start, grpc_subscription_impl.cc:40), not as it
// is made; what starts depends on the mode.
//
// In --mode validate nearly nothing starts. The CDS subscription is made and thrown away
// (config_validation/cluster_manager.cc:25-28); LDS is never made (server.cc:845 is serve mode
// only). The cluster manager's init stops once its primary clusters are up: it waits at
// WaitingToStartSecondaryInitialization (cluster_manager_impl.cc:211-218) for
// initializeSecondaryClusters, which only serve mode calls (server.cc:901). So EDS clusters and
// CDS never start, the initialized callback that would start the server's init manager
// (config_validation/server.cc:192) never runs, and with it neither do the listeners' RDS, ECDS
// and SDS subscriptions (their targets are in the server's init manager, listener_impl.cc:496).
// RTDS starts in serve mode only (server.cc:893). What does start: a primary cluster's own init
// manager, as the cluster manager adds it (cluster_manager_impl.cc:478-479, :132) — the SDS of
// its transport sockets (SdsApi::initialize, sds_api.cc:211) — once its pre-init is done, at
// once for STATIC and ORIGINAL_DST (static_cluster.cc:59, original_dst_cluster.h:186;
// upstream_impl.cc:1822), never for the DNS types, whose answers validate mode does not wait for.
//
// Served (a pod), every subscription starts in the end; a listener's last of all, once the
// clusters are up (server.cc:893-901, then the server's init manager).
func adsStartProblems(bs *bootstrapv3.Bootstrap, problems []Problem, serve bool) []Problem {
	if !slices.ContainsFunc(problems, func(p Problem) bool { return p.Message == noADS }) {
		return problems
	}
	out := make([]Problem, 0, len(problems))
	var late []Problem
	for _, p := range problems {
		switch {
		case p.Message != noADS:
			out = append(out, p)
		case !serve:
			if startsInValidate(bs, p.Path) {
				out = append(out, p)
			}
		case strings.HasPrefix(p.Path, "static_resources.listeners["):
			p.stage = stageLast
			late = append(late, p)
		default:
			out = append(out, p)
		}
	}
	return append(out, late...)
}

// startsInValidate: the ADS source at path is an SDS source of a transport socket of a static
// cluster whose pre-init completes as it is added (adsStartProblems).
func startsInValidate(bs *bootstrapv3.Bootstrap, path string) bool {
	var i int
	if _, err := fmt.Sscanf(path, "static_resources.clusters[%d]", &i); err != nil || i >= len(bs.GetStaticResources().GetClusters()) {
		return false
	}
	c := bs.GetStaticResources().GetClusters()[i]
	if c.GetClusterType() != nil || c.GetType() != clusterv3.Cluster_STATIC && c.GetType() != clusterv3.Cluster_ORIGINAL_DST {
		return false
	}
	rest := strings.TrimPrefix(path, fmt.Sprintf("static_resources.clusters[%d]", i))
	socket := strings.HasPrefix(rest, ".transport_socket.") || strings.HasPrefix(rest, ".transport_socket_matches[")
	return socket && strings.HasSuffix(rest, ".sds_config.ads")
}

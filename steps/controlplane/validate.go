package controlplane

import (
	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	"google.golang.org/protobuf/encoding/protojson"

	"ist2-boot/steps/bootcheck"
)

// Check judges resources as Envoy's build of them would, with the offline validator: they are put
// in a minimal static bootstrap (the node, the clusters, the listeners, nothing else) and the
// bootstrap is validated. A cluster Envoy would refuse over CDS it refuses there with the same
// words, since Envoy builds a static cluster and a CDS one by the same code: the bootstrap's
// clusters (source/common/upstream/cluster_manager_impl.cc:400, :419) and addOrUpdateCluster's
// (:779) both go through loadCluster (:867), which builds them with clusterFromProto (:873).
func Check(nodeID string, clusters []*clusterv3.Cluster, listeners []*listenerv3.Listener) bootcheck.Result {
	bs := &bootstrapv3.Bootstrap{
		Node:            &corev3.Node{Id: nodeID, Cluster: "practice"},
		StaticResources: &bootstrapv3.Bootstrap_StaticResources{Clusters: clusters, Listeners: listeners},
	}
	js, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(bs)
	if err != nil { // a resource that cannot be written as JSON cannot be served either
		return bootcheck.Result{Problems: []bootcheck.Problem{{Message: err.Error()}}}
	}
	return bootcheck.ValidateWith(js, bootcheck.Options{JSON: true})
}

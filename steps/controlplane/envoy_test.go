package controlplane

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	discoveryv3 "github.com/envoyproxy/go-control-plane/envoy/service/discovery/v3"
	"github.com/envoyproxy/go-control-plane/pkg/resource/v3"
	rpcstatus "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/anypb"
)

// fakeEnvoy is an ADS client that takes a response as Envoy does: it judges what it is sent with
// the offline validator (the clusters and listeners Envoy would build), ACKs what passes, and
// NACKs what does not with the error_detail Envoy would send for it. Envoy itself cannot be run
// here; this is the gRPC side of it, written with go-control-plane's generated stubs.
type fakeEnvoy struct {
	t       *testing.T
	node    *corev3.Node
	delta   bool
	conn    *grpc.ClientConn
	sotw    discoveryv3.AggregatedDiscoveryService_StreamAggregatedResourcesClient
	dstream discoveryv3.AggregatedDiscoveryService_DeltaAggregatedResourcesClient
	got     chan response
	// Accepted state, as Envoy keeps it: the clusters by name and the version last accepted per type.
	clusters map[string]*clusterv3.Cluster
	version  map[string]string
}

// response is one response off the stream, either protocol.
type response struct {
	typeURL, version, nonce string
	resources               []*anypb.Any
}

func dialEnvoy(t *testing.T, ctx context.Context, addr, nodeID string, delta bool) *fakeEnvoy {
	t.Helper()
	conn, err := grpc.NewClient("passthrough:///"+addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	e := &fakeEnvoy{t: t, node: &corev3.Node{Id: nodeID, Cluster: "practice"}, delta: delta, conn: conn,
		got: make(chan response, 16), clusters: map[string]*clusterv3.Cluster{}, version: map[string]string{}}
	ads := discoveryv3.NewAggregatedDiscoveryServiceClient(conn)
	if delta {
		e.dstream, err = ads.DeltaAggregatedResources(ctx)
	} else {
		e.sotw, err = ads.StreamAggregatedResources(ctx)
	}
	if err != nil {
		t.Fatal(err)
	}
	go e.read()
	return e
}

// read hands the responses over until the stream ends (then closes got).
func (e *fakeEnvoy) read() {
	defer close(e.got)
	for {
		var r response
		if e.delta {
			m, err := e.dstream.Recv()
			if err != nil {
				return
			}
			r = response{typeURL: m.GetTypeUrl(), version: m.GetSystemVersionInfo(), nonce: m.GetNonce()}
			for _, res := range m.GetResources() {
				r.resources = append(r.resources, res.GetResource())
			}
		} else {
			m, err := e.sotw.Recv()
			if err != nil {
				return
			}
			r = response{typeURL: m.GetTypeUrl(), version: m.GetVersionInfo(), nonce: m.GetNonce(), resources: m.GetResources()}
		}
		e.got <- r
	}
}

func (e *fakeEnvoy) close() { e.conn.Close() }

// subscribe asks for every resource of the type (a wildcard request, as Envoy's CDS and LDS over ADS).
func (e *fakeEnvoy) subscribe(typeURL string) {
	e.send(typeURL, "", nil)
}

// send is a request: the first (no nonce), an ACK (no error), or a NACK.
func (e *fakeEnvoy) send(typeURL, nonce string, nack *rpcstatus.Status) {
	e.t.Helper()
	var err error
	if e.delta {
		err = e.dstream.Send(&discoveryv3.DeltaDiscoveryRequest{Node: e.node, TypeUrl: typeURL, ResponseNonce: nonce, ErrorDetail: nack})
	} else {
		err = e.sotw.Send(&discoveryv3.DiscoveryRequest{Node: e.node, TypeUrl: typeURL, ResponseNonce: nonce,
			VersionInfo: e.version[typeURL], ErrorDetail: nack})
	}
	if err != nil {
		e.t.Fatal(err)
	}
}

// next is the next response, or nil after wait.
func (e *fakeEnvoy) next(wait time.Duration) *response {
	select {
	case r, ok := <-e.got:
		if !ok {
			return nil
		}
		return &r
	case <-time.After(wait):
		return nil
	}
}

// answer judges r and sends the ACK or the NACK, returning the NACK's detail ("" for an ACK).
func (e *fakeEnvoy) answer(r *response) string {
	e.t.Helper()
	detail := e.judge(r)
	if detail == "" {
		e.version[r.typeURL] = r.version
		e.send(r.typeURL, r.nonce, nil)
		return ""
	}
	// Envoy NACKs with code INTERNAL (13) and the exception's text cut to 4096 bytes
	// (grpc_mux_impl.cc:449-451, delta_subscription_state.cc:280-281, utility.cc:23-30).
	e.send(r.typeURL, r.nonce, &rpcstatus.Status{Code: 13, Message: truncateGrpcStatusMessage(detail)})
	return detail
}

func truncateGrpcStatusMessage(s string) string {
	if len(s) > 4096 {
		return s[:4096] + "...(truncated)"
	}
	return s
}

// resourceIndex reads the index of the static resource a problem's path is in.
var resourceIndex = regexp.MustCompile(`^static_resources\.(clusters|listeners)\[(\d+)\]`)

// judge is the error Envoy would NACK r with, "" when it takes it: the resources are built with the
// validator, each refusal named as Envoy names it.
//   - CDS: each refused cluster is "<name>: <message>" (cds_api_helper.cc, CATCH and the status of
//     addOrUpdateCluster), joined with ", " after "Error adding/updating cluster(s) "
//     (cds_api_impl.cc:109-111).
//   - LDS: each refused listener is "<name>: <message>\n", all after "Error adding/updating
//     listener(s) " (lds_api.cc:80-88, 124-125).
//
// Envoy's build stops at a resource's first refusal; the validator lists it first.
func (e *fakeEnvoy) judge(r *response) string {
	e.t.Helper()
	var clusters []*clusterv3.Cluster
	var listeners []*listenerv3.Listener
	var names []string
	for _, a := range r.resources {
		m, err := a.UnmarshalNew()
		if err != nil {
			e.t.Fatalf("%s: %v", r.typeURL, err)
		}
		switch v := m.(type) {
		case *clusterv3.Cluster:
			clusters, names = append(clusters, v), append(names, v.GetName())
		case *listenerv3.Listener:
			listeners, names = append(listeners, v), append(names, v.GetName())
		default:
			e.t.Fatalf("unexpected resource %T in %s", m, r.typeURL)
		}
	}
	if r.typeURL == resource.ListenerType { // built against the clusters Envoy has
		for _, c := range e.clusters {
			clusters = append(clusters, c)
		}
	}
	refused := map[int]string{}
	var order []int
	for _, p := range Check(e.node.GetId(), clusters, listeners).Problems {
		m := resourceIndex.FindStringSubmatch(p.Path)
		if m == nil || (m[1] == "clusters") != (r.typeURL == resource.ClusterType) {
			e.t.Fatalf("%s: a refusal outside what was sent: %s", Short(r.typeURL), p)
		}
		i, _ := strconv.Atoi(m[2])
		if _, seen := refused[i]; !seen {
			refused[i] = p.Message
			order = append(order, i)
		}
	}
	if r.typeURL == resource.ClusterType {
		for i, c := range clusters {
			if _, bad := refused[i]; !bad {
				e.clusters[c.GetName()] = c
			}
		}
	}
	if len(order) == 0 {
		return ""
	}
	var parts []string
	for _, i := range order {
		parts = append(parts, names[i]+": "+refused[i])
	}
	if r.typeURL == resource.ClusterType {
		return "Error adding/updating cluster(s) " + strings.Join(parts, ", ")
	}
	return "Error adding/updating listener(s) " + strings.Join(parts, "\n") + "\n"
}

// await waits for a response of the type.
func (e *fakeEnvoy) await(typeURL string) *response {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		r := e.next(time.Until(deadline))
		if r == nil {
			break
		}
		if r.typeURL == typeURL {
			return r
		}
		e.answer(r) // another type's, taken as Envoy takes it
	}
	e.t.Fatalf("no %s response in 10s", Short(typeURL))
	return nil
}

func (r *response) String() string {
	return fmt.Sprintf("%s version %q nonce %s (%d resources)", Short(r.typeURL), r.version, r.nonce, len(r.resources))
}

// withTimeout is a context for one test's streams.
func withTimeout(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

package controlplane

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	"github.com/envoyproxy/go-control-plane/pkg/resource/v3"
)

// events collects what the server tells, and fails the test if it tells anything once stopped.
type events struct {
	mu      sync.Mutex
	list    []Event
	stopped bool
	t       *testing.T
}

func (ev *events) log(e Event) {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if ev.stopped {
		ev.t.Errorf("told after Stop: %+v", e)
	}
	ev.list = append(ev.list, e)
}

// wait is the first event that matches, waiting up to 10 s for it.
func (ev *events) wait(match func(Event) bool) (Event, bool) {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		ev.mu.Lock()
		for _, e := range ev.list {
			if match(e) {
				ev.mu.Unlock()
				return e, true
			}
		}
		ev.mu.Unlock()
	}
	return Event{}, false
}

func (ev *events) String() string {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	var b strings.Builder
	for _, e := range ev.list {
		fmt.Fprintf(&b, "\n  %+v", e)
	}
	return b.String()
}

func (ev *events) count(match func(Event) bool) int {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	n := 0
	for _, e := range ev.list {
		if match(e) {
			n++
		}
	}
	return n
}

// start starts a server on a free loopback port for the node the fixture bootstrap names.
func start(t *testing.T, ctx context.Context, reject bool) (*Server, *events, string) {
	t.Helper()
	b, err := ReadBootstrap("testdata/bootstrap.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ev := &events{t: t}
	s, err := Start(ctx, Options{Addr: "127.0.0.1:0", NodeID: b.NodeID, Reject: reject, Log: ev.log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Stop()
		ev.mu.Lock()
		ev.stopped = true
		ev.mu.Unlock()
	})
	return s, ev, b.NodeID
}

// A client of the node gets one cluster and one listener, each of which the validator passes,
// and ACKs them; with Reject, the server then pushes a version whose cluster the validator refuses,
// the client NACKs it with Envoy's words, and the server tells that detail. The rejected version
// is not sent again. Over state of the world and delta ADS.
func TestServesTheNodeAndToldTheNACK(t *testing.T) {
	for _, delta := range []bool{false, true} {
		name := map[bool]string{false: "sotw", true: "delta"}[delta]
		t.Run(name, func(t *testing.T) {
			ctx := withTimeout(t)
			s, ev, node := start(t, ctx, true)
			envoy := dialEnvoy(t, ctx, s.Addr(), node, delta)
			defer envoy.close()

			envoy.subscribe(resource.ClusterType)
			cds := envoy.await(resource.ClusterType)
			if len(cds.resources) != 1 || cds.version != GoodVersion {
				t.Fatalf("CDS: %s", cds)
			}
			if d := envoy.answer(cds); d != "" {
				t.Fatalf("the served cluster is refused: %s", d)
			}
			envoy.subscribe(resource.ListenerType)
			lds := envoy.await(resource.ListenerType)
			if len(lds.resources) != 1 || lds.version != GoodVersion {
				t.Fatalf("LDS: %s", lds)
			}
			if d := envoy.answer(lds); d != "" {
				t.Fatalf("the served listener is refused: %s", d)
			}
			for _, typeURL := range []string{resource.ClusterType, resource.ListenerType} {
				if _, ok := ev.wait(func(e Event) bool {
					return e.Kind == Acked && e.TypeURL == typeURL && e.Version == GoodVersion && e.Delta == delta && e.NodeID == node
				}); !ok {
					t.Errorf("no ACK of %s told: %+v", Short(typeURL), ev)
				}
			}

			// The push: CDS again, at the rejected version (state of the world sends LDS again too,
			// unchanged, which is ACKed).
			bad := envoy.await(resource.ClusterType)
			if bad.version != RejectedVersion {
				t.Fatalf("after the ACKs: %s", bad)
			}
			detail := envoy.answer(bad)
			if detail == "" {
				t.Fatalf("the rejected version passes the validator")
			}
			t.Logf("NACK of %s: %q", bad, detail)
			told, ok := ev.wait(func(e Event) bool { return e.Kind == Nacked })
			if !ok {
				t.Fatalf("no NACK told: %+v", ev)
			}
			if told.Detail != detail || told.Version != RejectedVersion || told.TypeURL != resource.ClusterType || told.Nonce != bad.nonce {
				t.Errorf("told %+v\nsent detail %q for nonce %s", told, detail, bad.nonce)
			}
			if want := map[bool]string{false: envoy.version[resource.ClusterType], true: ""}[delta]; told.Kept != want || (!delta && want != GoodVersion) {
				t.Errorf("told the version kept as %q, the client kept %q", told.Kept, envoy.version[resource.ClusterType])
			}
			// A NACK is not answered by the same version again (the cache alone would resend it).
			for r := envoy.next(500 * time.Millisecond); r != nil; r = envoy.next(500 * time.Millisecond) {
				if r.typeURL == resource.ClusterType {
					t.Fatalf("sent again after the NACK: %s", r)
				}
				envoy.answer(r)
			}
			if n := ev.count(func(e Event) bool { return e.Kind == Nacked }); n != 1 {
				t.Errorf("%d NACKs told, want 1", n)
			}
		})
	}
}

// Every resource served passes the offline validator; the rejected version's cluster is refused
// by it at the cluster's endpoint address (a host name in a STATIC cluster), in Envoy's words.
func TestServedResourcesAgainstTheValidator(t *testing.T) {
	good := ServedVersion(false)
	if r := Check("n", good.Clusters, good.Listeners); !r.OK() {
		t.Errorf("version %s refused: %s", good.Version, r.Report("served"))
	}
	bad := ServedVersion(true)
	for _, l := range bad.Listeners { // its listener is built against the cluster Envoy keeps
		if r := Check("n", good.Clusters, []*listenerv3.Listener{l}); !r.OK() {
			t.Errorf("version %s's listener refused: %s", bad.Version, r.Report("served"))
		}
	}
	r := Check("n", bad.Clusters, nil)
	if r.OK() || !strings.HasPrefix(r.Problems[0].Path, "static_resources.clusters[0].load_assignment.endpoints[0].lb_endpoints[0].endpoint.address") {
		t.Fatalf("version %s's cluster: %s", bad.Version, r.Report("served"))
	}
	if p, ok := Refusal("n"); !ok || p.Message != r.Problems[0].Message || !strings.HasSuffix(r.Problems[0].Path, "."+p.Path) || p.Line != 0 {
		t.Errorf("Refusal: %v %v, the validator: %v", p, ok, r.Problems[0])
	}
	if host := bad.Clusters[0].GetLoadAssignment().GetEndpoints()[0].GetLbEndpoints()[0].GetEndpoint().GetAddress().GetSocketAddress().GetAddress(); !strings.Contains(r.Problems[0].Message, host) {
		t.Errorf("the refusal does not name the host %q: %s", host, r.Problems[0].Message)
	}
}

// A node other than the bootstrap's is told, and gets nothing.
func TestOtherNodeGetsNothing(t *testing.T) {
	ctx := withTimeout(t)
	s, ev, node := start(t, ctx, false)
	envoy := dialEnvoy(t, ctx, s.Addr(), node+"-other", false)
	defer envoy.close()
	envoy.subscribe(resource.ClusterType)
	if _, ok := ev.wait(func(e Event) bool { return e.Kind == OtherNode && e.NodeID == node+"-other" }); !ok {
		t.Errorf("the other node is not told: %+v", ev)
	}
	if r := envoy.next(300 * time.Millisecond); r != nil {
		t.Errorf("another node was served: %s", r)
	}
}

// Stop closes the port, ends the open streams and leaves no goroutine of the server's running; a
// second Stop is harmless.
func TestStopLeavesNothing(t *testing.T) {
	before := runtime.NumGoroutine()
	ctx := withTimeout(t)
	b, _ := ReadBootstrap("testdata/bootstrap.yaml")
	ev := &events{t: t}
	s, err := Start(ctx, Options{Addr: "127.0.0.1:0", NodeID: b.NodeID, Log: ev.log})
	if err != nil {
		t.Fatal(err)
	}
	addr := s.Addr()
	envoy := dialEnvoy(t, ctx, addr, b.NodeID, true)
	envoy.subscribe(resource.ClusterType)
	envoy.await(resource.ClusterType)
	began := time.Now()
	s.Stop()
	ev.mu.Lock()
	ev.stopped = true
	ev.mu.Unlock()
	if took := time.Since(began); took > stopGrace+time.Second {
		t.Errorf("Stop took %v", took)
	}
	s.Stop()
	if r := envoy.next(5 * time.Second); r != nil {
		t.Errorf("the stream outlived Stop: %s", r)
	}
	envoy.close()
	assertClosed(t, addr, s)
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines left running (%d before):\n%s", n-before, before, buf[:runtime.Stack(buf, true)])
	}
}

// A Log that does not return holds no stream up: the client is served and ACKs while it hangs,
// the events beyond the queue are dropped, Stop returns in bounded time, and Log is not called
// again after it.
func TestStuckLogHoldsNothingUp(t *testing.T) {
	ctx := withTimeout(t)
	b, _ := ReadBootstrap("testdata/bootstrap.yaml")
	release := make(chan struct{})
	var mu sync.Mutex
	calls, afterStop, stopped := 0, 0, false
	s, err := Start(ctx, Options{Addr: "127.0.0.1:0", NodeID: b.NodeID, Reject: true, Log: func(Event) {
		mu.Lock()
		calls++
		if stopped {
			afterStop++
		}
		mu.Unlock()
		<-release
	}})
	if err != nil {
		t.Fatal(err)
	}
	envoy := dialEnvoy(t, ctx, s.Addr(), b.NodeID, false)
	defer envoy.close()
	envoy.subscribe(resource.ClusterType)
	envoy.answer(envoy.await(resource.ClusterType))
	envoy.subscribe(resource.ListenerType)
	envoy.answer(envoy.await(resource.ListenerType))
	if bad := envoy.await(resource.ClusterType); bad.version != RejectedVersion {
		t.Fatalf("not pushed while the log hangs: %s", bad)
	}
	began := time.Now()
	s.Stop()
	if took := time.Since(began); took > 2*stopGrace+time.Second {
		t.Errorf("Stop took %v", took)
	}
	mu.Lock()
	stopped = true
	mu.Unlock()
	close(release)
	time.Sleep(100 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if calls != 1 || afterStop != 0 {
		t.Errorf("Log called %d times, %d after Stop", calls, afterStop)
	}
}

// Past the queue's room events are dropped, then their count is told.
func TestDroppedEventsAreCounted(t *testing.T) {
	s := &Server{opts: Options{Log: func(Event) {}}, queue: make(chan Event, 4)}
	st := &streamState{}
	for i := 0; i < 6; i++ {
		s.tell(st, Event{Kind: Sent})
	}
	if len(s.queue) != 4 || s.dropped != 2 {
		t.Fatalf("queued %d, dropped %d", len(s.queue), s.dropped)
	}
	for len(s.queue) > 1 {
		<-s.queue
	}
	s.tell(st, Event{Kind: Acked})
	<-s.queue
	if e := <-s.queue; e.Kind != Dropped || e.Count != 2 {
		t.Errorf("after the room came back: %+v", e)
	}
	if e := <-s.queue; e.Kind != Acked {
		t.Errorf("then: %+v", e)
	}
}

// A cancelled context stops the server as Stop does.
func TestCancelledContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b, _ := ReadBootstrap("testdata/bootstrap.yaml")
	s, err := Start(ctx, Options{Addr: "127.0.0.1:0", NodeID: b.NodeID})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case <-s.Done():
	case <-time.After(stopGrace + 3*time.Second):
		t.Fatal("still serving after the context ended")
	}
	assertClosed(t, s.Addr(), s)
}

// assertClosed: nothing accepts on the address any more.
func assertClosed(t *testing.T, addr string, s *Server) {
	t.Helper()
	select {
	case <-s.Done():
	default:
		t.Error("Done is not closed")
	}
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c.Close()
		t.Errorf("%s still accepts", addr)
	}
}

// Only the loopback, and only with a node.
func TestStartRefuses(t *testing.T) {
	if _, err := Start(context.Background(), Options{Addr: "0.0.0.0:0", NodeID: "n"}); !errors.Is(err, ErrNotLoopback) {
		t.Errorf("0.0.0.0: %v", err)
	}
	if _, err := Start(context.Background(), Options{Addr: "127.0.0.1:0"}); err == nil {
		t.Error("no node id: started")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if _, err := Start(context.Background(), Options{Addr: ln.Addr().String(), NodeID: "n"}); err == nil {
		t.Error("a port in use: started")
	}
}

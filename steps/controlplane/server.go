// Package controlplane is a small xDS server for the practice after the bootstrap section: an ADS
// server (state of the world and delta, whichever the learner's bootstrap asks for) on the
// loopback, built on go-control-plane's server and snapshot cache. It serves the node the
// learner's bootstrap names one cluster and one listener, so Envoy initialises and goes LIVE;
// asked to, it then pushes a version Envoy refuses, and tells each request, ACK and NACK (with the
// error detail Envoy sent) as typed events for the UI to say in the learner's language.
package controlplane

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	discoveryv3 "github.com/envoyproxy/go-control-plane/envoy/service/discovery/v3"
	"github.com/envoyproxy/go-control-plane/pkg/cache/v3"
	serverv3 "github.com/envoyproxy/go-control-plane/pkg/server/v3"
	"golang.org/x/net/netutil"
	"google.golang.org/grpc"
)

// DefaultAddr is where the server listens unless told otherwise: istiod's plain-text xDS port, on
// the loopback.
const DefaultAddr = "127.0.0.1:15010"

// Options are what Start needs.
type Options struct {
	Addr   string // host:port on the loopback; "" is DefaultAddr, port 0 any free port
	NodeID string // the node the snapshot is for: the learner's bootstrap's node.id
	// Reject: once the node has ACKed the first version of both types, push a version whose
	// cluster Envoy refuses.
	Reject bool
	// Log is told the events, one at a time, on a goroutine of the server's, never after Stop
	// returns; nil tells no one.
	Log func(Event)
}

// Limits on what clients may take: the learner's Envoy needs one connection and one stream.
const (
	maxConnections = 8
	maxStreams     = 8       // per connection
	maxMessage     = 1 << 20 // a request's size
	maxQueued      = 256     // events waiting to be told
	// stopGrace is how long Stop lets streams end by themselves before it cuts them.
	stopGrace = 2 * time.Second
)

// ErrNotLoopback: the address is not on the loopback; the server is for this machine only.
var ErrNotLoopback = errors.New("not a loopback address")

// Server is a running ADS server.
type Server struct {
	opts   Options
	ln     net.Listener
	grpc   *grpc.Server
	cache  cache.SnapshotCache
	cancel context.CancelFunc // ends the xDS server's stream loops
	served chan struct{}      // closed when Serve has returned
	stop   sync.Once
	pushes sync.WaitGroup // the reject push, when it runs

	mu      sync.Mutex // guards the queue's sending side, the streams, stopped and dropped
	stopped bool
	streams map[int64]*streamState
	// The log: events queue here and one goroutine tells them, so a UI that is slow to print
	// never holds a stream up. A full queue drops events, and says how many once it has room.
	queue     chan Event
	dropped   int
	told      chan struct{}   // closed when the teller has told the queue out
	abandoned atomic.Bool     // Stop gave up waiting for the teller: it tells nothing more
	acked     map[string]bool // type URLs the node has ACKed GoodVersion of
	pushed    bool
}

// Start listens on the address and serves until ctx ends or Stop is called.
func Start(ctx context.Context, o Options) (*Server, error) {
	if o.Addr == "" {
		o.Addr = DefaultAddr
	}
	if o.NodeID == "" {
		return nil, errors.New("no node id")
	}
	host, _, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return nil, err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("%s: %w", o.Addr, ErrNotLoopback)
	}
	s := &Server{opts: o, served: make(chan struct{}), streams: map[int64]*streamState{}, acked: map[string]bool{},
		cache: cache.NewSnapshotCache(true, cache.IDHash{}, nil), queue: make(chan Event, maxQueued), told: make(chan struct{})}
	snap, err := ServedVersion(false).snapshot()
	if err != nil {
		return nil, err
	}
	if err := s.cache.SetSnapshot(context.Background(), o.NodeID, snap); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, err
	}
	s.ln = netutil.LimitListener(ln, maxConnections)
	go s.teller()
	xctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	xds := serverv3.NewServer(xctx, s.cache, s.callbacks())
	s.grpc = grpc.NewServer(grpc.MaxRecvMsgSize(maxMessage), grpc.MaxConcurrentStreams(maxStreams),
		grpc.WaitForHandlers(true)) // Stop returns once every stream's handler has
	discoveryv3.RegisterAggregatedDiscoveryServiceServer(s.grpc, xds)
	go func() {
		defer close(s.served)
		_ = s.grpc.Serve(s.ln) // it returns when stopped; a listener error ends it too, and Done says so
	}()
	go func() {
		select {
		case <-ctx.Done():
		case <-s.served: // the listener failed: what still runs is ended all the same
		}
		s.Stop()
	}()
	return s, nil
}

// Addr is the address the server listens on (with the port chosen, when 0 was asked).
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Done is closed when the server no longer serves.
func (s *Server) Done() <-chan struct{} { return s.served }

// Stop ends every stream, closes the port and returns once nothing of the server runs: streams get
// stopGrace to end, then are cut; the events already queued are told, for as long again at most.
// Nothing is queued once it is called, and nothing told once it has returned. It may be called
// more than once.
func (s *Server) Stop() {
	s.stop.Do(func() {
		s.mu.Lock()
		s.stopped = true // from here on nothing is queued and nothing pushed
		close(s.queue)
		s.mu.Unlock()
		s.cancel()
		graceful := make(chan struct{})
		go func() { s.grpc.GracefulStop(); close(graceful) }()
		select {
		case <-graceful:
		case <-time.After(stopGrace):
			s.grpc.Stop()
			<-graceful
		}
		<-s.served
		s.pushes.Wait()
		select {
		case <-s.told:
		case <-time.After(stopGrace): // a Log that does not return is the caller's; we tell no more
			s.abandoned.Store(true)
		}
	})
}

// teller tells the queued events, and how many were dropped, until the queue is closed.
func (s *Server) teller() {
	defer close(s.told)
	for e := range s.queue {
		if s.opts.Log != nil && !s.abandoned.Load() {
			s.opts.Log(e)
		}
	}
}

// pushRejected sets the version Envoy refuses for the node, on its own goroutine: the cache answers
// open watches as it is set, and those belong to streams whose callbacks must not wait. Called with
// mu held, never once stopped.
func (s *Server) pushRejected() {
	s.pushes.Add(1)
	go func() {
		defer s.pushes.Done()
		snap, err := ServedVersion(true).snapshot()
		if err == nil {
			_ = s.cache.SetSnapshot(context.Background(), s.opts.NodeID, snap)
		}
	}()
}

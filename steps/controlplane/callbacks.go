package controlplane

import (
	"context"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	discoveryv3 "github.com/envoyproxy/go-control-plane/envoy/service/discovery/v3"
	"github.com/envoyproxy/go-control-plane/pkg/resource/v3"
	serverv3 "github.com/envoyproxy/go-control-plane/pkg/server/v3"
)

// streamState is what the server remembers of one stream: enough to name the version a nonce
// stood for, and how much the stream has logged.
type streamState struct {
	delta     bool
	node      string
	events    int
	otherNode bool              // OtherNode was told
	sent      map[string]sentAs // by type URL: the last response (older nonces are stale)
}

type sentAs struct{ nonce, version string }

// callbacks turn go-control-plane's stream callbacks into events. They run on the streams'
// goroutines; mu keeps the state and the queue of events in order.
func (s *Server) callbacks() serverv3.Callbacks {
	return serverv3.CallbackFuncs{
		StreamOpenFunc:      func(_ context.Context, id int64, _ string) error { s.opened(id, false); return nil },
		DeltaStreamOpenFunc: func(_ context.Context, id int64, _ string) error { s.opened(id, true); return nil },
		StreamClosedFunc:    func(id int64, _ *corev3.Node) { s.closed(id) },
		DeltaStreamClosedFunc: func(id int64, _ *corev3.Node) {
			s.closed(id)
		},
		StreamRequestFunc: func(id int64, req *discoveryv3.DiscoveryRequest) error {
			s.request(id, req.GetNode(), req.GetTypeUrl(), req.GetResponseNonce(), req.GetErrorDetail().GetMessage(),
				req.GetErrorDetail() != nil, req.GetVersionInfo(), req.GetResourceNames(), func(rejected string) {
					// Envoy NACKs with the version it last accepted; the snapshot cache, which knows no
					// NACK, would send the refused version again at once, and again on every NACK
					// (go-control-plane v0.14.0 pkg/cache/v3/simple.go:426-457: a request whose
					// version differs is answered). Taken as known, it is sent again only when a
					// newer one is set.
					req.VersionInfo = rejected
				})
			return nil
		},
		StreamResponseFunc: func(_ context.Context, id int64, _ *discoveryv3.DiscoveryRequest, resp *discoveryv3.DiscoveryResponse) {
			s.sent(id, resp.GetTypeUrl(), resp.GetNonce(), resp.GetVersionInfo(), names(resp.GetResources()))
		},
		StreamDeltaRequestFunc: func(id int64, req *discoveryv3.DeltaDiscoveryRequest) error {
			// Delta has no version in a request: an ACK or NACK names the response by its nonce.
			s.request(id, req.GetNode(), req.GetTypeUrl(), req.GetResponseNonce(), req.GetErrorDetail().GetMessage(),
				req.GetErrorDetail() != nil, "", req.GetResourceNamesSubscribe(), nil)
			return nil
		},
		StreamDeltaResponseFunc: func(id int64, _ *discoveryv3.DeltaDiscoveryRequest, resp *discoveryv3.DeltaDiscoveryResponse) {
			var list []string
			for _, r := range resp.GetResources() {
				list = append(list, r.GetName())
			}
			s.sent(id, resp.GetTypeUrl(), resp.GetNonce(), resp.GetSystemVersionInfo(), capNames(list))
		},
	}
}

// tell queues e for its stream, within the stream's allowance; mu is held. It never waits: when
// the queue is full, e is dropped and counted.
func (s *Server) tell(st *streamState, e Event) {
	if s.stopped || s.opts.Log == nil {
		return
	}
	if st != nil {
		st.events++
		switch {
		case st.events == MaxStreamEvents+1:
			e = Event{Kind: Quieted, Stream: e.Stream, Delta: e.Delta}
		case st.events > MaxStreamEvents:
			return
		}
	}
	if s.dropped > 0 && len(s.queue) < cap(s.queue)-1 { // room for the count and e
		s.queue <- Event{Kind: Dropped, Count: s.dropped}
		s.dropped = 0
	}
	select {
	case s.queue <- e:
	default:
		s.dropped++
	}
}

func (s *Server) opened(id int64, delta bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := &streamState{delta: delta, sent: map[string]sentAs{}}
	s.streams[id] = st
	s.tell(st, Event{Kind: StreamOpened, Stream: id, Delta: delta})
}

func (s *Server) closed(id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.streams[id]
	delete(s.streams, id)
	if st != nil {
		st.events = min(st.events, MaxStreamEvents-1) // its end is always told
		s.tell(st, Event{Kind: StreamClosed, Stream: id, Delta: st.delta, NodeID: st.node})
	}
}

// request tells a request: the first for its type, an ACK or a NACK. version is what a state of
// the world request carries (the last version the client accepted); rejected, for a NACK, is
// handed the version refused.
func (s *Server) request(id int64, node *corev3.Node, typeURL, nonce, detail string, nack bool, version string, subscribe []string, rejected func(string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.streams[id]
	if st == nil {
		return
	}
	if node.GetId() != "" {
		st.node = node.GetId()
	}
	e := Event{Stream: id, Delta: st.delta, TypeURL: typeURL, Nonce: nonce, NodeID: st.node}
	if st.node != s.opts.NodeID && !st.otherNode {
		st.otherNode = true
		s.tell(st, Event{Kind: OtherNode, Stream: id, Delta: st.delta, NodeID: st.node})
	}
	last, current := st.sent[typeURL]
	current = current && last.nonce == nonce
	switch {
	case nonce == "":
		e.Kind, e.Version, e.Resources = Requested, version, capNames(subscribe)
	case nack:
		e.Kind, e.Detail, e.Kept = Nacked, capDetail(detail), version
		if current {
			e.Version = last.version
			if rejected != nil {
				rejected(last.version)
			}
		}
	default:
		e.Kind, e.Version = Acked, version
		if current {
			e.Version = last.version
		}
		s.ackedByNode(st, typeURL, e.Version)
	}
	s.tell(st, e)
}

// ackedByNode notes an ACK of the first version by the node; once it has ACKed both types, the
// rejected version is pushed (when asked for).
func (s *Server) ackedByNode(st *streamState, typeURL, version string) {
	if st.node != s.opts.NodeID || version != GoodVersion || s.stopped {
		return
	}
	s.acked[typeURL] = true
	if s.opts.Reject && !s.pushed && s.acked[resource.ClusterType] && s.acked[resource.ListenerType] {
		s.pushed = true
		s.pushRejected()
	}
}

func (s *Server) sent(id int64, typeURL, nonce, version string, list []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.streams[id]
	if st == nil {
		return
	}
	st.sent[typeURL] = sentAs{nonce: nonce, version: version}
	s.tell(st, Event{Kind: Sent, Stream: id, Delta: st.delta, TypeURL: typeURL, Version: version, Nonce: nonce, NodeID: st.node, Resources: list})
}

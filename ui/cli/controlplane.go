package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"ist2-boot/steps/i18n"

	"ist2-boot/steps/controlplane"
)

// cmdControlPlane runs a small xDS server (ADS) on the loopback for the node the learner's
// bootstrap names, says which fields of the bootstrap's ADS cluster point Envoy at it, and tells
// each request, ACK and NACK until a signal (TERM, INT, HUP, QUIT) stops it.
func cmdControlPlane(args []string, sio IO) int {
	var g global
	fs := newFlags("control-plane", sio, &g)
	// The back-quoted word is the flag's placeholder in --help; its words are the catalog's.
	file := fs.String("bootstrap", "", "`FILE`")
	addr := fs.String("addr", controlplane.DefaultAddr, "`HOST:PORT`")
	reject := fs.Bool("reject", false, "usage.control-plane.reject")
	s, _, code := g.parseAndOpen(fs, args, sio, exactly(0))
	if s == nil {
		return code
	}
	// The practice page's copy when there is one: the lab's bootstrap.yaml is section 4's answer,
	// changed only in a copy (r7 ko H2).
	practiceCopy := s.practiceCopy()
	path := *file
	if path == "" {
		path = s.env.Path("bootstrap.yaml")
		if fi, err := os.Lstat(s.env.Path(practiceCopy)); practiceCopy != "" && err == nil && fi.Mode().IsRegular() {
			path = s.env.Path(practiceCopy)
		}
	}
	b, err := controlplane.ReadBootstrap(path)
	if err != nil {
		var be *controlplane.BootstrapError
		if errors.As(err, &be) {
			fmt.Fprintln(sio.Err, "ist2-boot: "+printable(be.In(s.lang)))
		} else {
			fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("cli.env_error", "error", err.Error()))
		}
		return exitNotPass
	}

	ctx, signalled, stop := signalContext()
	defer stop()
	var mu sync.Mutex // events come from the streams' goroutines; the start-up lines go first
	mu.Lock()
	srv, err := controlplane.Start(ctx, controlplane.Options{Addr: *addr, NodeID: b.NodeID, Reject: *reject, Log: func(e controlplane.Event) {
		mu.Lock()
		defer mu.Unlock()
		s.printEvent(e, b.NodeID)
	}})
	if err != nil {
		mu.Unlock()
		if errors.Is(err, controlplane.ErrNotLoopback) {
			fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("cp.not_loopback", "addr", *addr))
		} else {
			fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("cp.start_failed", append([]string{"addr", *addr}, i18n.ErrorArgs("error", err)...)...))
		}
		return exitNotPass
	}
	s.printStartup(b, path, srv.Addr(), *reject)
	mu.Unlock()

	<-srv.Done() // a signal cancels ctx, which stops the server
	srv.Stop()
	fmt.Fprintln(sio.Out, s.say("cp.stopped"))
	if n := signalled(); n != 0 {
		return n // 128+n, as a shell reports a command a signal ended
	}
	return exitNotPass // it stopped serving by itself
}

// printStartup says where the server listens, for which node, what it serves, and what in the
// learner's bootstrap points Envoy here.
func (s *session) printStartup(b controlplane.Bootstrap, path, addr string, reject bool) {
	out := s.io.Out
	// A file of the work dir is named by its name, as the pages name the learner's files (ko r24
	// L); one elsewhere by its path.
	file := path
	if filepath.Dir(path) == s.env.Path(".") || filepath.Dir(path) == filepath.Clean(s.env.Path("")) {
		file = filepath.Base(path)
	}
	fmt.Fprintln(out, s.sayLine("== ", "cp.head", "addr", addr))
	fmt.Fprintln(out, s.sayLine("", "cp.node", "node", printable(b.NodeID), "file", file))
	if b.Refused != nil {
		fmt.Fprintln(out, s.sayLine("", "cp.bootstrap_refused", "file", file, "problem", printable(b.Refused.Say(s.lang))))
	}
	protocol := s.say("cp.proto.sotw")
	if b.Delta {
		protocol = s.say("cp.proto.delta")
	}
	fmt.Fprintln(out, s.sayLine("", "cp.protocol", "api", b.APIType, "protocol", protocol))
	switch changes := b.Changes(addr); {
	case b.Cluster == "":
		fmt.Fprintln(out, s.sayLine("", "cp.no_ads", "file", file))
	case b.Index < 0:
		fmt.Fprintln(out, s.sayLine("", "cp.no_ads_cluster", "file", file, "cluster", printable(b.Cluster)))
	case len(changes) == 0:
		fmt.Fprintln(out, s.sayLine("", "cp.points_here", "cluster", printable(b.Cluster)))
	default:
		// HTTP/2 is kept where there is some, and said to be missing where there is none (ja r10 M13).
		http2 := i18n.Ref("cp.http2_keep")
		if !b.HTTP2 {
			http2 = i18n.Ref("cp.http2_add")
		}
		if copyName := s.practiceCopy(); copyName != "" && (path == s.env.Path("bootstrap.yaml") || controlplane.SameFile(path, s.env.Path("bootstrap.yaml"))) {
			fmt.Fprintln(out, s.sayLine("", "cp.change_copy", "file", file, "copy", copyName, "cluster", printable(b.Cluster), "http2", http2))
		} else {
			fmt.Fprintln(out, s.sayLine("", "cp.change_head", "file", file, "cluster", printable(b.Cluster), "http2", http2))
		}
		for _, c := range changes {
			from := printable(c.From)
			if from == "" {
				from = s.say("cp.none")
			}
			// The path on its line, the change under it: a path with its values ran past 120
			// columns (ko r22).
			// A path longer than the terminal parts at a dot, as the --reject line does (ko r24 M3).
			fmt.Fprintln(out, s.wrapLine("  ", "`"+c.Path+"`:"))
			fmt.Fprintf(out, "    %s → %s\n", from, c.To)
		}
	}
	if b.Index >= 0 && !b.HTTP2 {
		fmt.Fprintln(out, s.sayLine("", "cp.needs_http2", "cluster", printable(b.Cluster)))
	}
	fmt.Fprintln(out, s.sayLine("", "cp.serving", "version", controlplane.GoodVersion, "cluster", controlplane.ClusterName,
		"listener", controlplane.ListenerName, "listen", controlplane.ListenAddr))
	if reject {
		if p, ok := controlplane.Refusal(b.NodeID); ok {
			fmt.Fprintln(out, s.sayLine("", "cp.will_reject", "good", controlplane.GoodVersion, "bad", controlplane.RejectedVersion, "problem", p.Say(s.lang)))
		}
	}
	fmt.Fprintln(out, s.sayLine("", "cp.stop_hint"))
}

// printEvent says one event on a line, after the time it happened.
func (s *session) printEvent(e controlplane.Event, node string) {
	stream := fmt.Sprint(e.Stream)
	kind := controlplane.Short(e.TypeURL)
	var line string
	switch e.Kind {
	case controlplane.StreamOpened:
		protocol := s.say("cp.proto.sotw")
		if e.Delta {
			protocol = s.say("cp.proto.delta")
		}
		line = s.say("cp.stream_opened", "stream", stream, "protocol", protocol)
	case controlplane.Requested:
		line = s.say("cp.requested", "stream", stream, "node", printable(e.NodeID), "type", kind)
	case controlplane.Sent:
		line = s.say("cp.sent", "stream", stream, "type", kind, "version", printable(e.Version), "nonce", printable(e.Nonce),
			"names", printable(strings.Join(e.Resources, ", ")))
	case controlplane.Acked:
		line = s.say("cp.acked", "stream", stream, "type", kind, "version", printable(e.Version), "nonce", printable(e.Nonce))
	case controlplane.Nacked:
		key := "cp.nacked"
		if e.Version == "" {
			key = "cp.nacked_stale"
		}
		line = s.say(key, "stream", stream, "type", kind, "version", printable(e.Version), "nonce", printable(e.Nonce),
			"detail", printable(e.Detail))
		if e.Kept != "" { // on a line of its own: the detail is Envoy's, quoted to the end of its line
			line += "\n         " + s.say("cp.kept", "version", printable(e.Kept))
		}
	case controlplane.OtherNode:
		line = s.say("cp.other_node", "stream", stream, "node", printable(e.NodeID), "want", printable(node))
	case controlplane.StreamClosed:
		line = s.say("cp.stream_closed", "stream", stream)
	case controlplane.Dropped:
		line = s.say("cp.dropped", "n", fmt.Sprint(e.Count))
	case controlplane.Quieted:
		line = s.say("cp.quieted", "stream", stream, "n", fmt.Sprint(controlplane.MaxStreamEvents))
	default:
		return
	}
	fmt.Fprintln(s.io.Out, time.Now().Format("15:04:05")+" "+line)
}

// practiceCopy is the file the practice page makes first, its copy of the bootstrap pointed at
// this server ("" when the lesson has no practice page).
func (s *session) practiceCopy() string {
	for _, id := range s.lesson.PracticeIDs() {
		if sec, ok := s.lesson.Section(id); ok && len(sec.Files) > 0 {
			return sec.Files[0].Name
		}
	}
	return ""
}

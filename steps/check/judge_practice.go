package check

import (
	"errors"
	"net"
	"slices"
	"strconv"
	"strings"

	"github.com/envoyproxy/go-control-plane/pkg/resource/v3"

	"ist2-boot/steps/controlplane"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/sidecar"
)

// The practice page's judges: the copy of the bootstrap pointed at `ist2-boot control-plane`, what
// Envoy shows once that server's configuration is in, and what it shows after the server pushed a
// version it refuses. What they expect comes from the learner's bootstrap, the server's snapshot
// (steps/controlplane) and pilot-agent's rule for its counters (steps/sidecar).

// minUpdates is the fewest successful updates of each type Envoy has had once it is LIVE on the
// server's configuration: the first version, which the server sends before anything else.
const minUpdates = 1

// judgePracticeBootstrap: bootstrap.yaml with only the ADS cluster's endpoints changed, to the
// server's address, and a bootstrap Envoy takes.
func judgePracticeBootstrap(c *checker, file, text string) FileResult {
	tree, orig, bad := c.copyOfBootstrap(file, text)
	if bad != nil {
		return *bad
	}
	b, err := controlplane.ParseBootstrap(c.env.Path(file), []byte(text))
	var be *controlplane.BootstrapError
	if errors.As(err, &be) {
		return failWith(file, be.Message())
	} else if err != nil {
		return failWith(file, i18n.M("reason.unreadable", append([]string{"file", file}, i18n.ErrorArgs("error", err)...)...))
	}
	server := c.lesson.Params["practice_server"]
	host, port, _ := net.SplitHostPort(server)
	cluster, _ := at(orig, adsClusterPath...)
	facts := []fact{treeFact(tree, pathString(adsClusterPath), scalar(cluster), adsClusterPath...)}
	for _, ch := range b.Changes(server) {
		facts = append(facts, fact{Field: ch.Path, Want: ch.To, Got: ch.From, Has: ch.From != ""})
	}
	// Everything else is bootstrap.yaml as it is: compared with the endpoints put at the server.
	want := deepCopy(orig)
	pointAt(want, scalar(cluster), host, port)
	rest := fact{Field: "rest of the file", Want: "bootstrap.yaml", Got: "bootstrap.yaml", Has: true}
	diffAt := firstDifference(want, tree, "")
	if diffAt != "" {
		rest.Got = "differs at " + diffAt
	}
	v, note := c.bootstrapVerdict(file, text)
	accepted := fact{Field: "envoy --mode validate", Label: "field.envoy_verdict", Want: "OK", Got: "OK", Has: true}
	if !v.ok {
		accepted.Got = v.message
	}
	r := judgeFacts(file, append(facts, rest, accepted))
	if r.Status == Fail && r.Reason.Args["field"] == rest.Field {
		if why := c.failingOriginal(file); why != nil {
			return failWith(file, *why)
		}
		r.Reason = i18n.M("reason.practice_differs", "file", file, "path", diffAt)
	}
	r.Expected, r.Produced, r.Diff = yamlText(want), yamlText(tree), ""
	r.Note = withoutEcho(r.Reason, note)
	return r.withDiff()
}

// pointAt sets every socket address of the named static cluster's endpoints to host and port.
func pointAt(tree map[string]any, cluster, host, port string) {
	n, _ := strconv.Atoi(port)
	clusters, _ := at(tree, "static_resources", "clusters")
	for _, cl := range list(clusters) {
		if name, _ := at(cl, "name"); scalar(name) != cluster {
			continue
		}
		localities, _ := at(cl, "load_assignment", "endpoints")
		for _, loc := range list(localities) {
			lbs, _ := at(loc, "lb_endpoints")
			for _, lb := range list(lbs) {
				sa, ok := at(lb, "endpoint", "address", "socket_address")
				if m, isMap := asMap(sa); ok && isMap {
					put(m, "address", host)
					put(m, "port_value", n)
				}
			}
		}
	}
}

func list(v any) []any { l, _ := v.([]any); return l }

// put sets a field under the name the document already uses for it (proto or JSON), else the proto one.
func put(m map[string]any, name string, v any) {
	if _, ok := m[jsonName(name)]; ok {
		m[jsonName(name)] = v
		return
	}
	m[name] = v
}

// judgePracticeLive: Envoy LIVE on the server's configuration: /ready, the stream, a successful
// CDS and LDS update, and the dynamic clusters and listeners the server's first version holds.
func judgePracticeLive(c *checker, file, text string) FileResult {
	p := c.lesson.Params
	served := controlplane.ServedVersion(false)
	var clusters, listeners []string
	for _, cl := range served.Clusters {
		clusters = append(clusters, cl.GetName())
	}
	for _, l := range served.Listeners {
		listeners = append(listeners, l.GetName())
	}
	return judgeKV(file, text, []kv{
		{Key: "ready_code", Want: p["live_ready_code"]},
		{Key: "ready_body", Want: p["live_ready_body"]},
		{Key: "connected_state", Want: p["live_connected_state"]},
		atLeast("cds_update_success", minUpdates),
		atLeast("lds_update_success", minUpdates),
		sameNames("dynamic_clusters", clusters),
		sameNames("dynamic_listeners", listeners),
	})
}

// judgePracticeRejected: the counters after the server pushed the version Envoy refuses (the
// refused type's update_rejected above 0, the other's 0, both update_success still above 0),
// Envoy's warning for it, and pilot-agent's line for the counters as the file gives them.
func judgePracticeRejected(c *checker, file, text string) FileResult {
	if _, why := c.present("practice.yaml", file); why != nil {
		return failWith(file, *why)
	}
	b, err := controlplane.ReadBootstrap(c.env.Path("practice.yaml"))
	if err != nil {
		m := i18n.M("reason.depends", "file", file, "dep", "practice.yaml", "status", i18n.Ref("status.fail"))
		return failWith(file, m)
	}
	rej, ok := controlplane.Rejected(b.NodeID)
	if !ok {
		return failWith(file, i18n.M("reason.no_rule", "file", file))
	}
	rejected := func(key, typeURL string) kv {
		if rej.TypeURL == typeURL {
			return atLeast(key, 1)
		}
		return kv{Key: key, Want: "0"}
	}
	// Envoy's warning, over SotW and delta alike: a delta subscription logs `delta config for …`
	// first (delta_subscription_state.cc:282), then the same line as SotW (watch_map.cc:307-311).
	warning := rej.Warning()
	return judgeKV(file, text, []kv{
		atLeast("cds_update_success", minUpdates),
		rejected("cds_update_rejected", resource.ClusterType),
		atLeast("lds_update_success", minUpdates),
		rejected("lds_update_rejected", resource.ListenerType),
		{Key: "rejected_warning", Want: warning},
		{Key: "pilot_agent", Want: ProbeAnswer(countsIn(text))},
	})
}

// countsIn reads the four counters of a practice file (a counter not there, or not a number, is 0).
func countsIn(text string) sidecar.XDSCounts {
	n := map[string]uint64{}
	for _, l := range parseKV(text) {
		if v, err := strconv.ParseUint(l.Value, 10, 64); l.IsKV && err == nil {
			n[l.Key] = v
		}
	}
	return sidecar.XDSCounts{CDSSuccess: n["cds_update_success"], CDSRejected: n["cds_update_rejected"],
		LDSSuccess: n["lds_update_success"], LDSRejected: n["lds_update_rejected"]}
}

// ProbeAnswer is the HTTP status pilot-agent's readiness handler answers for these counters with
// Envoy LIVE: 503 while the config status has a reason, else 200
// (pilot/cmd/pilot-agent/status/server.go:539-555, handleReadyProbe; the reason: ready/probe.go:68-80,
// which sidecar.XDSCounts.ConfigStatus models). A rejection after a success leaves it at 200, and
// pilot-agent logs nothing for it: once both counts were above 0 it stops reading them (:59-61, 70-72).
func ProbeAnswer(counts sidecar.XDSCounts) string {
	if counts.ConfigStatus() != "" {
		return "503"
	}
	return "200"
}

// atLeast: a counter of at least n.
func atLeast(key string, n uint64) kv {
	return kv{Key: key, Want: strconv.FormatUint(n, 10), OK: func(got string) bool {
		v, err := strconv.ParseUint(got, 10, 64)
		return err == nil && v >= n
	}}
}

// sameNames: a comma-separated list of these names, in any order.
func sameNames(key string, names []string) kv {
	want := slices.Sorted(slices.Values(names))
	return kv{Key: key, Want: strings.Join(want, ","), OK: func(got string) bool {
		var have []string
		for _, n := range strings.Split(got, ",") {
			have = append(have, strings.TrimSpace(n))
		}
		slices.Sort(have)
		return slices.Equal(have, want)
	}}
}

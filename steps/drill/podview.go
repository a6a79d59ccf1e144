package drill

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	"gopkg.in/yaml.v3"

	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/sidecar"
)

// showPod writes what an operator sees of the drill's pod at the moment drawn for it: the pod's
// row, the proxy's Last State, the pod's Warning events and the proxy's log, each as its command
// prints it at that moment, derived from the sidecar model (steps/sidecar) and the bootstrap.
func (d *Drill) showPod(ctx context.Context, r *rand.Rand, res bootcheck.Result, unknown, envoy string) {
	failure := sidecar.NotReady
	if d.Class == Rejected {
		failure = sidecar.Rejected
	}
	parsed := res.Parsed()
	probe, proxy := d.lab.Probe, sidecar.Proxy{Shape: d.lab.Shape, Probe: d.lab.Probe}
	// The moment looked at, and Envoy's thread id: they vary per drill.
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC).Add(time.Duration(r.IntN(3600e3)) * time.Millisecond)
	thread := 14 + r.IntN(20)
	age := lookedAt(r, d.Class, proxy)
	created := now.Add(-age)
	m := sidecar.At(failure, proxy, age)
	name, namespace, ip := podIdentity(d.Bootstrap)
	d.Evidence.PodName = name
	d.Evidence.AgeSeconds, d.Evidence.Restarts = int(age.Seconds()), m.Restarts
	d.Evidence.Pod = sidecar.Table(m.Pod(name, d.lab.Shape, failure))
	state, live := serverState(parsed)
	var pushes []pushAt
	if d.Class == ConfigRejected { // LIVE once the first pushes are applied or refused
		pushes, live = pushTimes(r, d.Pushed)
	}
	uid := podUID(r)
	events := sidecar.WarningEvents(failure, proxy, age, live, ip, name+"_"+namespace+"("+uid+")", func() bool { return r.IntN(3) == 0 })
	d.Evidence.EventsCmd, d.Evidence.Events = sidecar.EventsCommand(name), sidecar.EventsTable(events, namespace)
	d.Evidence.StateCmd, d.Evidence.State = sidecar.LastStateCommand(name), sidecar.LastState(m, created, failure)
	// The pod's admin port is that of the bootstrap pilot-agent writes (ProxyAdminPort, 15000),
	// whose xDS part the drill's file stands for.
	d.Evidence.AdminCmd = fmt.Sprintf("kubectl exec %s -c istio-proxy -- curl -s -w '%%{http_code}\\n' localhost:%d/ready", name, sidecar.AdminPort)
	if d.Class == ConfigRejected {
		d.showPushed(created.Add(m.Current.Start), age-m.Current.Start, live, thread, podLogFormat(res), pushes)
		return
	}
	if d.Class == Rejected {
		// --previous: the container that ended last (kubelet's validateContainerLogStatus).
		start := created.Add(m.Last.Start)
		logs := []string{sidecar.AgentStarting(start.Add(100 * time.Millisecond))}
		if unknown != "" {
			logs = append(logs, sidecar.UnknownField(start.Add(300*time.Millisecond), thread, unknown))
		}
		// The Unknown field warning is logged while parsing (Envoy's default format); the refusal in
		// the format in force when it comes.
		d.Evidence.LogFormat = logFormatName(podLogFormat(res))
		d.log = append(logs, sidecar.Rejection(start.Add(500*time.Millisecond), thread, podLogFormat(res), d.Evidence.Message)...)
		d.Evidence.Logs = d.log[1:] // from Envoy's first line on
		d.Evidence.LogsCmd = fmt.Sprintf("kubectl logs %s -c istio-proxy --previous --tail %d", name, len(d.Evidence.Logs))
		d.Evidence.Admin = "" // kubectl exec finds no running container: the UI says so
		d.Evidence.Key = "drill.why_rejected"
		return
	}
	// The current container's log as modelled (the lines the drill's grep is about, and
	// pilot-agent's first), in time order, and what grep and head print of it.
	start, up := created.Add(m.Current.Start), age-m.Current.Start
	type line struct {
		at   time.Duration
		text string
	}
	lines := []line{{100 * time.Millisecond, sidecar.AgentStarting(start.Add(100 * time.Millisecond))}}
	add := func(at time.Duration, text string) { lines = append(lines, line{at, text}) }
	if unknown != "" {
		add(300*time.Millisecond, sidecar.UnknownField(start.Add(300*time.Millisecond), thread, unknown))
	}
	// The ADS stream never opens: Envoy warns once its closes have lasted past the back-off's
	// maximum (the message after the status depends on the network).
	method, cluster := adsStream(parsed)
	closes := sidecar.StreamCloses(400*time.Millisecond, up, r.Int64N)
	for _, at := range closes {
		if since := at - closes[0]; since > sidecar.StreamWarnedAfter {
			add(at, inFormat(sidecar.StreamClosed(start.Add(at), thread, method, cluster, since), start.Add(at), podLogFormat(res)))
		}
	}
	d.Evidence.LogFormat = logFormatName(podLogFormat(res))
	d.Evidence.Admin, d.Evidence.Key = "503 "+stateAt(parsed, up, state), "drill.why_not_ready"
	if live > 0 {
		d.Evidence.LiveAfter, d.Evidence.Trick = int(live.Seconds()), true
		d.Evidence.Key = "drill.why_live_not_ready"
		if up >= live {
			d.Evidence.Admin = "200 LIVE"
		}
		for _, t := range timedOut(parsed) {
			if t.after <= up {
				add(t.after, inFormat(sidecar.InitialFetchTimedOut(start.Add(t.after), thread, t.typeURL), start.Add(t.after), podLogFormat(res)))
			}
		}
		// From LIVE on, 15021 listens: each probe reaches pilot-agent, which logs why it is not
		// ready (pilot/cmd/pilot-agent/status/server.go handleReadyProbe).
		for i := 1; i <= probe.Threshold; i++ {
			at := time.Duration(i) * probe.Period
			if at > up {
				break
			}
			if at > live {
				add(at+2*time.Millisecond, sidecar.NotReadyLine(start.Add(at+2*time.Millisecond), sidecar.XDSCounts{}))
			}
		}
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].at < lines[j].at })
	var log []string
	for _, l := range lines {
		log = append(log, l.text)
	}
	d.log = log
	n := 4
	if live > 0 {
		n += len(timedOut(parsed)) + 1
	}
	if unknown != "" {
		n++
	}
	d.Evidence.LogsCmd = fmt.Sprintf("kubectl logs %s -c istio-proxy | grep %s | head -n %d", name, grepArgs(logPatterns), n)
	d.Evidence.Logs = head(grep(log, logPatterns), n)
	if envoy != "" && d.Evidence.Source == "envoy" {
		// Envoy accepted it: start it as the sidecar would, and read its admin port.
		// Its answers are this machine's, not the pod's: kept apart (HereReady, Connected).
		if ready, connected, port, ok := envoyStart(ctx, envoy, d.Bootstrap); ok {
			d.Evidence.HereReady, d.Evidence.Connected, d.Evidence.Started = ready, connected, true
			d.Evidence.HerePort = port
		}
	}
}

// logPatterns are what the drill's log command looks for: Envoy's warning for a field it let
// through, its config stream closing, its initial fetch giving up, its refusal of a push (and
// pilot-agent's counters of refusals), pilot-agent's reason for not being ready.
var logPatterns = []string{"Unknown field", "config stream", "initial fetch timed out", "rejected", "NOT ready"}

func grepArgs(patterns []string) string {
	var args []string
	for _, p := range patterns {
		args = append(args, "-e '"+p+"'")
	}
	return strings.Join(args, " ")
}

// grep keeps the lines holding any of patterns (fixed strings, as grep -e reads these).
func grep(lines, patterns []string) []string {
	var out []string
	for _, l := range lines {
		for _, p := range patterns {
			if strings.Contains(l, p) {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

func head(lines []string, n int) []string { return lines[:min(n, len(lines))] }

// lookedAt is when the operator looks at the pod, since it was created: a rejected pod some
// minutes to an hour in; a pod that never gets ready either within its first container's startup
// probe, or — half the drills — after one to five kills by it, when RESTARTS has climbed.
func lookedAt(r *rand.Rand, class Class, proxy sidecar.Proxy) time.Duration {
	between := func(lo, hi time.Duration) time.Duration {
		if hi <= lo {
			return lo
		}
		return lo + time.Duration(r.Int64N(int64(hi-lo)))
	}
	if class == Rejected {
		return between(2*time.Minute, time.Hour)
	}
	life := sidecar.Runs(sidecar.NotReady, proxy, 24*time.Hour)[0]
	length := life.End - life.Start
	if r.IntN(2) == 0 {
		return between(min(2*time.Minute, length/3), length*9/10) + life.Start
	}
	kills := 1 + r.IntN(5)
	runs := sidecar.Runs(sidecar.NotReady, proxy, time.Duration(kills+1)*(length+time.Minute))
	return runs[kills].Start + between(40*time.Second, length-20*time.Second)
}

// stateAt is what /ready answers up after Envoy started: the stage its initial fetches have
// reached (PRE_INITIALIZING for CDS, then INITIALIZING for LDS), never past stuck.
func stateAt(bs *bootstrapv3.Bootstrap, up time.Duration, stuck string) string {
	dyn := bs.GetDynamicResources()
	var at time.Duration
	for _, step := range []struct {
		wait  time.Duration
		set   bool
		state string
	}{{fetchTimeout(dyn.GetCdsConfig()), dyn.GetCdsConfig() != nil, "PRE_INITIALIZING"}, {fetchTimeout(dyn.GetLdsConfig()), dyn.GetLdsConfig() != nil, "INITIALIZING"}} {
		if !step.set {
			continue
		}
		if step.wait == 0 || up < at+step.wait {
			return step.state
		}
		at += step.wait
	}
	return stuck
}

// adsStream is the ADS stream's method and cluster, as Envoy names them in its warnings.
func adsStream(bs *bootstrapv3.Bootstrap) (method, cluster string) {
	ads := bs.GetDynamicResources().GetAdsConfig()
	method = "StreamAggregatedResources"
	if ads.GetApiType() == corev3.ApiConfigSource_DELTA_GRPC {
		method = "DeltaAggregatedResources"
	}
	if gs := ads.GetGrpcServices(); len(gs) > 0 {
		cluster = gs[0].GetEnvoyGrpc().GetClusterName()
	}
	return method, cluster
}

// podIdentity is the pod's name, namespace and IP from node.id (sidecar~IP~POD.NAMESPACE~DOMAIN),
// else placeholders.
func podIdentity(bootstrap string) (name, namespace, ip string) {
	name, namespace, ip = "POD", "NAMESPACE", "POD_IP"
	var doc yaml.Node
	if yaml.Unmarshal([]byte(bootstrap), &doc) != nil {
		return
	}
	if id := lookup(&doc, "node.id"); id != nil {
		if parts := strings.Split(id.Value, "~"); len(parts) == 4 {
			ip = parts[1]
			name, namespace, _ = strings.Cut(parts[2], ".")
		}
	}
	return
}

// podUID is a pod UID as the API server makes them (a random UUID).
func podUID(r *rand.Rand) string {
	var b [16]byte
	for i := range b {
		b[i] = byte(r.IntN(256))
	}
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

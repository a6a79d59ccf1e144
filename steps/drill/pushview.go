package drill

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"time"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"

	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/sidecar"
)

// drawPushed is a drill of a push fault drawn by r, never one of avoid; nil when none applies.
func drawPushed(ctx context.Context, base []byte, lab Lab, seed uint64, avoid []string, r *rand.Rand) *Drill {
	for _, i := range r.Perm(len(PushCatalogue)) {
		if f := PushCatalogue[i]; !slices.Contains(avoid, f.ID) {
			if d, ok := newPushed(ctx, base, lab, seed, f, r); ok {
				return d
			}
		}
	}
	return nil
}

// newPushed is the drill of push fault f: the bootstrap is base as it is (it passes), and what
// istiod pushes carries a resource Envoy refuses. false when the bootstrap does not take CDS and
// LDS over ADS (nothing would push them), or the draw does not apply.
func newPushed(ctx context.Context, base []byte, lab Lab, seed uint64, f PushFault, r *rand.Rand) (*Drill, bool) {
	flags := bootcheck.Options{AllowUnknownStaticFields: sidecar.AllowsUnknownFields(lab.EnvoyArgs), Serve: true}
	res := bootcheck.ValidateWith(base, flags)
	bs := res.Parsed()
	dyn := bs.GetDynamicResources()
	if !res.OK() || dyn.GetAdsConfig() == nil || dyn.GetCdsConfig().GetAds() == nil || dyn.GetLdsConfig().GetAds() == nil {
		return nil, false
	}
	p, ok := push(f, bs.GetNode().GetId(), dyn.GetAdsConfig().GetApiType() == corev3.ApiConfigSource_DELTA_GRPC, r)
	if !ok {
		return nil, false
	}
	d := &Drill{Seed: seed, Fault: f.ID, Class: ConfigRejected, Field: typesWord(p.Rejected()), Bootstrap: string(base),
		base: base, lab: lab, Pushed: p, Sidecar: string(lab.Shape)}
	d.Evidence.Source = "validator"
	for _, t := range p.Types {
		if d.Evidence.Message == "" {
			d.Evidence.Message = t.Message
		}
	}
	d.showPod(ctx, rand.New(rand.NewPCG(seed, 0x5eed)), res, "", "")
	return d, true
}

// typeWords are the xDS types by the short names pilot-agent's counters and Envoy's stats use.
var typeWords = map[string]string{sidecar.ClusterType: "CDS", sidecar.ListenerType: "LDS"}

// typesWord names the rejected types as the field question's answer: "CDS", "LDS", "CDS+LDS".
func typesWord(types []string) string {
	var w []string
	for _, t := range types {
		w = append(w, typeWords[t])
	}
	return strings.Join(w, "+")
}

// pushAt is one type's push reaching Envoy, after the container started.
type pushAt struct {
	at time.Duration
	t  PushedType
}

// pushTimes are when the pushes reach Envoy and when it is LIVE, after the container started:
// Envoy asks for CDS as ADS opens (pilot-agent starts it, its stream goes through pilot-agent's
// xDS proxy to istiod), for LDS once the cluster manager has initialised — which a refused CDS
// push does too (cds_api_impl.cc:108, :120-126) — and is LIVE once the LDS push is applied or
// refused (lds_api.cc:123, :151-157 release the init target). istiod answers each request once and
// does not push again for a NACK (Istio pkg/xds/server.go:359-367): one push of each type per
// stream while nothing in the mesh changes.
func pushTimes(r *rand.Rand, p *Pushed) ([]pushAt, time.Duration) {
	at := time.Duration(600+r.IntN(900)) * time.Millisecond
	var out []pushAt
	for i, t := range p.Types {
		if i > 0 {
			at += time.Duration(20+r.IntN(100)) * time.Millisecond
		}
		out = append(out, pushAt{at, t})
	}
	return out, at + 5*time.Millisecond
}

// showPushed writes the log of the current container of a sidecar whose pushes Envoy refuses:
// Envoy's warnings for each refused push, then — from LIVE on, when 15021 listens and kubelet's
// probes reach pilot-agent — pilot-agent's reason for each 503, from the counters as they stand.
func (d *Drill) showPushed(start time.Time, up, live time.Duration, thread int, pattern string, pushes []pushAt) {
	type line struct {
		at   time.Duration
		text string
	}
	lines := []line{{100 * time.Millisecond, sidecar.AgentStarting(start.Add(100 * time.Millisecond))}}
	add := func(at time.Duration, l sidecar.EnvoyLine) {
		// A message may end in a newline (LDS's): the log has it as two lines.
		for i, text := range strings.Split(l.Format(pattern), "\n") {
			lines = append(lines, line{at + time.Duration(i), text})
		}
	}
	for _, p := range pushes {
		if p.at > up {
			break
		}
		for _, ref := range p.t.Refused {
			add(p.at, sidecar.ResourceRejected(start.Add(p.at), thread, p.t.TypeURL, ref))
		}
		for _, l := range sidecar.PushRejected(start.Add(p.at+time.Millisecond), thread, p.t.TypeURL, p.t.Message, d.Pushed.Delta) {
			if p.t.Message != "" {
				add(p.at+time.Millisecond, l)
			}
		}
	}
	counts := func(at time.Duration) sidecar.XDSCounts {
		var c sidecar.XDSCounts
		for _, p := range pushes {
			if p.at < at {
				c.Count(p.t.TypeURL, len(p.t.Refused) > 0)
			}
		}
		return c
	}
	probe := d.lab.Probe
	for i := 1; i <= probe.Threshold; i++ {
		at := time.Duration(i) * probe.Period
		if at > up {
			break
		}
		if at > live {
			lines = append(lines, line{at + 2*time.Millisecond, sidecar.NotReadyLine(start.Add(at+2*time.Millisecond), counts(at))})
		}
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].at < lines[j].at })
	d.log = nil
	for _, l := range lines {
		d.log = append(d.log, l.text)
	}
	now := counts(up)
	d.Evidence.Counts = &now
	// /ready: PRE_INITIALIZING until CDS is applied or refused, INITIALIZING until LDS is, then LIVE.
	d.Evidence.Admin = "200 LIVE"
	switch {
	case len(pushes) > 0 && up < pushes[0].at:
		d.Evidence.Admin = "503 PRE_INITIALIZING"
	case up < live:
		d.Evidence.Admin = "503 INITIALIZING"
	}
	// What grep and head print: every warning of the first pushes, then pilot-agent's first lines.
	n := 2
	for _, l := range grep(d.log, logPatterns) {
		if !strings.Contains(l, "NOT ready") {
			n++
		}
	}
	d.Evidence.LogsCmd = fmt.Sprintf("kubectl logs %s -c istio-proxy | grep %s | head -n %d", d.Evidence.PodName, grepArgs(logPatterns), n)
	d.Evidence.Logs = head(grep(d.log, logPatterns), n)
	d.Evidence.LogFormat = logFormatName(pattern)
	d.Evidence.Key = "drill.why_config_rejected"
}

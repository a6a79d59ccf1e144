package drill

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"

	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/sidecar"
)

// judge decides what the sidecar does with the drill's bootstrap: Envoy as pilot-agent starts it
// (its flags decide how unknown fields are met), judged by the validator — or by Envoy's own
// --mode validate with the same flag where it is installed — and then what the pod shows.
func (d *Drill) judge(ctx context.Context, envoy string) {
	r := rand.New(rand.NewPCG(d.Seed, 0x5eed))
	d.Sidecar = string(d.lab.Shape)
	args := d.lab.EnvoyArgs
	res := bootcheck.ValidateWith([]byte(d.Bootstrap), bootcheck.Options{AllowUnknownStaticFields: sidecar.AllowsUnknownFields(args), Serve: true})
	bare := bootcheck.Validate([]byte(d.Bootstrap))
	var unknown string
	for _, w := range res.Warnings {
		d.Evidence.Warnings = append(d.Evidence.Warnings, w.Message)
		if unknown == "" && strings.HasPrefix(w.Message, "Unknown field: ") {
			unknown = w.Message
		}
	}
	d.Class, d.Evidence.Source = NotReady, "documented"
	if !res.OK() {
		d.Class, d.Evidence.Source = Rejected, "validator"
		d.Evidence.Message, d.Evidence.Line = res.Problems[0].Message, res.Problems[0].Line
	}
	if !bare.OK() && (res.OK() || bare.Problems[0].Message != res.Problems[0].Message) {
		d.Evidence.Bare = bare.Problems[0].Message
	}
	if envoy != "" {
		if rc, out, ok := envoyValidate(ctx, envoy, d.Bootstrap, "--allow-unknown-static-fields"); ok {
			d.Evidence.Source = "envoy"
			if rc != 0 {
				d.Class, d.Evidence.Message = Rejected, envoyReason(lastLine(out))
			} else {
				d.Class = NotReady
			}
		}
	}
	d.showPod(ctx, r, res, unknown, envoy)
}

// envoyReason is the message of Envoy's --mode validate line ("… error initializing
// configuration '<file>': <message>"): the part a sidecar's serve-mode line carries too.
func envoyReason(line string) string {
	const mark = "error initializing configuration '"
	if i := strings.Index(line, mark); i >= 0 {
		if j := strings.Index(line[i+len(mark):], "': "); j >= 0 {
			return line[i+len(mark)+j+3:]
		}
	}
	return line
}

// fetchTimeout is a config source's initial_fetch_timeout: 15 s when left out, 0 for none.
func fetchTimeout(cs *corev3.ConfigSource) time.Duration {
	if cs.GetInitialFetchTimeout() == nil {
		return 15 * time.Second
	}
	return cs.GetInitialFetchTimeout().AsDuration()
}

// serverState is what /ready answers while nothing comes from the server, and, when every
// subscription's initial fetch has a time limit, how long until Envoy is LIVE regardless. The
// cluster manager waits for CDS (PRE_INITIALIZING), then the listener manager for LDS
// (INITIALIZING); an initial_fetch_timeout of 0 waits for ever (grpc_subscription_impl.cc arms
// its timer only above 0; server_info_handler.cc answers the state's name).
func serverState(bs *bootstrapv3.Bootstrap) (string, time.Duration) {
	var total time.Duration
	dyn := bs.GetDynamicResources()
	for _, step := range []struct {
		cs    *corev3.ConfigSource
		state string
	}{{dyn.GetCdsConfig(), "PRE_INITIALIZING"}, {dyn.GetLdsConfig(), "INITIALIZING"}} {
		if step.cs == nil {
			continue
		}
		t := fetchTimeout(step.cs)
		if t == 0 {
			return step.state, 0
		}
		total += t
	}
	return "LIVE", total
}

type timeout struct {
	after   time.Duration
	typeURL string
}

// timedOut are the initial fetches that give up, in order, and when.
func timedOut(bs *bootstrapv3.Bootstrap) []timeout {
	var out []timeout
	var at time.Duration
	dyn := bs.GetDynamicResources()
	for _, s := range []struct {
		cs      *corev3.ConfigSource
		typeURL string
	}{{dyn.GetCdsConfig(), "type.googleapis.com/envoy.config.cluster.v3.Cluster"}, {dyn.GetLdsConfig(), "type.googleapis.com/envoy.config.listener.v3.Listener"}} {
		if s.cs != nil {
			at += fetchTimeout(s.cs)
			out = append(out, timeout{at, s.typeURL})
		}
	}
	return out
}

// Shown is one command an operator runs and what it prints.
type Shown struct {
	Cmd   string
	Lines []string
}

// Seen is what the operator looks at before answering, in the order an operator would run it:
// the pod, the proxy's Last State, the pod's Warning events, the proxy's log.
func (d *Drill) Seen() []Shown {
	return []Shown{
		{"kubectl get pod " + d.Evidence.PodName, strings.Split(d.Evidence.Pod, "\n")},
		{d.Evidence.StateCmd, d.Evidence.State},
		{d.Evidence.EventsCmd, d.Evidence.Events},
		{d.Evidence.LogsCmd, d.Evidence.Logs},
	}
}

// AdminLines are what the admin command prints in the pod: /ready's body (the state's name), then
// the HTTP code curl's -w adds; nil when Envoy has exited.
func (d *Drill) AdminLines() []string {
	code, body, ok := strings.Cut(d.Evidence.Admin, " ")
	if !ok {
		return nil
	}
	return []string{body, code}
}

// HereLines are the commands and answers of the Envoy the drill started on this machine (without
// pilot-agent or istiod): this machine's voice, shown apart from the pod's.
func (d *Drill) HereLines() []string {
	if !d.Evidence.Started {
		return nil
	}
	admin := fmt.Sprintf("localhost:%d", d.Evidence.HerePort)
	return []string{"$ curl -s " + admin + "/ready", d.Evidence.HereReady,
		"$ curl -s '" + admin + "/stats?filter=control_plane.connected_state'", "control_plane.connected_state: " + d.Evidence.Connected}
}

package drill

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"

	"ist2-boot/steps/controlplane"
	"ist2-boot/steps/sidecar"
)

const testNode = "sidecar~10.0.0.7~payments-6d5f9.default~default.svc.cluster.local"

// Every kind of bad resource, made from what the control plane serves, is one the validator
// refuses at the stage Envoy builds it (so CDS's and LDS's words are the static bootstrap's), and
// the control plane's own resources are accepted beside it.
func TestEveryBadResourceIsRefusedByTheValidator(t *testing.T) {
	good := controlplane.ServedVersion(false)
	if r := controlplane.Check(testNode, good.Clusters, good.Listeners); !r.OK() {
		t.Fatalf("the served version is refused: %v", r.Problems)
	}
	for _, k := range badClusters {
		r := controlplane.Check(testNode, []*clusterv3.Cluster{k.make(good.Clusters[0])}, nil)
		if r.OK() || !r.Problems[0].Built() {
			t.Errorf("cluster %s: %+v", k.kind, r.Problems)
		}
	}
	for _, k := range badListeners {
		r := controlplane.Check(testNode, good.Clusters, []*listenerv3.Listener{k.make(good.Listeners[0])})
		if r.OK() || !r.Problems[0].Built() {
			t.Errorf("listener %s: %+v", k.kind, r.Problems)
		}
	}
}

// A push fault refuses exactly its types; each refused type's message is Envoy's UpdateError of
// the validator's reasons.
func TestPushRefusesTheFaultsTypes(t *testing.T) {
	for _, f := range PushCatalogue {
		for i := uint64(0); i < 20; i++ {
			p, ok := push(f, testNode, false, rand.New(rand.NewPCG(i, 1)))
			if !ok {
				t.Fatalf("%s: the draw %d does not apply", f.ID, i)
			}
			if !slices.Equal(p.Rejected(), f.Types) {
				t.Errorf("%s: refused %v", f.ID, p.Rejected())
			}
			for _, ty := range p.Types {
				if len(ty.Refused) > 0 && ty.Message != sidecar.UpdateError(ty.TypeURL, ty.Refused) {
					t.Errorf("%s: %q", f.ID, ty.Message)
				}
			}
		}
	}
}

// The evidence of a refused push follows Envoy's and pilot-agent's code paths: the counters are
// the pushes counted as the subscriptions count them; every NOT ready line is ConfigStatus of
// those counters; every refused type has Envoy's per-resource and per-push warnings; the pod
// shows Envoy LIVE and the probe's 503. Where both updates failed, pilot-agent's first sentence
// is the one it gives when nothing came at all, and only the counters' tail differs.
func TestPushedEvidenceFollowsTheCodePaths(t *testing.T) {
	seen := map[string]bool{}
	both := false
	for seed := uint64(0); seed < 400; seed++ {
		d, err := New(base(t), testLab(t), seed, "", "")
		if err != nil {
			t.Fatal(err)
		}
		if d.Class != ConfigRejected {
			continue
		}
		seen[d.Fault] = true
		var want sidecar.XDSCounts
		for _, ty := range d.Pushed.Types {
			want.Count(ty.TypeURL, len(ty.Refused) > 0)
		}
		if d.Evidence.Counts == nil || *d.Evidence.Counts != want {
			t.Fatalf("seed %d: counts %+v, want %+v", seed, d.Evidence.Counts, want)
		}
		logs := strings.Join(d.Evidence.Logs, "\n")
		notReady := 0
		for _, l := range d.Evidence.Logs {
			if strings.Contains(l, "NOT ready") {
				notReady++
				if !strings.HasSuffix(l, "\tEnvoy proxy is NOT ready: "+want.ConfigStatus()) {
					t.Errorf("seed %d: %q", seed, l)
				}
			}
		}
		if notReady == 0 {
			t.Errorf("seed %d: no pilot-agent line in\n%s", seed, logs)
		}
		for _, ty := range d.Pushed.Types {
			msg, _, _ := strings.Cut(ty.Message, "\n") // LDS's ends its line: the rest is the next
			grpc := "gRPC config for " + ty.TypeURL + " rejected: " + msg
			if (len(ty.Refused) > 0) != strings.Contains(logs, grpc) {
				t.Errorf("seed %d: %s refused %v; the log:\n%s", seed, ty.TypeURL, ty.Refused, logs)
			}
			for _, ref := range ty.Refused {
				if l := sidecar.ResourceRejected(time.Time{}, 0, ty.TypeURL, ref); !strings.Contains(logs, l.Msg) {
					t.Errorf("seed %d: no %q", seed, l.Msg)
				}
			}
		}
		if want.CDSSuccess == 0 && want.LDSSuccess == 0 {
			both = true
			nothing, _, _ := strings.Cut(sidecar.XDSCounts{}.ConfigStatus(), ": ")
			if !strings.HasPrefix(want.ConfigStatus(), nothing+": ") || !strings.HasSuffix(logs, want.String()) {
				t.Errorf("seed %d: both refused, yet\n%s", seed, logs)
			}
		}
		if d.Evidence.Admin != "200 LIVE" || d.Evidence.LogFormat != "istio" {
			t.Errorf("seed %d: %s %s", seed, d.Evidence.Admin, d.Evidence.LogFormat)
		}
		// What the pod, its state, its events and /ready show never names a type: the logs are
		// needed for the where.
		other := d.Evidence.Pod + strings.Join(d.Evidence.State, "\n") + strings.Join(d.Evidence.Events, "\n") + d.Evidence.Admin
		for _, word := range []string{sidecar.ClusterType, sidecar.ListenerType, typeWords[sidecar.ClusterType], typeWords[sidecar.ListenerType], "cds", "lds"} {
			if strings.Contains(other, word) {
				t.Errorf("seed %d: %q outside the logs", seed, word)
			}
		}
	}
	if len(seen) != len(PushCatalogue) || !both {
		t.Errorf("push faults drawn: %v; both refused: %v", seen, both)
	}
}

// Over delta xDS (the sidecar's default, I6) each NACK is logged twice: the delta state's line,
// then the subscription's; the types are answered by name, by type or by a refused resource.
func TestDeltaPushesAndTheirAnswers(t *testing.T) {
	delta := []byte(strings.Replace(string(base(t)), "api_type: GRPC", "api_type: DELTA_GRPC", 1))
	drawn := 0
	for seed := uint64(0); seed < 200; seed++ {
		d, err := New(delta, testLab(t), seed, "", "")
		if err != nil {
			t.Fatal(err)
		}
		if d.Class != ConfigRejected {
			continue
		}
		drawn++
		logs := strings.Join(d.Evidence.Logs, "\n")
		for _, ty := range d.Pushed.Rejected() {
			pair := sidecar.PushRejected(time.Time{}, 0, ty, "", true)
			first, second := strings.Index(logs, strings.TrimSuffix(pair[0].Msg, " ")), strings.Index(logs, strings.TrimSuffix(pair[1].Msg, " "))
			if !d.Pushed.Delta || len(pair) != 2 || first < 0 || second < first {
				t.Errorf("seed %d: %s over delta:\n%s", seed, ty, logs)
			}
		}
		if !d.JudgeField(d.Field).Right || !d.JudgeField(strings.ToLower(d.Field)).Right {
			t.Errorf("seed %d: %s judged wrong", seed, d.Field)
		}
		for _, c := range d.FieldChoices() {
			if c != d.Field && d.JudgeField(c).Right {
				t.Errorf("seed %d: %s judged right for %s", seed, c, d.Field)
			}
		}
		if r := d.Pushed.Rejected(); len(r) == 1 {
			for _, ty := range d.Pushed.Types {
				for _, ref := range ty.Refused {
					if !d.JudgeField(ref.Name).Right {
						t.Errorf("seed %d: the refused %s judged wrong", seed, ref.Name)
					}
				}
			}
		}
		for _, both := range []string{"both", "둘 다", "둘다", "两类都", "両方"} { // as each language says it (ko r8 KO-01)
			if !d.JudgeField(both).Right != (len(d.Pushed.Rejected()) == 1) {
				t.Errorf("seed %d: %q, for %s", seed, both, d.Field)
			}
		}
		if d.NamesPushed("xyz") || !d.NamesPushed("cds") {
			t.Errorf("seed %d: xyz or cds misread", seed)
		}
	}
	if drawn == 0 {
		t.Fatal("no refused push drawn")
	}
}

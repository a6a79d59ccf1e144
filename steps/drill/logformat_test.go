package drill

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/sidecar"
)

// The format the drill gives Envoy's lines after parsing is the one in Istio's own bootstrap
// golden (pkg/bootstrap/testdata, copied under bootcheck's fixtures), not one written here.
func TestIstioLogFormatIsPilotAgents(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "bootcheck", "testdata", "istio", "default_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var bs struct {
		ApplicationLogConfig struct {
			LogFormat struct {
				TextFormat string `json:"text_format"`
			} `json:"log_format"`
		} `json:"application_log_config"`
	}
	if err := json.Unmarshal(raw, &bs); err != nil {
		t.Fatal(err)
	}
	if got := bs.ApplicationLogConfig.LogFormat.TextFormat; got != istioLogFormat {
		t.Errorf("pilot-agent's bootstrap logs in %q, the drill in %q", got, istioLogFormat)
	}
}

// A line of the sidecar model rewritten in Istio's format keeps every part of it, at the
// caller's time; in the default format it is the model's line unchanged.
func TestInFormat(t *testing.T) {
	at := time.Date(2026, 12, 1, 9, 0, 1, 234567000, time.UTC)
	line := sidecar.InitialFetchTimedOut(at, 21, "type.googleapis.com/envoy.config.cluster.v3.Cluster")
	if got := inFormat(line, at, sidecar.DefaultLogFormat); got != line {
		t.Errorf("default format changed the line: %s", got)
	}
	want := "2026-12-01T09:00:01.234567Z\twarning\tenvoy config " + sidecar.SourceRoot +
		"source/extensions/config_subscription/grpc/grpc_subscription_impl.cc:…\tgRPC config: initial fetch timed out for type.googleapis.com/envoy.config.cluster.v3.Cluster\tthread=21"
	if got := inFormat(line, at, istioLogFormat); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := inFormat("not envoy's", at, istioLogFormat); got != "not envoy's" {
		t.Error(got)
	}
}

// Envoy's refusal is in Istio's format when the bootstrap parsed and failed later, in Envoy's
// default when it failed to parse; a warning logged while parsing is in the default either way.
// The stage is the validator's, for any bootstrap: here every rejecting fault of the catalogue,
// and a port no socket address may have (a constraint checked while parsing).
func TestRefusalFormatFollowsTheStage(t *testing.T) {
	broken := strings.Replace(string(base(t)), "port_value: 9982", "port_value: 99982", 1)
	if broken == string(base(t)) {
		t.Fatal("the fixture's admin port moved: pick another field to break")
	}
	d := &Drill{Bootstrap: broken, lab: testLab(t)}
	d.judge(context.Background(), "")
	drills := []*Drill{d}
	for seed := uint64(0); seed < 60; seed++ {
		d, err := New(base(t), testLab(t), seed, "", "")
		if err != nil {
			t.Fatal(err)
		}
		drills = append(drills, d)
	}
	stages := map[string]int{}
	for _, d := range drills {
		if d.Class != Rejected {
			continue
		}
		res := bootcheck.ValidateWith([]byte(d.Bootstrap), bootcheck.Options{AllowUnknownStaticFields: true})
		critical, parsed := "\tcritical\tenvoy main ", res.Problems[0].Built()
		if !parsed {
			critical = "[critical][main]"
		}
		stages[d.Evidence.LogFormat]++
		logs := strings.Join(d.Evidence.Logs, "\n")
		if !strings.Contains(logs, critical) || (d.Evidence.LogFormat == "istio") != parsed {
			t.Errorf("%s (parsed: %v, %s):\n%s", d.Fault, parsed, d.Evidence.LogFormat, logs)
		}
		if strings.Contains(logs, "Unknown field") && !strings.Contains(logs, "[warning][config]") {
			t.Errorf("%s: a warning met while parsing, not in Envoy's default format:\n%s", d.Fault, logs)
		}
	}
	if stages["istio"] == 0 || stages["envoy"] == 0 {
		t.Errorf("both stages should be met: %v", stages)
	}
}

package drill

import (
	"encoding/json"
	"strings"
	"testing"
)

// Over many seeds, every drill shows what a sidecar shows: a rejection carries Envoy's serve-mode
// line, the bare message and pilot-agent's exit line; no drill shows --mode validate's words, the
// pre-23 protobuf wording, the old V2 text, or a rejection caused by an unknown field (pilot-agent
// lets those through). Both pod forms occur, and the JSON says which.
func TestDrillsShowWhatASidecarShows(t *testing.T) {
	shapes := map[string]int{}
	differs := 0
	for seed := uint64(0); seed < 200; seed++ {
		d, err := New(base(t), seed, "", "")
		if err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(d)
		var out struct {
			Sidecar string `json:"sidecar"`
		}
		_ = json.Unmarshal(js, &out)
		shapes[out.Sidecar]++
		logs := strings.Join(d.Evidence.Logs, "\n")
		for _, banned := range []string{"error initializing configuration", "Cannot find field.", "V2 (and AUTO)"} {
			if strings.Contains(logs+d.Evidence.Message, banned) {
				t.Errorf("seed %d (%s): %q in\n%s", seed, d.Fault, banned, logs)
			}
		}
		if d.Class == Rejected {
			if !strings.Contains(logs, "[critical][main]") || !strings.Contains(logs, "error `"+d.Evidence.Message+"` initializing config '") ||
				!strings.Contains(logs, "\n"+d.Evidence.Message+"\n") || !strings.HasSuffix(logs, "\terror\tEnvoy exited with error: exit status 1") {
				t.Errorf("seed %d (%s): not the serve-mode signature:\n%s", seed, d.Fault, logs)
			}
			if strings.Contains(d.Evidence.Message, "has unknown fields") {
				t.Errorf("seed %d (%s): rejected for an unknown field: %s", seed, d.Fault, d.Evidence.Message)
			}
			if !strings.Contains(d.Evidence.LogsCmd, "--previous") {
				t.Errorf("seed %d: %s", seed, d.Evidence.LogsCmd)
			}
		} else if !strings.Contains(logs, "Envoy proxy is NOT ready: config not received from XDS server (is Istiod running?): cds updates: 0 successful, 0 rejected; lds updates: 0 successful, 0 rejected") {
			t.Errorf("seed %d (%s): no readiness line:\n%s", seed, d.Fault, logs)
		}
		if d.Evidence.Bare != "" {
			differs++
			if !strings.HasSuffix(d.Evidence.Bare, "has unknown fields") || !strings.Contains(logs, "[warning][config]") || !strings.Contains(logs, "Unknown field: ") {
				t.Errorf("seed %d (%s): envoy -c says %q; the sidecar's log:\n%s", seed, d.Fault, d.Evidence.Bare, logs)
			}
		}
	}
	if shapes["classic"] == 0 || shapes["native"] == 0 || len(shapes) != 2 {
		t.Errorf("pod forms drawn: %v", shapes)
	}
	if differs == 0 {
		t.Error("no drill where envoy -c and the sidecar differ")
	}
}

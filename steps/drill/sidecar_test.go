package drill

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"ist2-boot/steps/sidecar"
)

// Over many seeds, every drill shows what a sidecar shows: a rejection carries Envoy's serve-mode
// line, the bare message and pilot-agent's exit line; no drill shows --mode validate's words, the
// pre-23 protobuf wording, the old V2 text, or a rejection caused by an unknown field (pilot-agent
// lets those through). A rejected pod's events carry kubelet's back-off, a not-ready one's the
// probe refused on 15021, and no pilot-agent answer before Envoy is LIVE; a third of the not-ready
// drills are looked at after the startup probe restarted the proxy. The pod's form is the lab's.
func TestDrillsShowWhatASidecarShows(t *testing.T) {
	shapes := map[string]int{}
	differs, notReady, late := 0, 0, 0
	for seed := uint64(0); seed < 200; seed++ {
		d, err := New(base(t), testLab(t), seed, "", "")
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
			if !strings.Contains(logs, "critical") || !strings.Contains(logs, "error `"+d.Evidence.Message+"` initializing config '") ||
				!strings.Contains(logs, "\n"+d.Evidence.Message+"\n") || !strings.HasSuffix(logs, "\terror\tEnvoy exited with error: exit status 1") {
				t.Errorf("seed %d (%s): not the serve-mode signature:\n%s", seed, d.Fault, logs)
			}
			if strings.Contains(d.Evidence.Message, "has unknown fields") {
				t.Errorf("seed %d (%s): rejected for an unknown field: %s", seed, d.Fault, d.Evidence.Message)
			}
			if !strings.Contains(d.Evidence.LogsCmd, "--previous") {
				t.Errorf("seed %d: %s", seed, d.Evidence.LogsCmd)
			}
		}
		events := strings.Join(d.Evidence.Events, "\n")
		switch {
		case d.Class == Rejected:
			if !regexp.MustCompile(`(?m)^BackOff +Back-off restarting failed container istio-proxy in pod `).MatchString(events) {
				t.Errorf("seed %d (%s): a rejected drill without kubelet's back-off:\n%s", seed, d.Fault, events)
			}
		case d.Class == ConfigRejected:
			// Envoy is LIVE within seconds of each start: pilot-agent's 503, and no back-off.
			if !strings.Contains(events, "Startup probe failed: HTTP probe failed with statuscode: 503") || strings.Contains(events, "BackOff") {
				t.Errorf("seed %d (%s): a refused push's events:\n%s", seed, d.Fault, events)
			}
		default:
			if !strings.Contains(events, `Startup probe failed: Get "http://10.0.0.7:15021/healthz/ready": dial tcp 10.0.0.7:15021: connect: connection refused`) {
				t.Errorf("seed %d (%s): a not-ready drill without the refused probe:\n%s", seed, d.Fault, events)
			}
			notReady++
			if d.Evidence.Restarts > 0 {
				late++
			}
			// Before Envoy is LIVE nothing listens on 15021: no probe reaches pilot-agent.
			if d.Evidence.Admin != "200 LIVE" && (strings.Contains(logs, "NOT ready") || strings.Contains(events, "statuscode: 503")) {
				t.Errorf("seed %d (%s): /ready %q, yet pilot-agent answered a probe:\n%s\n%s", seed, d.Fault, d.Evidence.Admin, logs, events)
			}
		}
		if d.Evidence.Bare != "" {
			differs++
			if !strings.HasSuffix(d.Evidence.Bare, "has unknown fields") || !strings.Contains(logs, "[warning][config]") || !strings.Contains(logs, "Unknown field: ") {
				t.Errorf("seed %d (%s): envoy -c says %q; the sidecar's log:\n%s", seed, d.Fault, d.Evidence.Bare, logs)
			}
		}
	}
	if shapes["classic"] != 200 {
		t.Errorf("pod forms drawn for a classic lab: %v", shapes)
	}
	if late*3 < notReady {
		t.Errorf("%d of %d not-ready drills drawn after a restart: fewer than a third", late, notReady)
	}
	if differs == 0 {
		t.Error("no drill where envoy -c and the sidecar differ")
	}
}

// Each log excerpt is what its command prints of the container's log as modelled: the command is
// run for real (grep, head, tail) on that log, kubectl logs standing for the file.
func TestLogExcerptsAreWhatTheirCommandsPrint(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "container.log")
	for seed := uint64(0); seed < 200; seed++ {
		d, err := New(base(t), testLab(t), seed, "", "")
		if err != nil {
			t.Fatal(err)
		}
		var body string
		for _, l := range d.log {
			body += l + "\n"
		}
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := d.Evidence.LogsCmd
		prefix := "kubectl logs " + d.Evidence.PodName + " -c istio-proxy"
		rest, ok := strings.CutPrefix(cmd, prefix)
		if !ok {
			t.Fatalf("seed %d: %s", seed, cmd)
		}
		if n, ok := strings.CutPrefix(rest, " --previous --tail "); ok {
			rest = "tail -n " + n + " " + file
		} else {
			rest = "cat " + file + rest
		}
		out, err := exec.Command("bash", "-c", rest).Output()
		if err != nil && len(out) > 0 {
			t.Fatalf("seed %d: %s: %v", seed, rest, err)
		}
		if got := strings.TrimSuffix(string(out), "\n"); got != strings.Join(d.Evidence.Logs, "\n") {
			t.Errorf("seed %d (%s): %s prints\n%s\nthe drill shows\n%s", seed, d.Fault, cmd, got, strings.Join(d.Evidence.Logs, "\n"))
		}
	}
}

// A lab whose injection wrote the native form gets native drills, with the probe it wrote.
func TestDrillsFollowTheLabsForm(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "native-inject.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	lab, err := LabFromManifest(data)
	if err != nil || lab.Shape != sidecar.Native || lab.Probe.Threshold != 600 || lab.Probe.Period != time.Second {
		t.Fatalf("%+v %v", lab, err)
	}
	for seed := uint64(0); seed < 40; seed++ {
		d, err := New(base(t), lab, seed, "", "")
		if err != nil {
			t.Fatal(err)
		}
		if d.Sidecar != "native" || !strings.Contains(d.Evidence.Pod, "0/2") || !strings.Contains(d.Evidence.Pod, "Init:") {
			t.Errorf("seed %d: %s\n%s", seed, d.Sidecar, d.Evidence.Pod)
		}
	}
}

// pilot-agent's argv for the lab's pod, read from the injected manifest: its log levels and, from
// the proxy's CPU limit, --concurrency.
func TestEnvoyArgsFromTheLab(t *testing.T) {
	got := strings.Join(testLab(t).EnvoyArgs, " ")
	want := "-c etc/istio/proxy/envoy-rev.json --drain-time-s 45 --drain-strategy immediate --local-address-ip-version v4 --file-flush-interval-msec 1000 --disable-hot-restart --allow-unknown-static-fields -l warning --component-log-level misc:error --concurrency 2"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, tt := range []struct {
		config, cpu string
		want        int
	}{{"{}", "2", 2}, {"{}", "2000m", 2}, {"{}", "500m", 1}, {"{}", "1.5", 2}, {`{"concurrency": 4}`, "2", 4}, {"{}", "", 0}} {
		if got := concurrency(tt.config, tt.cpu); got != tt.want {
			t.Errorf("concurrency(%s, %s) = %d, want %d", tt.config, tt.cpu, got, tt.want)
		}
	}
}

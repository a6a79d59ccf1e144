package check

import (
	"os"
	"strings"
	"testing"

	"ist2-boot/steps/i18n"
	"ist2-boot/steps/sidecar"
	"ist2-boot/steps/steptest"
)

// The practice page's files, right (testdata/answers) and wrong: each wrong one fails with its
// reason, which names what is wrong, in every language.
var practiceMutations = []mutation{
	// practice.yaml
	{"still istiod", "practice.yaml", replace("{address: 127.0.0.1, port_value: 15010}", "{address: istiod.istio-system.svc, port_value: 15012}"), Fail, "reason.field_wrong", "socket_address.address"},
	{"port left", "practice.yaml", replace("port_value: 15010}", "port_value: 15012}"), Fail, "reason.field_wrong", "socket_address.port_value"},
	{"node changed too", "practice.yaml", replace("cluster: payments.default", "cluster: practice"), Fail, "reason.practice_differs", "node.cluster"},
	{"static cluster renamed", "practice.yaml", replace("  - name: xds-grpc", "  - name: practice"), Fail, "reason.practice_differs", "clusters[0].name"},
	// practice-live.txt
	{"not LIVE", "practice-live.txt", replace("ready_body=LIVE", "ready_body=PRE_INITIALIZING"), Fail, "reason.wrong_value", "ready_body"},
	{"stream not connected", "practice-live.txt", replace("connected_state=1", "connected_state=0"), Fail, "reason.wrong_value", "connected_state"},
	{"no CDS update", "practice-live.txt", replace("cds_update_success=1", "cds_update_success=0"), Fail, "reason.wrong_value", "cds_update_success"},
	{"static cluster listed", "practice-live.txt", replace("dynamic_clusters=practice-backend", "dynamic_clusters=xds-grpc,practice-backend"), Fail, "reason.wrong_value", "dynamic_clusters"},
	{"listeners missing", "practice-live.txt", replace("dynamic_listeners=practice-http\n", ""), Fail, "reason.missing_key", "practice-http"},
	{"more updates after a reconnect", "practice-live.txt", replace("lds_update_success=1", "lds_update_success=2"), Pass, "", ""},
	// practice-rejected.txt
	{"nothing rejected", "practice-rejected.txt", replace("cds_update_rejected=1", "cds_update_rejected=0"), Fail, "reason.wrong_value", "cds_update_rejected"},
	{"LDS said rejected", "practice-rejected.txt", replace("lds_update_rejected=0", "lds_update_rejected=1"), Fail, "reason.wrong_value", "lds_update_rejected"},
	{"warning cut", "practice-rejected.txt", replace(". Consider setting resolver_name or setting cluster type to 'STRICT_DNS' or 'LOGICAL_DNS'", ""), Fail, "reason.wrong_value", "rejected_warning"},
	{"pilot-agent said not ready", "practice-rejected.txt", replace("pilot_agent=200", "pilot_agent=503"), Fail, "reason.wrong_value", "200"},
	// The expected answer follows the counters as written: with no CDS success, 503.
	{"pilot-agent's answer for other counters", "practice-rejected.txt", func(s string) string {
		s = replace("cds_update_success=2", "cds_update_success=0")(s)
		return replace("pilot_agent=200", "pilot_agent=503")(s)
	}, Fail, "reason.wrong_value", "cds_update_success"},
}

func TestPracticeFiles(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, steptest.PathWithout("envoy"))
	steptest.CopyAnswers(t, env)
	results, err := Check(l, env, []string{"practice"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range results[0].Files {
		if f.Status != Pass {
			t.Errorf("%s: %s: %s\n%s", f.File, f.Status, f.Reason.In(i18n.Korean), f.Diff)
		}
	}
	for _, m := range practiceMutations {
		t.Run(m.file+"/"+m.name, func(t *testing.T) {
			env := steptest.Env(t, steptest.PathWithout("envoy"))
			steptest.CopyAnswers(t, env)
			steptest.WriteFile(t, env.Path(m.file), m.edit(steptest.ReadFile(t, env.Path(m.file))))
			r := fileResult(t, l, env, m.file)
			if r.Status != m.status {
				t.Fatalf("status %s, want %s (%s)", r.Status, m.status, r.Reason.In(i18n.Korean))
			}
			if m.status == Pass {
				return
			}
			if r.Reason.Key != m.reason || !strings.Contains(strings.Join(argValues(r.Reason), "\n"), m.field) {
				t.Fatalf("reason %s (%s), want %s naming %q", r.Reason.Key, r.Reason.In(i18n.Korean), m.reason, m.field)
			}
			for _, lang := range i18n.Langs {
				if text := r.Reason.In(lang); text == "" || placeholder.MatchString(text) {
					t.Errorf("%s reason not filled: %q", lang, text)
				}
			}
			if !strings.Contains(r.Diff, "@@") {
				t.Errorf("no diff: expected %q produced %q", r.Expected, r.Produced)
			}
		})
	}
}

// Without Envoy the two files Envoy makes are needs-tool, as sections 4-6's are; the copy is judged.
func TestPracticeWithoutEnvoyNeedsTheTool(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, steptest.PathWithout("envoy"))
	steptest.CopyAnswers(t, env)
	for _, f := range []string{"practice-live.txt", "practice-rejected.txt"} {
		os.Remove(env.Path(f))
	}
	results, err := Check(l, env, []string{"practice"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Status{}
	for _, f := range results[0].Files {
		got[f.File] = f.Status
	}
	if got["practice.yaml"] != Pass || got["practice-live.txt"] != NeedsTool || got["practice-rejected.txt"] != NeedsTool || results[0].Status != NeedsTool {
		t.Errorf("without Envoy: %v (page %s)", got, results[0].Status)
	}
}

// pilot-agent's answer for the counters: 503 while checkConfigStatus has a reason, 200 once both
// types have had a success, rejections or not.
func TestProbeAnswer(t *testing.T) {
	if got := ProbeAnswer(sidecar.XDSCounts{CDSSuccess: 1, CDSRejected: 4, LDSSuccess: 1}); got != "200" {
		t.Errorf("after a success of each: %q", got)
	}
	if got := ProbeAnswer(sidecar.XDSCounts{CDSRejected: 1}); got != "503" {
		t.Errorf("nothing accepted: %q", got)
	}
}

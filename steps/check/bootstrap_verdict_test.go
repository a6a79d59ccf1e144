package check

import (
	"os"
	"strings"
	"testing"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
)

// Where envoy is installed it judges too, and its verdict wins over the offline one; a
// disagreement is noted. (The test double's Envoy only knows the ADS-cluster check, so it accepts
// a misspelled field the offline check refuses.)
func TestEnvoyVerdictWinsAndDisagreementIsNoted(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, steptest.FakeEnvoyPath(t)+string(os.PathListSeparator)+os.Getenv("PATH"))
	steptest.CopyAnswers(t, env)
	if typo := fileResult(t, l, env, "boot-typo.yaml"); typo.Status != Pass || typo.Note.Key != "" {
		t.Errorf("typo, both refuse alike: %s %s note %q", typo.Status, typo.Reason.In(i18n.Korean), typo.Note.In(i18n.Korean))
	}
	steptest.WriteFile(t, env.Path("bootstrap.yaml"), steptest.ReadFile(t, env.Path("bootstrap.yaml"))+"stats_flush_intervl: 5s\n")
	r := fileResult(t, l, env, "bootstrap.yaml")
	if r.Status != Pass || r.Note.Key != "reason.verdicts_differ" || !strings.Contains(r.Note.In(i18n.Korean), "stats_flush_interval") {
		t.Errorf("%s %s note %q", r.Status, r.Reason.In(i18n.Korean), r.Note.In(i18n.Korean))
	}
}

func TestBootstrapWarningIsNoted(t *testing.T) {
	l, env := withHTTP2Options(t, "    http2_protocol_options: {}\n")
	r := fileResult(t, l, env, "bootstrap.yaml")
	if r.Status != Pass || r.Note.Key != "reason.envoy_warns" || !strings.Contains(r.Note.In(i18n.Japanese), "deprecated") {
		t.Errorf("%s note %q", r.Status, r.Note.In(i18n.Japanese))
	}
}

// A bootstrap written in forms Envoy's parser accepts (lower-case enums, a lone value for a list,
// a duration as an object) is judged as Envoy reads it: sections 4 and 5 pass.
func TestBootstrapInEnvoysLenientFormsPasses(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, steptest.PathWithout("envoy"))
	steptest.CopyAnswers(t, env)
	lenient := strings.NewReplacer(
		"type: STRICT_DNS", "type: strict_dns",
		"api_type: GRPC", "api_type: grpc",
		"connect_timeout: 1s", "connect_timeout: {seconds: 1}",
		"    initial_fetch_timeout: 0s\n", "    initial_fetch_timeout: {seconds: 0}\n",
	)
	for _, f := range []string{"bootstrap.yaml", "boot-typo.yaml"} {
		text := steptest.ReadFile(t, env.Path(f))
		changed := lenient.Replace(text)
		if changed == text {
			t.Fatalf("%s: the answer no longer has the forms this test rewrites", f)
		}
		steptest.WriteFile(t, env.Path(f), changed)
	}
	results, err := Check(l, env, []string{"bootstrap", "typo"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		for _, f := range r.Files {
			if f.Status != Pass && f.File != "04-validate.txt" && f.File != "05-typo.txt" {
				t.Errorf("%s: %s: %s\n%s", f.File, f.Status, f.Reason.In(i18n.Korean), f.Diff)
			}
		}
	}
}

// A bootstrap without HTTP/2 fails with one reason that says what Envoy does and what to write;
// the validator's same advice is not added under it (zh r14 M8).
func TestHTTP2AdviceSaidOnce(t *testing.T) {
	l, env := withHTTP2Options(t, "")
	r := fileResult(t, l, env, "bootstrap.yaml")
	if r.Status != Fail || r.Reason.Key != "reason.http2_missing" || r.Note.Key != "" {
		t.Errorf("%s %s, note %q", r.Status, r.Reason.In(i18n.Japanese), r.Note.In(i18n.Japanese))
	}
}

// ja r16 H1: a boot-typo.yaml that differs from a bootstrap.yaml failing its own check is not
// told to copy the failing value: the reason names bootstrap.yaml, with no diff towards it.
func TestACopyIsNotJudgedAgainstAFailingBootstrap(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, steptest.PathWithout("envoy"))
	steptest.CopyAnswers(t, env)
	steptest.WriteFile(t, env.Path("bootstrap.yaml"), strings.Replace(steptest.ReadFile(t, env.Path("bootstrap.yaml")), "port_value: 9982", "port_value: 9983", 1))
	if r := fileResult(t, l, env, "bootstrap.yaml"); r.Status != Fail {
		t.Fatalf("bootstrap.yaml %s", r.Status)
	}
	r := fileResult(t, l, env, "boot-typo.yaml")
	if r.Status != Fail || r.Reason.Key != "reason.depends" || r.Diff != "" {
		t.Errorf("%s %s, diff %q", r.Status, r.Reason.In(i18n.Japanese), r.Diff)
	}
}

// withHTTP2Options is the right answers without Envoy, bootstrap.yaml's xds-grpc cluster having
// options in place of its typed_extension_protocol_options (none: no HTTP/2 at all).
func withHTTP2Options(t *testing.T, options string) (*steps.Lesson, *steps.Env) {
	t.Helper()
	l := steptest.Lesson(t)
	env := steptest.Env(t, steptest.PathWithout("envoy"))
	steptest.CopyAnswers(t, env)
	text := steptest.ReadFile(t, env.Path("bootstrap.yaml"))
	i, j := strings.Index(text, "    typed_extension_protocol_options:"), strings.Index(text, "    load_assignment:")
	steptest.WriteFile(t, env.Path("bootstrap.yaml"), text[:i]+options+text[j:])
	return l, env
}

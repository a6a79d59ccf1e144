package drill

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"ist2-boot/steps/i18n"
	"ist2-boot/steps/sidecar"
	"ist2-boot/steps/steptest"

	"gopkg.in/yaml.v3"
)

// placeholder is an argument a message left unfilled.
var placeholder = regexp.MustCompile(`\{[a-z_]+\}`)

// testLab is the pod of the lab's own answers: the inject.yaml section 1 makes from the fixtures.
func testLab(t *testing.T) Lab {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(steptest.AnswersDir(), "inject.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	lab, err := LabFromManifest(data)
	if err != nil {
		t.Fatal(err)
	}
	return lab
}

func base(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(steptest.AnswersDir(), "bootstrap.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Every fault of the catalogue applies to the lab's bootstrap, and its class is the validator's:
// a fault it refuses is "rejected" with the validator's message; one it accepts is "not-ready",
// labelled as documented behaviour. The classes here are read from the drills, not written down:
// the test checks that they are consistent with what the validator says of each bootstrap.
func TestEveryFaultIsDecidedByTheValidator(t *testing.T) {
	seen := map[string]Class{}
	faults := len(Catalogue) + len(PushCatalogue)
	for seed := uint64(0); len(seen) < faults && seed < 500; seed++ {
		d, err := New(base(t), testLab(t), seed, "", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, done := seen[d.Fault]; done {
			continue
		}
		seen[d.Fault] = d.Class
		// A refused push leaves Envoy running and the sidecar never Ready: the not-Ready pod.
		failure := map[Class]sidecar.Failure{Rejected: sidecar.Rejected, NotReady: sidecar.NotReady, ConfigRejected: sidecar.NotReady}[d.Class]
		ready, reason, _ := sidecar.NewPod("p", sidecar.Shape(d.Sidecar), failure, 4, "", "").Row()
		if !strings.Contains(d.Evidence.Pod, ready) || !strings.Contains(d.Evidence.Pod, reason) {
			t.Errorf("%s: pod %q, want %s %s for a %s sidecar", d.Fault, d.Evidence.Pod, ready, reason, d.Sidecar)
		}
		switch d.Class {
		case Rejected:
			if d.Evidence.Source != "validator" || d.Evidence.Message == "" {
				t.Errorf("%s: %+v", d.Fault, d.Evidence)
			}
		case NotReady:
			if d.Evidence.Source != "documented" {
				t.Errorf("%s: %+v", d.Fault, d.Evidence)
			}
		case ConfigRejected:
			if d.Evidence.Source != "validator" || d.Evidence.Message == "" || d.Pushed == nil {
				t.Errorf("%s: %+v", d.Fault, d.Evidence)
			}
		}
		if d.JudgeClass(d.Class).Right != true || d.JudgeField(d.Field).Right != true {
			t.Errorf("%s: the right answers are judged wrong", d.Fault)
		}
	}
	if len(seen) != faults {
		t.Fatalf("only %d of %d faults drawn: %v", len(seen), faults, seen)
	}
	// Every class occurs: the catalogues train telling them apart.
	classes := map[Class]int{}
	for _, c := range seen {
		classes[c]++
	}
	if classes[Rejected] == 0 || classes[NotReady] == 0 || classes[ConfigRejected] == 0 {
		t.Errorf("classes: %v", seen)
	}
	t.Logf("classes as decided: %v", seen)
}

// The same seed gives the same drill, JSON and all; the fault drawn is never the one to avoid.
func TestSeedsAreReproducible(t *testing.T) {
	a, _ := New(base(t), testLab(t), 42, "", "")
	b, _ := New(base(t), testLab(t), 42, "", "")
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Errorf("seed 42 gave two drills:\n%s\n%s", ja, jb)
	}
	for seed := uint64(0); seed < 50; seed++ {
		d, _ := New(base(t), testLab(t), seed, a.Fault, "")
		if d.Fault == a.Fault {
			t.Fatalf("seed %d drew %s, the one to avoid", seed, d.Fault)
		}
	}
}

// A wrong answer is explained with the evidence, in the learner's language; the fix is judged.
func TestWrongAnswersAreExplained(t *testing.T) {
	for seed := uint64(0); seed < 40; seed++ {
		d, _ := New(base(t), testLab(t), seed, "", "")
		wrong := Rejected
		if d.Class == Rejected {
			wrong = NotReady
		}
		if seed%2 == 1 && d.Class != ConfigRejected {
			wrong = ConfigRejected
		}
		v := d.JudgeClass(wrong)
		if v.Right {
			t.Fatalf("%s: a wrong class judged right", d.Fault)
		}
		for _, lang := range i18n.Langs {
			why := v.Why.In(lang)
			// The class's explanation does not give away the field: that is the next question.
			if why == "" || placeholder.MatchString(why) || strings.Contains(why, d.Field) {
				t.Errorf("%s %s: %q", d.Fault, lang, why)
			}
		}
		// The answer names the field, or each refused type ("CDS+LDS" is said in words).
		names := func(why string) bool {
			for _, part := range strings.Split(d.Field, "+") {
				if !strings.Contains(why, part) {
					return false
				}
			}
			return true
		}
		if f := d.JudgeField("admin"); f.Right || !names(f.Why.In(i18n.Japanese)) {
			t.Errorf("%s: field answer: %+v", d.Fault, f)
		}
		if d.Class == ConfigRejected { // nothing in the bootstrap to fix: said, never judged fixed
			if v := d.JudgeFix(base(t)); v.Right || v.Why.Key != "drill.fix_none" {
				t.Errorf("%s: the fix of a refused push: %+v", d.Fault, v)
			}
			continue
		}
		// The broken file is not fixed; the base is.
		if d.JudgeFix([]byte(d.Bootstrap)).Right {
			t.Errorf("%s: the broken bootstrap judged fixed", d.Fault)
		}
		if v := d.JudgeFix(base(t)); !v.Right {
			t.Errorf("%s: the original judged not fixed: %s", d.Fault, v.Why.In(i18n.Korean))
		}
	}
}

// A bootstrap that does not pass is no base for a drill.
func TestABrokenBaseIsRefused(t *testing.T) {
	var doc yaml.Node
	_ = yaml.Unmarshal(base(t), &doc)
	remove(&doc, "static_resources")
	broken, _ := encode(&doc)
	if _, err := New(broken, testLab(t), 1, "", ""); err != ErrBaseFails {
		t.Errorf("%v", err)
	}
}

func TestMain(m *testing.M) { steptest.Main(m) }

// Where Envoy is installed its own --mode validate decides (here the test double, which knows the
// one start-up check the lab trips): an ADS cluster typo is rejected in Envoy's words; a wrong
// discovery port is accepted, so the sidecar is not Ready.
func TestEnvoyDecidesWhereItIsInstalled(t *testing.T) {
	envoy := filepath.Join(steptest.FakeEnvoyPath(t), "envoy")
	seen := map[string]bool{}
	for seed := uint64(0); seed < 300 && len(seen) < 2; seed++ {
		d, err := New(base(t), testLab(t), seed, "", envoy)
		if err != nil {
			t.Fatal(err)
		}
		switch d.Fault {
		case "ads-cluster-typo":
			seen[d.Fault] = true
			if d.Evidence.Source != "envoy" || d.Class != Rejected || !strings.Contains(d.Evidence.Message, "Unknown gRPC client cluster") {
				t.Errorf("%s: %s %+v", d.Fault, d.Class, d.Evidence)
			}
		case "discovery-wrong":
			seen[d.Fault] = true
			// Started for real (the double stands in) and stopped: its admin port answered.
			if d.Evidence.Source != "envoy" || d.Class != NotReady || !d.Evidence.Started || !strings.Contains(d.Evidence.Admin, "PRE_INITIALIZING") {
				t.Errorf("%s: %s %+v", d.Fault, d.Class, d.Evidence)
			}
		}
	}
	if len(seen) != 2 {
		t.Errorf("drawn: %v", seen)
	}
}

// B5: in the static-hostname drill the field asked, offered and judged at the fix is the one the
// fault changed (the cluster's type); mending it another way (an IP for the host name) passes the
// check but is not the drill's fix, and is not called a fault Envoy accepts (Envoy refused it).
func TestStaticHostnameIsJudgedOnItsType(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		d, _ := New(base(t), testLab(t), seed, "", "")
		if d.Fault != "static-hostname" {
			continue
		}
		if d.Field != "static_resources.clusters[0].type" || !slices.Contains(d.FieldChoices(), d.Field) {
			t.Fatalf("field %s, choices %v", d.Field, d.FieldChoices())
		}
		other := strings.Replace(d.Bootstrap, "address: istiod.istio-system.svc", "address: 10.96.0.10", 1)
		v := d.JudgeFix([]byte(other))
		if v.Right || v.Why.Key != "drill.fix_other" {
			t.Errorf("an IP instead of the type: %+v", v)
		}
		return
	}
	t.Fatal("no static-hostname drill in 200 seeds")
}

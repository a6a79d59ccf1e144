package bootcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// FuzzValidate: random and mutated bootstraps never panic or hang the validator.
// `go test` runs the seeds; to explore:
//
//	go test -run XXX -fuzz FuzzValidate -fuzzminimizetime 20x ./steps/bootcheck
//
// The -fuzzminimizetime bound matters: the seeds are whole bootstraps (up to 24 KB), and by
// default every new interesting input is minimized for up to 60 s, so the run shows "0/sec" for
// minutes; with 20 tries per minimization it runs at hundreds of execs a second.
func FuzzValidate(f *testing.F) {
	files, _ := filepath.Glob("testdata/accept/*")
	istio, _ := filepath.Glob("testdata/istio/*_golden.json")
	local, _ := filepath.Glob("testdata/envoy/*/local_*.yaml") // one build check each
	files = append(append(files, istio...), local...)
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)/3])
	}
	f.Add([]byte("a: &a [*a, *a]\nb: *a\n"))
	f.Add([]byte(`{"staticResources": {"clusters": [{"name": 1}]}}`))
	f.Add([]byte("typed_config: {\"@type\": \"type.googleapis.com/google.protobuf.Duration\", value: 1s}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		r := Validate(data)
		if time.Since(start) > 5*time.Second {
			t.Fatalf("took %v", time.Since(start))
		}
		for _, p := range r.Problems {
			if p.Message == "" {
				t.Fatalf("a problem without a message: %+v", p)
			}
		}
		// What the parser made of an accepted text is itself accepted: the rewriting of legacy
		// forms (quoted booleans, enum numbers, lone values, well-known types as messages) keeps
		// the meaning Envoy gives them.
		if r.OK() {
			if again := Validate(r.Canonical()); !again.OK() {
				t.Fatalf("accepted, but its canonical form is refused:\n%s\n%s", r.Canonical(), again.Report("canonical.json"))
			}
		}
	})
}

// Deep nesting (a file of brackets within the 1 MiB a check reads) is refused, not a crash.
func TestDeepNesting(t *testing.T) {
	for _, text := range []string{strings.Repeat("[", 200000), strings.Repeat("a:\n ", 5000) + "b"} {
		r := Validate([]byte(text))
		if r.OK() {
			t.Errorf("accepted %d bytes of nesting", len(text))
		}
	}
}

// big20KB is the lab's reference bootstrap with static clusters added until it is 20 KB.
func big20KB(tb testing.TB) []byte {
	ref := reference(tb)
	var b strings.Builder
	b.WriteString(ref)
	for i := 0; b.Len() < 20*1024; i++ {
		fmt.Fprintf(&b, `  - name: backend-%d
    type: STRICT_DNS
    connect_timeout: 1s
    lb_policy: ROUND_ROBIN
    load_assignment:
      cluster_name: backend-%d
      endpoints:
      - lb_endpoints:
        - endpoint:
            address:
              socket_address: {address: backend-%d.default.svc.cluster.local, port_value: 8080}
`, i, i, i)
	}
	return []byte(b.String())
}

func BenchmarkValidate20KB(b *testing.B) {
	data := big20KB(b)
	if r := Validate(data); !r.OK() {
		b.Fatal(r.Report("big.yaml"))
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		Validate(data)
	}
}

// An alias that contains itself, and aliases of aliases, end with a problem, quickly.
func TestAliasBombs(t *testing.T) {
	bomb := "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
	for name, text := range map[string]string{
		"self":  "node: &n {metadata: {x: *n}}\nstatic_resources: &s {clusters: [*s]}\n",
		"bomb":  "node:\n  metadata:\n    " + strings.ReplaceAll(bomb, "\n", "\n    ") + "\n",
		"bomb2": strings.Replace(bomb, "f: [", "static_resources: {clusters: [", 1) + "}\n",
	} {
		start := time.Now()
		r := Validate([]byte(text))
		// Generous: CI runs packages side by side.
		if time.Since(start) > 2*time.Second {
			t.Errorf("%s: %v", name, time.Since(start))
		}
		if r.OK() {
			t.Errorf("%s accepted", name)
		}
	}
}

// A large bootstrap of real clusters, written compactly (flow YAML grows when it becomes JSON), is
// judged, not refused as an alias bomb; and a bomb is named for its aliases.
func TestLargeRealBootstrapIsNotAnAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("static_resources:\n  clusters:\n")
	for i := 0; b.Len() < 990_000; i++ {
		fmt.Fprintf(&b, "  - {name: c%d, type: STATIC, connect_timeout: 1s, load_assignment: {cluster_name: c%d, endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: 127.0.0.1, port_value: 80}}}}]}]}}\n", i, i)
	}
	data := []byte(b.String())
	js, err := toJSON(mustYAML(t, data))
	if err != nil || len(js) <= 1<<20 {
		t.Fatalf("%d bytes of YAML → %d of JSON, %v: the test must cross the old 1 MiB bound", len(data), len(js), err)
	}
	if r := Validate(data); !r.OK() {
		t.Errorf("refused: %s", r.Report("big.yaml"))
	}
	bomb := "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
	if _, err := toJSON(mustYAML(t, []byte(bomb))); err == nil || !strings.Contains(err.Error(), "aliases expand") {
		t.Errorf("bomb: %v", err)
	}
}

func mustYAML(t *testing.T, data []byte) *yaml.Node {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		t.Fatal(err)
	}
	return &n
}

package bootcheck

import (
	"fmt"
	"strings"
	"testing"
)

// Under pilot-agent's --allow-unknown-static-fields an unknown field or enum name is one warning
// (the first met) and is dropped; what its absence then causes is judged as Envoy would.
func TestAllowUnknownStaticFields(t *testing.T) {
	sidecar := Options{AllowUnknownStaticFields: true}
	ref := reference(t)
	for _, tt := range []struct {
		name, old, new string
		warning        string // the one warning, from its start
		problem        string // the refusal that remains, "" for none
	}{
		{"a misspelt optional field is ignored", "connect_timeout: 1s", "connetc_timeout: 1s",
			"Unknown field: type envoy.config.bootstrap.v3.Bootstrap reason INVALID_ARGUMENT: invalid JSON in envoy.config.bootstrap.v3.Bootstrap @ static_resources.clusters[0]: message envoy.config.cluster.v3.Cluster, near 1:… (offset …): no such field: 'connetc_timeout'", ""},
		{"a misspelt node.cluster leaves ADS without a node cluster", "  cluster: payments.default", "  clustr: payments.default",
			"Unknown field: type envoy.config.bootstrap.v3.Bootstrap reason INVALID_ARGUMENT: invalid JSON in envoy.config.bootstrap.v3.Bootstrap @ node: message envoy.config.core.v3.Node", "ads: node 'id' and 'cluster' are required."},
		{"an unknown enum name leaves the type unset: STATIC, which wants an IP", "type: STRICT_DNS", "type: STRICT-DNSS",
			"Unknown field: type envoy.config.bootstrap.v3.Bootstrap reason INVALID_ARGUMENT: unknown enum value: 'STRICT-DNSS'", "malformed IP address: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text := mutate(t, ref, tt.old, tt.new)
			if strict := Validate([]byte(text)); strict.OK() || !strings.HasSuffix(strict.Problems[0].Message, ") has unknown fields") {
				t.Errorf("strict: %+v, want the unknown-field refusal", strict.Problems)
			}
			r := ValidateWith([]byte(text), sidecar)
			var warned []string
			for _, w := range r.Warnings {
				if strings.HasPrefix(w.Message, "Unknown field: ") {
					warned = append(warned, w.Message)
				}
			}
			if len(warned) != 1 || !strings.HasPrefix(warned[0], tt.warning) {
				t.Errorf("warnings %q, want one from %q", warned, tt.warning)
			}
			switch {
			case tt.problem == "" && !r.OK():
				t.Errorf("refused: %+v", r.Problems)
			case tt.problem != "" && (r.OK() || !strings.HasPrefix(r.Problems[0].Message, tt.problem)):
				t.Errorf("problems %+v, want %q first", r.Problems, tt.problem)
			}
		})
	}
}

// Two unknown fields: Envoy's strict parse stops at the first, so a sidecar warns once.
func TestLenientWarnsOnce(t *testing.T) {
	text := strings.Replace(mutate(t, reference(t), "connect_timeout: 1s", "connetc_timeout: 1s"), "admin:", "admni_x: 1\nadmin:", 1)
	r := ValidateWith([]byte(text), Options{AllowUnknownStaticFields: true})
	n := 0
	for _, w := range r.Warnings {
		if strings.HasPrefix(w.Message, "Unknown field: ") {
			n++
		}
	}
	if n != 1 || !r.OK() {
		t.Errorf("%d unknown-field warnings, problems %+v", n, r.Problems)
	}
	if strict := Validate([]byte(text)); len(strict.Problems) != 2 {
		t.Errorf("strict: %d problems, want both fields named", len(strict.Problems))
	}
}

// A file of thousands of unknown keys is refused without an edit-distance search for each: the
// first maxSuggestions get their "did you mean", the rest none (hostile L6: 20 s for 1 MiB).
func TestSuggestionsAreBounded(t *testing.T) {
	var b strings.Builder
	for i := range maxSuggestions + 50 {
		fmt.Fprintf(&b, "stats_sinks%c%c: []\n", 'a'+i/26, 'a'+i%26)
	}
	b.WriteString("stats_sinkz: []\n")
	r := Validate([]byte(b.String()))
	hinted := 0
	for _, p := range r.Problems {
		if p.Hint != "" {
			hinted++
		}
	}
	if len(r.Problems) != maxSuggestions+51 || hinted != maxSuggestions {
		t.Fatalf("%d problems, %d with a hint; want %d and %d", len(r.Problems), hinted, maxSuggestions+51, maxSuggestions)
	}
	if r.Problems[0].Hint != "stats_sinks" {
		t.Fatalf("the first hint is %q", r.Problems[0].Hint)
	}
}

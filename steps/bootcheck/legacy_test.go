package bootcheck

import (
	"encoding/json"
	"strings"
	"testing"
)

// What Envoy's JSON parser accepts (legacy syntax, case-insensitive enums) is accepted, and read as
// Envoy reads it: the canonical form has the list, the upper-case name, the duration text.
func TestEnvoysParserLeniency(t *testing.T) {
	ref := reference(t)
	tests := []struct {
		name, old, new string
		path           []string // where the canonical form holds
		want           string   // its JSON there
	}{
		{"lone value for a list", "      endpoints:\n      - lb_endpoints:\n        - endpoint:", "      endpoints:\n        lb_endpoints:\n          endpoint:",
			[]string{"static_resources", "clusters", "0", "load_assignment", "endpoints", "0", "lb_endpoints", "0", "endpoint", "address", "socket_address", "port_value"}, "15012"},
		{"lower-case enum", "type: STRICT_DNS", "type: strict_dns", []string{"static_resources", "clusters", "0", "type"}, `"STRICT_DNS"`},
		{"mixed-case enum", "api_type: GRPC", "api_type: Grpc", []string{"dynamic_resources", "ads_config", "api_type"}, `"GRPC"`},
		{"duration as an object", "connect_timeout: 1s", "connect_timeout: {seconds: 1, nanos: 500000000}", []string{"static_resources", "clusters", "0", "connect_timeout"}, `"1.500s"`},
		{"zero duration as an object", "    initial_fetch_timeout: 0s\n    resource_api_version: V3\n  lds_config:", "    initial_fetch_timeout: {seconds: 0}\n    resource_api_version: V3\n  lds_config:",
			[]string{"dynamic_resources", "cds_config", "initial_fetch_timeout"}, `"0s"`},
		{"wrapper as an object", "    connect_timeout: 1s\n", "    connect_timeout: 1s\n    per_connection_buffer_limit_bytes: {value: 32768}\n",
			[]string{"static_resources", "clusters", "0", "per_connection_buffer_limit_bytes"}, "32768"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Validate([]byte(mutate(t, ref, tt.old, tt.new)))
			if !r.OK() {
				t.Fatalf("refused: %+v", r.Problems)
			}
			var tree any
			if err := json.Unmarshal(r.Canonical(), &tree); err != nil {
				t.Fatal(err)
			}
			got := dig(t, tree, tt.path)
			if got != tt.want {
				t.Errorf("canonical %s = %s, want %s", strings.Join(tt.path, "."), got, tt.want)
			}
		})
	}
}

// What Envoy's parser refuses still is: an enum name in no case, a duration object with a field a
// Duration does not have.
func TestEnvoysParserStillRefuses(t *testing.T) {
	ref := reference(t)
	for _, tt := range []struct{ old, new, want string }{
		{"type: STRICT_DNS", "type: strict-dns", `Protobuf message (type envoy.config.bootstrap.v3.Bootstrap reason INVALID_ARGUMENT: unknown enum value: 'strict-dns') has unknown fields`},
		{"connect_timeout: 1s", "connect_timeout: {secs: 1}", `Protobuf message (type envoy.config.bootstrap.v3.Bootstrap reason INVALID_ARGUMENT: invalid JSON in envoy.config.bootstrap.v3.Bootstrap @ static_resources.clusters[0].connect_timeout: message google.protobuf.Duration, near 1:… (offset …): no such field: 'secs') has unknown fields`},
		{"connect_timeout: 1s", "connect_timeout: {seconds: 1.5}", "Unable to parse JSON as proto (INVALID_ARGUMENT: invalid JSON in envoy.config.bootstrap.v3.Bootstrap @ static_resources.clusters[0].connect_timeout.seconds: int64, near 1:… (offset …): expected integer, but JSON number had fractional part): {"},
		// Read as a message, a Duration's fields are not range-checked by the parser; Envoy's own
		// duration check refuses it after parsing (utility.cc validateDurationUnifiedNoThrow).
		{"connect_timeout: 1s", "connect_timeout: {seconds: 1, nanos: 2000000000}", "Invalid duration: Duration out-of-range according to Protobuf: seconds: 1\nnanos: 2000000000"},
	} {
		r := Validate([]byte(mutate(t, ref, tt.old, tt.new)))
		if r.OK() || !strings.HasPrefix(r.Problems[0].Message, tt.want) {
			t.Errorf("%s: %+v", tt.new, r.Problems)
		}
	}
}

func dig(t *testing.T, tree any, path []string) string {
	t.Helper()
	for _, p := range path {
		switch v := tree.(type) {
		case map[string]any:
			tree = v[p]
		case []any:
			i := int(p[0] - '0')
			if i >= len(v) {
				t.Fatalf("no element %s", p)
			}
			tree = v[i]
		default:
			t.Fatalf("cannot go into %T at %s", tree, p)
		}
	}
	raw, _ := json.Marshal(tree)
	return string(raw)
}

// A report lists at most maxReported problems and says how many more there are.
func TestReportIsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("static_resources:\n  clusters:\n")
	for range 500 {
		b.WriteString("  - name: dup\n")
	}
	r := Validate([]byte(b.String()))
	out := r.Report("f.yaml")
	if lines := strings.Count(out, "\n"); len(r.Problems) < 400 || lines > maxReported+3 || !strings.Contains(out, "more") {
		t.Errorf("%d problems reported in %d lines", len(r.Problems), lines)
	}
}

// A field written under its proto name and its JSON name reaches protobuf's parser twice;
// outside a oneof its legacy behaviour takes that (parser.cc ParseField, HasParsed), inside one it
// does not.
func TestFieldUnderBothNames(t *testing.T) {
	ref := reference(t)
	if r := Validate([]byte(mutate(t, ref, "connect_timeout: 1s", "connect_timeout: 1s\n    connectTimeout: 2s"))); !r.OK() {
		t.Errorf("refused: %+v", r.Problems)
	}
	r := Validate([]byte(mutate(t, ref, "type: STRICT_DNS", "type: STRICT_DNS\n    clusterType: {name: envoy.clusters.dns}")))
	if r.OK() || !strings.Contains(r.Problems[0].Message, "has already been set") {
		t.Errorf("a oneof met twice: %+v", r.Problems)
	}
}

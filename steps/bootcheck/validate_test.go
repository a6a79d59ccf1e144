package bootcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAcceptsValidBootstraps(t *testing.T) {
	files, _ := filepath.Glob("testdata/accept/*")
	if len(files) < 4 {
		t.Fatalf("only %d bootstraps to accept", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			r := Validate(data)
			if !r.OK() {
				t.Fatalf("refused:\n%s", r.Report(f))
			}
			for _, w := range r.Warnings {
				if !strings.HasPrefix(w.Message, "Using deprecated option") {
					t.Errorf("warned: %s", w)
				}
			}
			if got := r.Report(f); !strings.HasPrefix(got, "configuration '"+f+"' OK\n") {
				t.Errorf("report %q", got)
			}
		})
	}
}

func reference(t testing.TB) string {
	t.Helper()
	data, err := os.ReadFile("testdata/accept/lab-reference.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// mutate replaces the first old in ref by new; old must be there, or the case tests nothing.
func mutate(t *testing.T, ref, old, new string) string {
	t.Helper()
	if !strings.Contains(ref, old) {
		t.Fatalf("%q not in the reference", old)
	}
	return strings.Replace(ref, old, new, 1)
}

// lineOf is the 1-based line of the first occurrence of s in text.
func lineOf(text, s string) int {
	i := strings.Index(text, s)
	if i < 0 {
		return -1
	}
	return strings.Count(text[:i], "\n") + 1
}

func TestRefusals(t *testing.T) {
	ref := reference(t)
	tests := []struct {
		name, old, new string
		path, message  string
		hint           string
		lineOf         string // the line the problem must point at: the first line holding this text
	}{
		{name: "misspelled field", old: "http2_protocol_options: {}", new: "http2_protocol_option: {}",
			path: "explicit_http_config.http2_protocol_option", message: "message envoy.extensions.upstreams.http.v3.HttpProtocolOptions.ExplicitHttpConfig, near 1:… (offset …): no such field: 'http2_protocol_option') has unknown fields", hint: "http2_protocol_options", lineOf: "http2_protocol_option:"},
		{name: "string for a port", old: "port_value: 9982", new: "port_value: nine",
			path: "admin.address.socket_address.port_value", message: "port_value: uint32, near 1:… (offset …): invalid number: 'nine'): {", lineOf: "port_value: nine"},
		{name: "port out of range", old: "port_value: 9982", new: "port_value: 99820",
			path: "admin.address.socket_address.port_value", message: "value must be less than or equal to 65535", lineOf: "port_value: 99820"},
		{name: "ADS cluster typo", old: "        cluster_name: xds-grpc\n  cds_config", new: "        cluster_name: istiod-xds\n  cds_config",
			path: "dynamic_resources.ads_config.grpc_services[0].envoy_grpc.cluster_name", message: "Unknown gRPC client cluster 'istiod-xds'", lineOf: "istiod-xds"},
		{name: "missing cluster_name", old: "        cluster_name: xds-grpc\n  cds_config", new: "        {}\n  cds_config",
			path: "dynamic_resources.ads_config.grpc_services[0].envoy_grpc.cluster_name", message: "ClusterName: value length must be at least 1", lineOf: "        {}"},
		{name: "unresolvable @type", old: "type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions", new: "type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOption",
			path: "@type", message: "Unable to parse JSON as proto (INVALID_ARGUMENT: could not find @type 'type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOption'): {", hint: "type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions", lineOf: `"@type"`},
		{name: "duplicate cluster", old: "static_resources:\n  clusters:\n", new: "static_resources:\n  clusters:\n  - name: xds-grpc\n    type: STATIC\n",
			path: "static_resources.clusters[1].name", message: "cluster manager: duplicate cluster 'xds-grpc'", lineOf: "  - name: xds-grpc\n    type: STRICT_DNS"},
		{name: "wrong enum", old: "type: STRICT_DNS", new: "type: STRICT_DSN",
			path: "static_resources.clusters[0].type", message: "reason INVALID_ARGUMENT: unknown enum value: 'STRICT_DSN') has unknown fields", hint: "STRICT_DNS", lineOf: "STRICT_DSN"},
		{name: "ADS source without ads_config", old: "  ads_config:", new: "  ads_configx:",
			path: "dynamic_resources.ads_configx", message: "invalid JSON in envoy.config.bootstrap.v3.Bootstrap @ dynamic_resources: message envoy.config.bootstrap.v3.Bootstrap.DynamicResources, near 1:… (offset …): no such field: 'ads_configx'", hint: "ads_config", lineOf: "ads_configx"},
		{name: "duration without unit", old: "initial_fetch_timeout: 0s", new: "initial_fetch_timeout: 0",
			path: "dynamic_resources.cds_config.initial_fetch_timeout", message: `initial_fetch_timeout: message google.protobuf.Duration, near 1:… (offset …): unexpected character: '0'; expected '"'`, lineOf: "initial_fetch_timeout: 0\n"},
		{name: "STATIC with a host name", old: "type: STRICT_DNS", new: "type: STATIC",
			path: "socket_address.address", message: "malformed IP address: istiod.istio-system.svc. Consider setting resolver_name or setting cluster type to 'STRICT_DNS' or 'LOGICAL_DNS'", lineOf: "address: istiod.istio-system.svc"},
		{name: "oneof twice", old: "type: STRICT_DNS", new: "type: STRICT_DNS\n    cluster_type: {name: envoy.clusters.aggregate}",
			path: "static_resources.clusters[0].cluster_type", message: "'cluster_type' has already been set (either directly or as part of a oneof)", lineOf: "cluster_type:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := mutate(t, ref, tt.old, tt.new)
			r := Validate([]byte(text))
			if r.OK() {
				t.Fatalf("accepted:\n%s", text)
			}
			p := r.Problems[0]
			if !strings.HasSuffix(p.Path, tt.path) || !strings.Contains(p.Message, tt.message) || p.Hint != tt.hint {
				t.Errorf("got %s\nwant path …%s, message …%s…, hint %q", p, tt.path, tt.message, tt.hint)
			}
			if want := lineOf(text, tt.lineOf); p.Line != want {
				t.Errorf("line %d, want %d: %s", p.Line, want, p)
			}
			if rep := r.Report("b.yaml"); !strings.HasPrefix(rep, "b.yaml:") || strings.Contains(rep, " OK") {
				t.Errorf("report %q", rep)
			}
		})
	}
}

func TestDirectAPIConfigSource(t *testing.T) {
	ref := reference(t)
	text := strings.Replace(ref, "  lds_config:\n    ads: {}\n", "  lds_config:\n    api_config_source:\n      api_type: GRPC\n      grpc_services: [{envoy_grpc: {cluster_name: lds-server}}]\n", 1)
	r := Validate([]byte(text))
	want := "envoy.config.core.v3.ApiConfigSource must have a statically defined non-EDS cluster: 'lds-server' does not exist, was added via api, or is an EDS cluster"
	if r.OK() || r.Problems[0].Message != want || r.Problems[0].Path != "dynamic_resources.lds_config.api_config_source" {
		t.Fatalf("%+v", r.Problems)
	}
}

// What Envoy accepts but what breaks at run time is a warning, and the verdict stays Envoy's.
func TestGrpcClusterWithoutHTTP2IsAWarning(t *testing.T) {
	ref := reference(t)
	i := strings.Index(ref, "    typed_extension_protocol_options:")
	j := strings.Index(ref, "    load_assignment:")
	r := Validate([]byte(ref[:i] + ref[j:]))
	if !r.OK() || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0].Message, "no HTTP/2") {
		t.Fatalf("%+v", r)
	}
	if rep := r.Report("b.yaml"); !strings.HasPrefix(rep, "configuration 'b.yaml' OK\n") || !strings.Contains(rep, "warning:") {
		t.Errorf("report %q", rep)
	}
}

func TestNotABootstrapAtAll(t *testing.T) {
	for name, text := range map[string]string{
		"not yaml":  "admin: [\n  address:\n",
		"a list":    "- admin\n- node\n",
		"empty":     "",
		"a scalar":  "hello\n",
		"tab in it": "admin:\n\taddress: x\n",
	} {
		r := Validate([]byte(text))
		if r.OK() || r.Problems[0].Message == "" {
			t.Errorf("%s: %+v", name, r)
		}
	}
	r := Validate([]byte("admin: [\n  address:\n"))
	if !strings.Contains(r.Problems[0].Message, "YAML") || r.Problems[0].Line == 0 {
		t.Errorf("syntax error without a line: %+v", r.Problems[0])
	}
	// Only a document that is neither a map nor a list is "Unable to convert YAML as JSON"
	// (MessageUtil::loadFromYaml); a syntax error is yaml-cpp's.
	if r := Validate([]byte("hello\n")); r.Problems[0].Message != "Unable to convert YAML as JSON: hello" {
		t.Errorf("a scalar: %+v", r.Problems[0])
	}
	if r := Validate([]byte("admin:\n  address: x\n  - y\n")); !strings.HasPrefix(r.Problems[0].Message, "yaml-cpp: error at line ") {
		t.Errorf("a syntax error yaml-cpp names alike: %+v", r.Problems[0])
	}
}

func TestClosest(t *testing.T) {
	for _, tt := range []struct{ s, want string }{
		{"http2_protocol_option", "http2_protocol_options"},
		{"clustername", "cluster_name"},
		{"zzzz", ""},
	} {
		if got := closest(tt.s, []string{"http2_protocol_options", "cluster_name", "name"}); got != tt.want {
			t.Errorf("%s: %q", tt.s, got)
		}
	}
}

// A deprecated field is accepted with Envoy's warning (cluster-level http2_protocol_options).
func TestDeprecatedFieldWarns(t *testing.T) {
	data, err := os.ReadFile("testdata/accept/json-format.json")
	if err != nil {
		t.Fatal(err)
	}
	r := Validate(data)
	if !r.OK() || len(r.Warnings) != 1 || r.Warnings[0].Message != "Using deprecated option 'envoy.config.cluster.v3.Cluster.http2_protocol_options' from file cluster.proto. This configuration will be removed from Envoy soon." || r.Warnings[0].Line != 10 {
		t.Fatalf("%+v", r.Warnings)
	}
}

// With ADS, Envoy will not start without node.id and node.cluster (the ADS mux checks them).
func TestADSNeedsNodeIdentity(t *testing.T) {
	ref := reference(t)
	const want = "ads: node 'id' and 'cluster' are required. Set it either in 'node' config or via --service-node and --service-cluster options."
	tests := []struct{ name, old, new, path, lineOf string }{
		{"no cluster", "  cluster: payments.default\n", "", "node.cluster", "  id: sidecar"},
		{"empty id", "  id: sidecar~10.0.0.7~payments-6d5f9.default~default.svc.cluster.local\n", "  id: \"\"\n", "node.id", "  id: \"\""},
		{"no node", ref[strings.Index(ref, "node:"):strings.Index(ref, "dynamic_resources:")], "", "node.id", "api_type: GRPC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := mutate(t, ref, tt.old, tt.new)
			r := Validate([]byte(text))
			if r.OK() || r.Problems[0].Message != want || r.Problems[0].Path != tt.path {
				t.Fatalf("%+v", r.Problems)
			}
			if line := lineOf(text, tt.lineOf); r.Problems[0].Line != line {
				t.Errorf("line %d, want %d", r.Problems[0].Line, line)
			}
		})
	}
	// Without ADS nothing needs the node: a bootstrap of static resources alone starts.
	static := "static_resources:\n  clusters:\n  - name: a\n    type: STATIC\n    load_assignment:\n      cluster_name: a\n      endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: 127.0.0.1, port_value: 80}}}}]}]\n"
	if r := Validate([]byte(static)); !r.OK() {
		t.Fatalf("%+v", r.Problems)
	}
}

// xDS is v3 only: a config source that says V2 is refused, in Envoy's words, which end with the
// source's DebugString (utility.h:156-170 at v1.39.0), written … as protobuf 35.1 randomises its
// marker. One that leaves transport_api_version out (AUTO) means V3 since
// Envoy 1.31 and is accepted.
func TestTransportAPIVersion(t *testing.T) {
	ref := reference(t)
	const tail = ". The v2 xDS major version has been removed and is no longer supported. See the advice in https://www.envoyproxy.io/docs/envoy/latest/faq/api/envoy_v3."
	direct := func(version string) string {
		return "  lds_config:\n    api_config_source:\n      api_type: DELTA_GRPC\n" + version + "      grpc_services: [{envoy_grpc: {cluster_name: xds-grpc}}]\n"
	}
	for name, change := range map[string][2]string{
		"left out":               {"    transport_api_version: V3\n", ""},
		"direct source left out": {"  lds_config:\n    ads: {}\n", direct("")},
	} {
		if r := Validate([]byte(mutate(t, ref, change[0], change[1]))); !r.OK() {
			t.Errorf("%s: refused: %+v", name, r.Problems)
		}
	}
	tests := []struct{ name, old, new, path, source, lineOf string }{
		{"V2", "    transport_api_version: V3\n", "    transport_api_version: V2\n", "dynamic_resources.ads_config.transport_api_version",
			"…", "transport_api_version: V2"},
		{"direct source V2", "  lds_config:\n    ads: {}\n", direct("      transport_api_version: V2\n"),
			"dynamic_resources.lds_config.api_config_source.transport_api_version",
			"…", "transport_api_version: V2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := mutate(t, ref, tt.old, tt.new)
			r := Validate([]byte(text))
			want := "V2 xDS transport protocol version is deprecated in " + tt.source + tail
			if r.OK() || len(r.Problems) != 1 || r.Problems[0].Message != want || r.Problems[0].Path != tt.path {
				t.Fatalf("%+v", r.Problems)
			}
			if line := lineOf(text, tt.lineOf); r.Problems[0].Line != line {
				t.Errorf("line %d, want %d", r.Problems[0].Line, line)
			}
		})
	}
}

// A tab in the indentation is reported on the tab's own line (yaml.v3 names the line before).
func TestTabErrorOnItsOwnLine(t *testing.T) {
	for _, tt := range []struct {
		text      string
		line, col int
	}{
		{"static_resources:\n  clusters:\n  - name: a\n    type: STATIC\n\tconnect_timeout: 1s\n", 5, 1},
		{"admin:\n  address:\n  \tsocket_address: {}\n", 3, 3},
		{"node:\n  id: x\n\n\n\tcluster: y\n", 5, 1},
		{"admin:\n\taddress: x\n", 2, 1},
		{"admin: [\n  address:\n", 2, 3}, // not a tab: the line yaml.v3 gives, at its first token
		{"a: 1\nb: [1,\nc: 2\n", 2, 1},   // a list left open: the line it starts on (yaml.v3 names it 0-based: ja r11 M9)
	} {
		r := Validate([]byte(tt.text))
		if r.OK() {
			t.Fatalf("accepted %q", tt.text)
		}
		if p := r.Problems[0]; p.Line != tt.line || p.Col != tt.col {
			t.Errorf("%q: at %d:%d, want %d:%d (%s)", tt.text, p.Line, p.Col, tt.line, tt.col, p.Message)
		}
	}
}

// Envoy keeps the last of a mapping's duplicate keys: yaml-cpp keeps every pair and parseYamlNode
// assigns them in order into one Struct (8eea328:source/common/protobuf/yaml_utility.cc:87-93).
func TestDuplicateKeyTheLastWins(t *testing.T) {
	ref := reference(t)
	lastBad := mutate(t, ref, "port_value: 9982}", "port_value: 9982, port_value: abc}")
	if r := Validate([]byte(lastBad)); r.OK() {
		t.Errorf("a bad last port_value passed")
	}
	firstBad := mutate(t, ref, "port_value: 9982}", "port_value: abc, port_value: 9982}")
	if r := Validate([]byte(firstBad)); !r.OK() {
		t.Errorf("a good last port_value was refused:\n%s", r.Report("f"))
	}
	if got := Validate([]byte(firstBad)).Parsed().GetAdmin().GetAddress().GetSocketAddress().GetPortValue(); got != 9982 {
		t.Errorf("port_value %d, want the last, 9982", got)
	}
}

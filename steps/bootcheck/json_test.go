package bootcheck

import (
	"strings"
	"testing"
)

// Envoy reads a file as YAML only when it is named .yaml or .yml; any other is JSON, handed to
// protobuf's parser as it is (MessageUtil::loadFromFile). Where the two readings differ, each
// file is judged by its own.
func TestFileNameDecidesTheReading(t *testing.T) {
	dupYAML := "admin:\n  address:\n    socket_address: {address: 127.0.0.1, port_value: 1}\n    socket_address: {address: 127.0.0.1, port_value: 9901}\n"
	dupJSON := `{"admin": {"address": {"socket_address": {"address": "127.0.0.1", "port_value": 1}, "socket_address": {"address": "127.0.0.1", "port_value": 9901}}}}`
	for _, tt := range []struct {
		file, text, want string // want: "" accepted, else the first problem's message starts so
	}{
		// yaml-cpp keeps both keys; parseYamlNode writes them into one Struct: the last wins.
		{"envoy.yaml", dupYAML, ""},
		// protobuf's parser meets the field twice (parser.cc ParseField).
		{"envoy.json", dupJSON, "Unable to parse JSON as proto (INVALID_ARGUMENT: invalid JSON in envoy.config.bootstrap.v3.Bootstrap @ admin.address.socket_address: message envoy.config.core.v3.SocketAddress, near 1:… (offset …): 'socket_address' has already been set"},
		// YAML under another name is not JSON: the parser wants '{' first.
		{"envoy.conf", dupYAML, "Unable to parse JSON as proto (INVALID_ARGUMENT: invalid JSON in envoy.config.bootstrap.v3.Bootstrap, near 1:1 (offset 0): unexpected character: 'a'; expected '{'): admin:"},
		// In JSON a number is a number: a cluster named 5 is refused, as in YAML.
		{"envoy.json", `{"static_resources": {"clusters": [{"name": 5, "connect_timeout": "1s"}]}}`, "Unable to parse JSON as proto (INVALID_ARGUMENT: invalid JSON in envoy.config.bootstrap.v3.Bootstrap @ static_resources.clusters[0].name: string, near 1:… (offset …): unexpected character: '5'"},
		// A quoted enum name stays a string when the walk rewrites it (upper case) for JSON.
		{"envoy.json", `{"static_resources": {"clusters": [{"name": "a", "type": "static", "connect_timeout": "1s"}]}}`, ""},
	} {
		r := ValidateWith([]byte(tt.text), ForFile(tt.file))
		switch {
		case tt.want == "" && !r.OK():
			t.Errorf("%s: refused: %s", tt.file, r.Report(tt.file))
		case tt.want != "" && (r.OK() || !strings.HasPrefix(r.Problems[0].Message, tt.want)):
			t.Errorf("%s: got %+v\nwant %s", tt.file, r.Problems, tt.want)
		}
	}
	if one := strings.Count(ValidateWith([]byte(dupYAML), ForFile("x.conf")).Report("x.conf"), "\n"); one != 1 {
		t.Errorf("the echoed YAML spans %d lines of the report, want 1", one)
	}
}

package bootcheck

import (
	"encoding/json"
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

// A JSON bootstrap is read by protobuf's lexer with its legacy behaviour on (Envoy leaves
// JsonParseOptions as they come, yaml_utility.cc:153; json.h:30): what strict JSON refuses and
// that lexer takes is accepted, and read as Envoy reads it; what it refuses is refused in its
// words, at its place.
func TestLegacyJSON(t *testing.T) {
	const admin = `"admin": {"address": {"socket_address": {"address": "127.0.0.1", "port_value": 9901}}}`
	for _, tt := range []struct {
		name, text string
		want       string // "" accepted, else the first problem's message starts so
		path, is   string // accepted: where the canonical form holds, and its JSON there
	}{
		{"commas before the closes", `{"static_resources": {"clusters": [{"name": "a", "connect_timeout": "1s",},],}, ` + admin + `,}`, "",
			"static_resources.clusters.0.name", `"a"`},
		{"bare keys", `{static_resources: {clusters: [{name: "a", connect_timeout: "1s"}]}}`, "", "static_resources.clusters.0.name", `"a"`},
		{"single quotes, a \\' and a double quote in them", `{'static_resources': {'clusters': [{'name': 'it\'s "a"'}]}}`, "",
			"static_resources.clusters.0.name", `"it's \"a\""`},
		{"a raw tab and newline in a string", "{\"static_resources\": {\"clusters\": [{\"name\": \"a\tb\nc\"}]}}", "",
			"static_resources.clusters.0.name", `"a\tb\nc"`},
		{"a \\U escape", `{"static_resources": {"clusters": [{"name": "\U0041\u00e9"}]}}`, "", "static_resources.clusters.0.name", `"Aé"`},
		// parser.cc ParseField: a field not in a oneof may come again (parser_traits.h HasParsed).
		{"a list given twice is one list", `{"static_resources": {"clusters": [{"name": "a"}], "clusters": [{"name": "b"}]}}`, "",
			"static_resources.clusters.1.name", `"b"`},
		{"a scalar given twice: the later", `{"static_resources": {"clusters": [{"name": "a", "name": "b"}]}}`, "", "static_resources.clusters.0.name", `"b"`},
		{"a message given twice: one message", `{"admin": {"profile_path": "/p"}, "admin": {"address": {"socket_address": {"address": "127.0.0.1", "port_value": 9901}}}}`, "",
			"admin.profile_path", `"/p"`},
		{"a list given twice, its names twice", `{"static_resources": {"clusters": [{"name": "a"}], "clusters": [{"name": "a"}]}}`,
			"cluster manager: duplicate cluster 'a'", "", ""},
		// parser.cc ParseMap: a map's key, or a Struct's, may not come twice.
		{"a Struct's key twice", `{"node": {"id": "a", "cluster": "b", "metadata": {"k": 1, "k": 2}}}`,
			"Unable to parse JSON as proto (INVALID_ARGUMENT: invalid JSON in envoy.config.bootstrap.v3.Bootstrap @ node.metadata.<struct>[1]: message google.protobuf.Struct.FieldsEntry, near 1:… (offset …): got unexpectedly-repeated repeated map key: 'k'): {", "", ""},
		{"a map's key twice", `{"static_resources": {"clusters": [{"name": "a", "typed_extension_protocol_options": {"x": {}, "x": {}}}]}}`,
			"Unable to parse JSON as proto (INVALID_ARGUMENT: invalid JSON in envoy.config.bootstrap.v3.Bootstrap @ static_resources.clusters[0].typed_extension_protocol_options[1]: message envoy.config.cluster.v3.Cluster.TypedExtensionProtocolOptionsEntry, near 1:… (offset …): got unexpectedly-repeated repeated map key: 'x'): {", "", ""},
		{"a leading zero", `{` + strings.Replace(admin, "9901", "09901", 1) + `}`,
			"Unable to parse JSON as proto (INVALID_ARGUMENT: invalid JSON in envoy.config.bootstrap.v3.Bootstrap @ admin.address.socket_address.port_value: uint32, near 1:81 (offset 80): number cannot have extraneous leading zero): {", "", ""},
		{"a trailing period", `{` + strings.Replace(admin, "9901", "9901.", 1) + `}`,
			"Unable to parse JSON as proto (INVALID_ARGUMENT: invalid JSON in envoy.config.bootstrap.v3.Bootstrap @ admin.address.socket_address.port_value: uint32, near 1:81 (offset 80): number cannot have trailing period): {", "", ""},
		{"a bare key that is not a word", `{"admin": {9port: 1}}`,
			"Unable to parse JSON as proto (INVALID_ARGUMENT: invalid JSON in envoy.config.bootstrap.v3.Bootstrap @ admin: message envoy.config.bootstrap.v3.Admin, near 1:12 (offset 11): expected bare word): {", "", ""},
		{"a missing comma", `{"admin": {"profile_path": "/x" "address": {}}}`,
			"Unable to parse JSON as proto (INVALID_ARGUMENT: invalid JSON in envoy.config.bootstrap.v3.Bootstrap @ admin: message envoy.config.bootstrap.v3.Admin, near 1:33 (offset 32): expected ','): {", "", ""},
		{"an escape JSON has not", `{"admin": {"profile_path": "a\xb"}}`,
			`Unable to parse JSON as proto (INVALID_ARGUMENT: invalid JSON in envoy.config.bootstrap.v3.Bootstrap @ admin.profile_path: string, near 1:32 (offset 31): invalid escape char: 'x'): {`, "", ""},
		{"text after the object", `{"admin": {}} x`, "Unable to parse JSON as proto (INVALID_ARGUMENT: extraneous characters after end of JSON object): {", "", ""},
		{"the end inside a string", `{"admin": {"profile_path": "/x`, "Unable to parse JSON as proto (INVALID_ARGUMENT: unexpected EOF): {", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := ValidateWith([]byte(tt.text), ForFile("envoy.json"))
			if tt.want != "" {
				if r.OK() || !strings.HasPrefix(r.Problems[0].Message, tt.want) {
					t.Errorf("got %s\nwant %s", r.Report("envoy.json"), tt.want)
				}
				return
			}
			if !r.OK() {
				t.Fatalf("refused: %s", r.Report("envoy.json"))
			}
			var tree any
			if err := json.Unmarshal(r.Canonical(), &tree); err != nil {
				t.Fatal(err)
			}
			if got := dig(t, tree, strings.Split(tt.path, ".")); got != tt.is {
				t.Errorf("%s = %s, want %s", tt.path, got, tt.is)
			}
		})
	}
}

// A raw newline in a JSON string does not move what follows: a later problem is reported on the
// line it is on.
func TestLegacyJSONKeepsLines(t *testing.T) {
	text := "{\"node\": {\"id\": \"a\",\n\"cluster\": \"two\nlines\"},\n\"admin\": {\"profile_path\": 5}}"
	r := ValidateWith([]byte(text), ForFile("envoy.json"))
	if r.OK() || r.Problems[0].Line != 4 {
		t.Errorf("got %s, want a problem on line 4", r.Report("envoy.json"))
	}
}

package bootcheck

import (
	"strings"
	"testing"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// Hostile L13: a file named .pb is binary protobuf and .pb_text text format, as Envoy's
// loadFromFile reads them (case-insensitively), before YAML or JSON.
func TestProtobufFilesAreReadAsEnvoyReadsThem(t *testing.T) {
	if o := ForFile("BOOT.PB_TEXT"); !o.ProtoText || o.Path != "BOOT.PB_TEXT" {
		t.Errorf("ForFile: %+v", o)
	}
	r := ValidateWith([]byte(`{"node": {"id": "a"}}`), ForFile("j.pb_text"))
	if r.OK() || r.Problems[0].Message != `Unable to parse file "j.pb_text" as a text protobuf (type envoy.config.bootstrap.v3.Bootstrap)` {
		t.Errorf("JSON in a .pb_text: %+v", r.Problems)
	}
	if r := ValidateWith([]byte(`node { id: "a" cluster: "b" }`), ForFile("t.pb_text")); !r.OK() {
		t.Errorf("a text bootstrap: %+v", r.Problems)
	}
	bs := &bootstrapv3.Bootstrap{Node: &corev3.Node{Id: "a", Cluster: "b"}}
	bin, err := proto.Marshal(bs)
	if err != nil {
		t.Fatal(err)
	}
	if r := ValidateWith(bin, ForFile("b.pb")); !r.OK() || r.Parsed().GetNode().GetId() != "a" {
		t.Errorf("a binary bootstrap: %+v", r.Problems)
	}
	// An unknown field number, at the root and in the node: Envoy names the type, its parents and
	// the numbers.
	root := protowire.AppendVarint(protowire.AppendTag(append([]byte{}, bin...), 99, protowire.VarintType), 1)
	r = ValidateWith(root, ForFile("b.pb"))
	if r.OK() || r.Problems[0].Message != "Protobuf message (type envoy.config.bootstrap.v3.Bootstrap(root) with unknown field set {99}) has unknown fields" {
		t.Errorf("an unknown root field: %+v", r.Problems)
	}
	node, _ := proto.Marshal(&corev3.Node{Id: "a", Cluster: "b"})
	node = protowire.AppendVarint(protowire.AppendTag(node, 77, protowire.VarintType), 3)
	nested := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), node)
	r = ValidateWith(nested, ForFile("n.pb"))
	if r.OK() || !strings.Contains(r.Problems[0].Message, "type envoy.config.core.v3.Node(envoy.config.bootstrap.v3.Bootstrap) with unknown field set {77}") {
		t.Errorf("an unknown node field: %+v", r.Problems)
	}
	lenient := ForFile("n.pb")
	lenient.AllowUnknownStaticFields = true
	if r := ValidateWith(nested, lenient); !r.OK() || len(r.Warnings) != 1 || !strings.HasPrefix(r.Warnings[0].Message, "Unknown field: type envoy.config.core.v3.Node") {
		t.Errorf("under --allow-unknown-static-fields: %+v %+v", r.Problems, r.Warnings)
	}
	// What does not parse as binary is taken silently (line 865's comment): an empty bootstrap.
	if r := ValidateWith([]byte("node:\n  id: a\n"), ForFile("y.pb")); !r.OK() {
		t.Errorf("YAML in a .pb: %+v", r.Problems)
	}
}

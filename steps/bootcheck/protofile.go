package bootcheck

import (
	"fmt"
	"strconv"
	"strings"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"gopkg.in/yaml.v3"
)

// Envoy reads a bootstrap named *.pb as binary protobuf and *.pb_text as protobuf's text format,
// before it looks for YAML or JSON (MessageUtil::loadFromFile, source/common/protobuf/utility.cc
// at v1.39.0, lines 859-880; the names case-insensitively). What follows the parse — the
// constraints and the server's build — is the same for every format.

// validateProtoFile judges a bootstrap in binary or text protobuf, as loadFromFile reads it.
func validateProtoFile(data []byte, o Options) Result {
	var bs bootstrapv3.Bootstrap
	w := &walker{lenient: o.AllowUnknownStaticFields, positions: map[string]*yaml.Node{}}
	if o.ProtoText {
		if prototext.Unmarshal(data, &bs) != nil {
			return Result{Problems: []Problem{{Message: fmt.Sprintf("Unable to parse file \"%s\" as a text protobuf (type %s)", o.Path, rootType)}}}
		}
	} else {
		// "Ideally this would return an error if ParseFromString fails ... but instead it will
		// silently fail" (line 865): what was parsed is not defined, so nothing is taken.
		if proto.Unmarshal(data, &bs) != nil {
			bs.Reset()
		}
		if p, found := unknownBinaryFields(bs.ProtoReflect(), nil); found {
			if !o.AllowUnknownStaticFields {
				return Result{Problems: []Problem{p}}
			}
			w.warnings = append(w.warnings, Problem{Message: "Unknown field: " + strings.TrimSuffix(strings.TrimPrefix(p.Message, "Protobuf message ("), ") has unknown fields")})
		}
	}
	if err := bs.ValidateAll(); err != nil {
		return Result{Problems: w.pgvProblems(err, ""), Warnings: w.warnings, parsed: &bs}
	}
	tree := messages(bs.ProtoReflect())
	r := startupChecks(&bs, tree, w.positions, w.anyProblems(tree), o.Serve)
	r.Warnings = append(w.warnings, r.Warnings...)
	r.parsed = &bs
	return r
}

// unknownBinaryFields is the first message, depth first from the root, that holds field numbers
// its type does not have, in the words of checkForUnexpectedFields (utility.cc lines 291-308):
// "type T(P::Q) with unknown field set {n, m}", the parents' types joined by "::", or "root".
func unknownBinaryFields(m protoreflect.Message, parents []string) (Problem, bool) {
	if raw := m.GetUnknown(); len(raw) > 0 {
		var numbers []string
		for len(raw) > 0 {
			num, _, n := protowire.ConsumeField(raw)
			if n < 0 {
				break
			}
			numbers = append(numbers, strconv.Itoa(int(num)))
			raw = raw[n:]
		}
		where := "root"
		if len(parents) > 0 {
			where = strings.Join(parents, "::")
		}
		desc := fmt.Sprintf("type %s(%s) with unknown field set {%s}", m.Descriptor().FullName(), where, strings.Join(numbers, ", "))
		return Problem{Message: "Protobuf message (" + desc + ") has unknown fields"}, true
	}
	inner := append(parents[:len(parents):len(parents)], string(m.Descriptor().FullName()))
	var found Problem
	var ok bool
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsMap() && fd.MapValue().Message() != nil:
			v.Map().Range(func(_ protoreflect.MapKey, e protoreflect.Value) bool {
				found, ok = unknownBinaryFields(e.Message(), inner)
				return !ok
			})
		case fd.IsList() && fd.Message() != nil:
			for i := 0; i < v.List().Len() && !ok; i++ {
				found, ok = unknownBinaryFields(v.List().Get(i).Message(), inner)
			}
		case !fd.IsList() && !fd.IsMap() && fd.Message() != nil:
			found, ok = unknownBinaryFields(v.Message(), inner)
		}
		return !ok
	})
	return found, ok
}

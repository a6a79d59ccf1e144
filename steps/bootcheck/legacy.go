package bootcheck

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/reflect/protoreflect"
	"gopkg.in/yaml.v3"
)

// Envoy reads a configuration as YAML → JSON → protobuf's C++ JSON parser
// (MessageUtil::loadFromJson), through the parser's public entry point, which allows its legacy
// syntax, and with case_insensitive_enum_parsing set. Three things it therefore accepts that
// protobuf's Go JSON mapping refuses are rewritten here, in the tree, before anything else reads
// it, so that every later check (and protojson itself) sees what Envoy's parser made of the text:
//   - a lone value where a list is expected: a list of that one value;
//   - an enum name in any case: its own name;
//   - a well-known type written as the message it is ({seconds: 300} for a Duration,
//     {value: 5} for a wrapper).

// asList makes n a list holding what n was. It rewrites n in place: its parent holds n itself.
func asList(n *yaml.Node) {
	elem := *n
	*n = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: n.Line, Column: n.Column, Content: []*yaml.Node{&elem}}
}

// enumName is the enum value an Envoy config names with s: matched ignoring case, as
// case_insensitive_enum_parsing does (descriptor_traits.h EnumNumberByName, absl::EqualsIgnoreCase).
func enumName(ed protoreflect.EnumDescriptor, s string) (protoreflect.Name, bool) {
	values := ed.Values()
	for i := 0; i < values.Len(); i++ {
		if name := values.Get(i).Name(); strings.EqualFold(string(name), s) {
			return name, true
		}
	}
	return "", false
}

// legacyWellKnown rewrites, in place, a well-known type written in object form (its fields
// already walked, so each is in its canonical form) into the JSON form Go's protojson reads. A
// Duration's fields are not range-checked by protobuf's parser; Envoy checks them after parsing
// (durations.go).
func (w *walker) legacyWellKnown(n *yaml.Node, md protoreflect.MessageDescriptor, path string) {
	fields := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		name := n.Content[i].Value
		fd := md.Fields().ByName(protoreflect.Name(name))
		if fd == nil {
			fd = md.Fields().ByJSONName(name)
		}
		if fd != nil {
			fields[string(fd.Name())] = n.Content[i+1]
		}
	}
	switch md.FullName() {
	case "google.protobuf.Duration", "google.protobuf.Timestamp":
		secs, nanos := wholeNumber(fields["seconds"]), wholeNumber(fields["nanos"])
		text := time.Unix(secs, nanos).UTC().Format(time.RFC3339Nano)
		if md.FullName() == "google.protobuf.Duration" {
			text = w.durationLimits(n, path, secs, nanos)
		}
		*n = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: text, Line: n.Line, Column: n.Column}
	case "google.protobuf.FieldMask":
		var paths []string
		if p := fields["paths"]; p != nil {
			if p.Kind != yaml.SequenceNode {
				asList(p)
			}
			for _, e := range p.Content {
				paths = append(paths, e.Value)
			}
		}
		*n = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: strings.Join(paths, ","), Line: n.Line, Column: n.Column}
	default: // a wrapper: {value: x} is x
		v := fields["value"]
		if v == nil {
			v = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: n.Line, Column: n.Column}
		}
		*n = *v
	}
}

// wholeNumber is a walked integer field's value, 0 when it is absent or null.
func wholeNumber(n *yaml.Node) int64 {
	if n == nil || n.Tag != "!!int" {
		return 0
	}
	i, _ := strconv.ParseInt(n.Value, 10, 64)
	return i
}

// durationText is a Duration in protobuf's JSON form: seconds, a fraction when there is one, "s".
func durationText(secs, nanos int64) string {
	sign := ""
	if secs < 0 || nanos < 0 {
		sign, secs, nanos = "-", -secs, -nanos
	}
	text := sign + strconv.FormatInt(secs, 10)
	if nanos != 0 {
		text += "." + strings.TrimRight(fmt.Sprintf("%09d", nanos), "0")
	}
	return text + "s"
}

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

// mergeRepeatedKeys rewrites n, in place, so that each field of md not in a oneof is met once.
// With its legacy behaviour the parser lets such a field come again (parser.cc ParseField:
// HasParsed(…, allow_repeated_non_oneof) is false for it, parser_traits.h:68-78; a oneof's
// second member is still refused): a list's later elements are appended, a message's later
// fields go into the same message (MutableMessage), a later scalar replaces the earlier
// (RecordAsSeen clears a field only the first time). A JSON file can say a key twice; a YAML one,
// once as its proto name and once as its JSON name.
func mergeRepeatedKeys(n *yaml.Node, md protoreflect.MessageDescriptor, skip map[string]bool) {
	first := map[protoreflect.Name]int{}
	var drop []int
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if skip[k.Value] || isNull(v) {
			continue
		}
		fd := md.Fields().ByName(protoreflect.Name(k.Value))
		if fd == nil {
			fd = md.Fields().ByJSONName(k.Value)
		}
		if fd == nil || (fd.ContainingOneof() != nil && !fd.ContainingOneof().IsSynthetic()) {
			continue
		}
		at, again := first[fd.Name()]
		if !again {
			first[fd.Name()] = i
			continue
		}
		earlier := n.Content[at+1]
		switch {
		case earlier.Kind == yaml.AliasNode || v.Kind == yaml.AliasNode:
			drop, first[fd.Name()] = append(drop, at), i // an anchor's node is shared: not merged into
		case fd.IsList() && !fd.IsMap():
			if earlier.Kind != yaml.SequenceNode {
				asList(earlier)
			}
			if v.Kind == yaml.SequenceNode {
				earlier.Content = append(earlier.Content, v.Content...)
			} else {
				earlier.Content = append(earlier.Content, v)
			}
			drop = append(drop, i)
		case (fd.IsMap() || fd.Message() != nil && !isWellKnown(fd.Message())) &&
			earlier.Kind == yaml.MappingNode && v.Kind == yaml.MappingNode:
			earlier.Content = append(earlier.Content, v.Content...)
			drop = append(drop, i)
		default:
			drop, first[fd.Name()] = append(drop, at), i
		}
	}
	if len(drop) == 0 {
		return
	}
	gone := map[int]bool{}
	for _, i := range drop {
		gone[i] = true
	}
	kept := n.Content[:0:0]
	for i := 0; i+1 < len(n.Content); i += 2 {
		if !gone[i] {
			kept = append(kept, n.Content[i], n.Content[i+1])
		}
	}
	n.Content = kept
}

// repeatedMapKey refuses a map (or a Struct) whose key comes twice, which only a JSON file can
// write (YAML's last key wins, lastKeyWins): parser.cc ParseMap, at the entry's index.
func (w *walker) repeatedMapKey(n *yaml.Node, path, what string) bool {
	if n.Kind != yaml.MappingNode || len(n.Content) < 4 {
		return false
	}
	seen := make(map[string]bool, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		if seen[k] {
			w.parseFailure(n.Content[i], fmt.Sprintf("%s[%d]", path, i/2), what, fmt.Sprintf("got unexpectedly-repeated repeated map key: '%s'", k))
			return true
		}
		seen[k] = true
	}
	return false
}

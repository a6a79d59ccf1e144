package bootcheck

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/envoyproxy/go-control-plane/envoy/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"gopkg.in/yaml.v3"
)

// walker reads the YAML tree against Envoy's message descriptors the way protobuf's JSON parser
// will, so that every refusal can name the field path and the line: unknown fields (with the
// closest valid name), a value of the wrong type, a oneof set twice, an @type nothing defines.
type walker struct {
	problems   []Problem
	warnings   []Problem                   // deprecated fields: Envoy logs them and goes on
	lenient    bool                        // --allow-unknown-static-fields: unknown fields are dropped, with a warning
	unknown    *Problem                    // the first unknown field or enum name met (Envoy's parser stops there)
	unsetEnums map[*yaml.Node]bool         // unknown enum names, when lenient: the field is left unset
	anyPaths   map[string]bool             // paths of the Anys met: protobuf names their content "<any>"
	typed      func(*yaml.Node) envoyValue // how Envoy's loader types a scalar: yaml-cpp's or JSON's
	durations  []Problem                   // durations that parse but break Envoy's limits (durations.go)
	positions  map[string]*yaml.Node       // field path (proto names) → its YAML node
	visited    int                         // nodes walked, aliases expanded: bounded against alias bombs
	depth      int
	stopped    bool
	suggested  int // unknown names given a "did you mean": a typo is one of a few, not of thousands
}

// maxSuggestions bounds the edit-distance search, which is the walk's dearest step: a file of
// 100 000 unknown keys would otherwise take seconds for hints no report shows.
const maxSuggestions = 100

// suggest is the field a misspelt name was likely meant to be, for the first maxSuggestions.
func (w *walker) suggest(name string, md protoreflect.MessageDescriptor) string {
	if w.suggested >= maxSuggestions {
		return ""
	}
	w.suggested++
	return suggestField(name, md)
}

// Bounds of the walk: a real bootstrap is a few hundred nodes a dozen levels deep; an alias that
// contains itself, or aliases of aliases, would otherwise walk forever.
const (
	maxNodes     = 200000
	maxWalkDepth = 100
)

// enter counts a node; false (with one problem) once the walk is past its bounds.
func (w *walker) enter(n *yaml.Node, path string) bool {
	w.visited++
	if w.stopped {
		return false
	}
	if w.visited > maxNodes || w.depth > maxWalkDepth {
		w.stopped = true
		w.add(n, path, "the configuration nests too deep or expands too many aliases to be a bootstrap", "")
		return false
	}
	return true
}

func (w *walker) add(n *yaml.Node, path, msg, hint string) {
	p := Problem{Path: path, Message: msg, Hint: hint}
	if n != nil {
		p.Line, p.Col = n.Line, n.Column
	}
	w.problems = append(w.problems, p)
}

func (w *walker) at(path string, n *yaml.Node) {
	if w.positions == nil {
		w.positions = map[string]*yaml.Node{}
	}
	w.positions[path] = n
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// message checks n as a message of type md.
func (w *walker) message(n *yaml.Node, md protoreflect.MessageDescriptor, path string) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if !w.enter(n, path) {
		return
	}
	w.depth++
	defer func() { w.depth-- }()
	w.at(path, n)
	if isNull(n) {
		return
	}
	switch md.FullName() {
	case "google.protobuf.Any":
		w.any(n, path)
		return
	case "google.protobuf.Struct", "google.protobuf.Value", "google.protobuf.ListValue":
		if md.FullName() == "google.protobuf.Struct" && w.repeatedMapKey(n, path+".<struct>", "message google.protobuf.Struct.FieldsEntry") {
			return
		}
		w.freeForm(n, path) // free-form JSON: only where its keys are, for later checks to point at
		return
	}
	what := "message " + string(md.FullName())
	if isWellKnown(md) && n.Kind == yaml.MappingNode { // legacy syntax: the type read as a message
		before := len(w.problems)
		w.fields(n, md, path, nil)
		if len(w.problems) == before {
			w.legacyWellKnown(n, md, path)
		}
		return
	}
	switch md.FullName() {
	case "google.protobuf.Duration":
		w.duration(n, path, what)
		return
	case "google.protobuf.Timestamp", "google.protobuf.FieldMask":
		if w.typed(n).kind != jsonString || n.Kind != yaml.ScalarNode {
			w.parseFailure(n, path, what, `expected '"'`)
		}
		return
	}
	if isWrapper(md) { // ParseSingular on the wrapper's value: protobuf names the wrapper field
		w.single(n, md.Fields().ByName("value"), path, what)
		return
	}
	if n.Kind != yaml.MappingNode {
		w.parseFailure(n, path, what, w.notObject(n))
		return
	}
	w.fields(n, md, path, nil)
}

// flatten splices the elements of every list inside the list n into it, in place.
func flatten(n *yaml.Node) {
	var out []*yaml.Node
	nested := false
	var add func(list *yaml.Node, depth int)
	add = func(list *yaml.Node, depth int) {
		for _, e := range list.Content {
			if e.Kind == yaml.AliasNode && e.Alias != nil && e.Alias.Kind == yaml.SequenceNode {
				e = e.Alias
			}
			if len(out) > maxNodes { // an alias bomb: left for the walk's own bound to refuse
				return
			}
			if e.Kind == yaml.SequenceNode && depth < maxWalkDepth {
				nested = true
				add(e, depth+1)
				continue
			}
			out = append(out, e)
		}
	}
	add(n, 0)
	if nested && len(out) <= maxNodes {
		n.Content = out
	}
}

// freeForm records where each key of free-form JSON (a Struct) is, by its dotted path.
func (w *walker) freeForm(n *yaml.Node, path string) {
	if n.Kind != yaml.MappingNode || !w.enter(n, path) {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		p := joinPath(path, n.Content[i].Value)
		w.at(p, n.Content[i+1])
		w.freeForm(n.Content[i+1], p)
	}
}

// fields checks each key of a mapping as a field of md; skip names keys that are not fields
// (@type in an Any).
func (w *walker) fields(n *yaml.Node, md protoreflect.MessageDescriptor, path string, skip map[string]bool) {
	mergeRepeatedKeys(n, md, skip)
	oneofs := map[protoreflect.FullName]string{}
	drop := map[int]bool{} // keys the parser skips (unknown, when lenient): gone before protobuf reads it
	defer func() { dropKeys(n, drop) }()
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if skip[k.Value] {
			continue
		}
		fd := md.Fields().ByName(protoreflect.Name(k.Value))
		if fd == nil {
			fd = md.Fields().ByJSONName(k.Value)
		}
		if fd == nil {
			w.unknownMet(k, joinPath(path, k.Value), noSuchField(md, path, k.Value), w.suggest(k.Value, md))
			if w.lenient {
				drop[i] = true
			}
			continue
		}
		fp := joinPath(path, string(fd.Name()))
		w.deprecation(k, fd, fp)
		// ParseField: a oneof met a second time (a null value aside); any other field met again
		// is merged (mergeRepeatedKeys).
		twice := fmt.Sprintf("'%s' has already been set (either directly or as part of a oneof)", k.Value)
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() && !isNull(v) {
			if _, set := oneofs[od.FullName()]; set {
				w.parseFailure(k, fp, fieldWhat(fd), twice)
				continue
			}
			oneofs[od.FullName()] = string(fd.Name())
		}
		w.value(v, fd, fp)
		if w.unsetEnums[v] {
			drop[i] = true
		}
	}
}

// deprecation: a deprecated field is logged by Envoy and accepted, unless its API marks it
// disallowed by default, which Envoy refuses.
func (w *walker) deprecation(k *yaml.Node, fd protoreflect.FieldDescriptor, path string) {
	opts, ok := fd.Options().(*descriptorpb.FieldOptions)
	if !ok || !opts.GetDeprecated() {
		return
	}
	msg := fmt.Sprintf("Using deprecated option '%s' from file %s. This configuration will be removed from Envoy soon.",
		fd.FullName(), filepath.Base(fd.ParentFile().Path()))
	p := Problem{Path: path, Message: msg, Line: k.Line, Col: k.Column}
	if disallowed, _ := proto.GetExtension(opts, annotations.E_DisallowedByDefault).(bool); disallowed {
		w.problems = append(w.problems, p)
		return
	}
	w.warnings = append(w.warnings, p)
}

// noSuchField is protobuf's parser refusing a key its message does not have, in the words of
// protobuf 35.1 (json/internal/parser.cc ParseField; the location by lexer.cc JsonLocation::Invalid
// and message_path.cc Describe). Envoy's JSON is one line whose key order it does not fix, so the
// position is not knowable beforehand: it is left as "…" (and protobuf adds stray spaces on purpose).
func noSuchField(md protoreflect.MessageDescriptor, path, name string) string {
	where := string(rootType)
	if path != "" {
		where += " @ " + path + ": message " + string(md.FullName())
	}
	return fmt.Sprintf("invalid JSON in %s, near 1:… (offset …): no such field: '%s'", where, name)
}

// rootType is the message Envoy parses a bootstrap as: every unknown-field description names it.
const rootType protoreflect.FullName = "envoy.config.bootstrap.v3.Bootstrap"

// unknownMet handles what protobuf's strict parse refuses and its relaxed parse skips — an unknown
// field or enum name (MessageUtil::loadFromJson retries ignoring unknown fields, then calls the
// validation visitor with the strict parse's status). Strict (`envoy` as run by hand, --mode
// validate): "Protobuf message (…) has unknown fields", for every one found, so the learner sees
// them all. Lenient (pilot-agent's --allow-unknown-static-fields): one warning, "Unknown field: …",
// for the first only — the strict parse stops at its first error — and the value is dropped.
func (w *walker) unknownMet(n *yaml.Node, path, status, hint string) {
	desc := fmt.Sprintf("type %s reason INVALID_ARGUMENT: %s", rootType, status)
	if !w.lenient {
		w.add(n, path, "Protobuf message ("+desc+") has unknown fields", hint)
		return
	}
	if w.unknown != nil {
		return
	}
	p := Problem{Path: path, Line: n.Line, Col: n.Column, Message: "Unknown field: " + desc, Hint: hint}
	w.unknown = &p
	w.warnings = append(w.warnings, p)
}

// dropKeys removes the marked keys (by index of the key node) from a mapping.
func dropKeys(n *yaml.Node, drop map[int]bool) {
	if len(drop) == 0 {
		return
	}
	kept := n.Content[:0:0]
	for i := 0; i+1 < len(n.Content); i += 2 {
		if !drop[i] {
			kept = append(kept, n.Content[i], n.Content[i+1])
		}
	}
	n.Content = kept
}

func (w *walker) value(n *yaml.Node, fd protoreflect.FieldDescriptor, path string) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if !w.enter(n, path) {
		return
	}
	w.at(path, n)
	if isNull(n) {
		return
	}
	switch {
	case fd.IsList():
		if n.Kind != yaml.SequenceNode { // legacy syntax: a lone value is a list of one
			asList(n)
		}
		if fd.Message() == nil || (fd.Message().FullName() != "google.protobuf.Value" && fd.Message().FullName() != "google.protobuf.ListValue") {
			flatten(n) // legacy syntax: a list within the list is part of it (parser.cc ParseArray)
		}
		for i, e := range n.Content {
			if isNull(e) { // legacy: a null element is the element's default (parser.cc EmitNull)
				zeroElement(e, fd)
			}
			w.single(e, fd, fmt.Sprintf("%s[%d]", path, i), fieldWhat(fd))
		}
	case fd.IsMap():
		if n.Kind != yaml.MappingNode {
			w.parseFailure(n, path, fieldWhat(fd), w.notObject(n))
			return
		}
		if w.repeatedMapKey(n, path, fieldWhat(fd)) {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			w.single(n.Content[i+1], fd.MapValue(), fmt.Sprintf("%s[%s]", path, n.Content[i].Value), fieldWhat(fd))
		}
	default:
		w.single(n, fd, path, fieldWhat(fd))
	}
}

// single checks one value (a list element, a map value, or a plain field); what is how protobuf
// describes where it is.
func (w *walker) single(n *yaml.Node, fd protoreflect.FieldDescriptor, path, what string) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	w.at(path, n)
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		w.message(n, fd.Message(), path)
	case protoreflect.EnumKind:
		w.enum(n, fd, path, what)
	default:
		if !isNull(n) {
			w.scalar(n, fd, path, what)
		}
	}
}

// unknownEnum: a name the enum does not have. protobuf's relaxed parse ignores it, so Envoy
// treats it as an unknown field (descriptor_traits.h EnumNumberByName, parser.cc ParseEnumFromStr).
func (w *walker) unknownEnum(n *yaml.Node, ed protoreflect.EnumDescriptor, path, name string) {
	var names []string
	for i := 0; i < ed.Values().Len(); i++ {
		names = append(names, string(ed.Values().Get(i).Name()))
	}
	w.unknownMet(n, path, fmt.Sprintf("unknown enum value: '%s'", name), closest(strings.ToUpper(name), names))
	if w.lenient {
		if w.unsetEnums == nil {
			w.unsetEnums = map[*yaml.Node]bool{}
		}
		w.unsetEnums[n] = true
	}
}

// notObject is the parser meeting a scalar or a list where an object belongs.
func (w *walker) notObject(n *yaml.Node) string {
	v := envoyValue{kind: jsonString, text: "\""}
	if n.Kind == yaml.ScalarNode {
		v = w.typed(n)
	}
	c := byte('[')
	switch {
	case n.Kind == yaml.SequenceNode:
	case v.kind == jsonString:
		c = '"'
	case v.kind == jsonNull:
		c = 'n'
	default:
		c = v.text[0]
	}
	return fmt.Sprintf("unexpected character: '%c'; expected '{'", c)
}

func isWrapper(md protoreflect.MessageDescriptor) bool {
	return md.ParentFile().Package() == "google.protobuf" && strings.HasSuffix(string(md.Name()), "Value") &&
		md.Fields().Len() == 1 && md.Fields().ByName("value") != nil && md.Name() != "Value"
}

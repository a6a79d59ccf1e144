package bootcheck

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"gopkg.in/yaml.v3"
)

// any checks a google.protobuf.Any: its @type must name a type Envoy's API defines, and the rest
// must be that type's fields.
func (w *walker) any(n *yaml.Node, path string) {
	if w.anyPaths == nil {
		w.anyPaths = map[string]bool{}
	}
	w.anyPaths[path] = true
	what := "message google.protobuf.Any"
	if n.Kind != yaml.MappingNode {
		w.parseFailure(n, path, what, w.notObject(n))
		return
	}
	var typeNode *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "@type" {
			typeNode = n.Content[i+1]
		}
	}
	switch { // parser.cc ParseAny
	case typeNode == nil && len(n.Content) == 0:
		return // legacy: an empty Any
	case typeNode == nil:
		w.parseFailure(n, path, what, "in legacy mode, missing @type in Any is only allowed for an empty object")
		return
	case typeNode.Kind != yaml.ScalarNode || w.typed(typeNode).kind != jsonString:
		w.parseFailure(typeNode, path, what, notScalar(typeNode, protoreflect.StringKind))
		return
	}
	url := typeNode.Value
	// descriptor_traits.h WithDynamicType: a URL with a host, then a type the pool has.
	if slash := strings.LastIndex(url, "/"); slash <= 0 {
		w.statusFailure(typeNode, joinPath(path, "@type"), "@type must contain at least one / and a nonempty host; got: "+url)
		return
	}
	mt, err := protoregistry.GlobalTypes.FindMessageByURL(url)
	if err != nil {
		name := url[strings.LastIndex(url, "/")+1:]
		w.statusFailure(typeNode, joinPath(path, "@type"), fmt.Sprintf("could not find @type '%s'", url))
		last := &w.problems[len(w.problems)-1]
		last.Message += istioOnly(name)
		last.Hint = closestType(name)
		return
	}
	md := mt.Descriptor()
	if isWellKnown(md) { // {"@type": …, "value": <the JSON of the well-known type>}
		for i := 0; i+1 < len(n.Content); i += 2 {
			switch n.Content[i].Value {
			case "@type":
			case "value":
				w.message(n.Content[i+1], md, joinPath(path, "value"))
			default: // parser.cc ParseMessage, an Any re-parsed as a well-known type
				w.parseFailure(n.Content[i], path, "message "+string(md.FullName()), "fields in a well-known-typed Any must be @type or value")
				return
			}
		}
		return
	}
	if md.FullName() == "udpa.type.v1.TypedStruct" || md.FullName() == "xds.type.v3.TypedStruct" {
		w.typedStruct(n, path)
		return
	}
	w.fields(n, md, path, map[string]bool{"@type": true})
}

// typedStruct checks what Envoy unpacks from a TypedStruct: value read as the type of type_url.
func (w *walker) typedStruct(n *yaml.Node, path string) {
	var url, value *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch n.Content[i].Value {
		case "type_url", "typeUrl":
			url = n.Content[i+1]
		case "value":
			value = n.Content[i+1]
		}
	}
	if url == nil || value == nil {
		return
	}
	mt, err := protoregistry.GlobalTypes.FindMessageByURL(url.Value)
	if err != nil {
		// A TypedStruct parses whatever it names; the refusal comes when Envoy looks for the
		// extension that takes that type (Config::Utility::getAndCheckFactory).
		typ := url.Value[strings.LastIndex(url.Value, "/")+1:]
		msg := fmt.Sprintf("Didn't find a registered implementation for '%s' with type URL: '%s'", w.extensionName(path), typ)
		w.add(url, joinPath(path, "type_url"), msg+istioOnly(typ), closestType(typ))
		return
	}
	w.message(value, mt.Descriptor(), joinPath(path, "value"))
}

// istioOnly explains a type of Istio's own extensions: a bootstrap copied from an istio-proxy
// names them, and only Istio's build of Envoy registers them.
func istioOnly(typ string) string {
	if !strings.HasPrefix(typ, "istio.") {
		return ""
	}
	return " (" + typ + " is built into Istio's own Envoy, the istio-proxy image; upstream Envoy does not have it)"
}

// extensionName is the name written beside a typed_config (a TypedExtensionConfig's name), or "".
func (w *walker) extensionName(path string) string {
	if n := w.positions[parent(path)]; n != nil && n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "name" {
				return n.Content[i+1].Value
			}
		}
	}
	return ""
}

func isWellKnown(md protoreflect.MessageDescriptor) bool {
	return md.ParentFile().Package() == "google.protobuf"
}

// anyProblems applies each Any's own constraints (protoc-gen-validate rules of the type it
// carries), at any depth: Envoy validates an extension's config when it builds the extension,
// while the bootstrap's own ValidateAll stops at the Any.
func (w *walker) anyProblems(tree []visited) []Problem {
	var out []Problem
	for _, n := range tree {
		v, ok := n.inner.(interface{ ValidateAll() error })
		if !ok {
			continue
		}
		if err := v.ValidateAll(); err != nil {
			for _, p := range w.pgvProblems(err, n.path) {
				p.stage = stageOfAny(n.path)
				out = append(out, p)
			}
		}
	}
	return out
}

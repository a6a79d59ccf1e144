package bootcheck

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// fieldPathProblem is FieldValueExtractorFactory::ValidateFieldPathAndCollectMetadata of
// proto-field-extraction (d5d39f0, the version Envoy pins: bazel/repository_locations.bzl:450;
// field_value_extractor/field_value_extractor_factory.cc:103-190), which grpc_field_extraction
// and proto_message_extraction call for each field they extract: each dotted name a field of the
// message before it (a map field goes on to its value), the last one a number, a string or a
// Timestamp. typeURL is the root message's, as the messages quote it.
func fieldPathProblem(root protoreflect.MessageDescriptor, typeURL, path string) string {
	if path == "" {
		return "Empty field path"
	}
	parent, names := root, strings.Split(path, ".")
	var cur protoreflect.FieldDescriptor
	for len(names) > 0 {
		name := names[0]
		names = names[1:]
		if cur = parent.Fields().ByName(protoreflect.Name(name)); cur == nil {
			return fmt.Sprintf("Invalid fieldPath (%s): no '%s' field in '%s' message", path, name, typeURL)
		}
		parent = nil
		if k := cur.Kind(); k == protoreflect.MessageKind || k == protoreflect.GroupKind {
			parent = cur.Message() // the type finder knows messages only, not enums
		}
		if parent == nil {
			break
		}
		if parent.IsMapEntry() { // the map's entries: go on to their value (kProtoMapValueFieldName)
			names = append([]string{"value"}, names...)
		}
	}
	if len(names) > 0 {
		return fmt.Sprintf("Invalid non-leaf node %s of non message type (%s).", cur.Name(), fieldTypeURL(cur))
	}
	switch cur.Kind() {
	case protoreflect.StringKind, protoreflect.Uint32Kind, protoreflect.Uint64Kind, protoreflect.Int32Kind,
		protoreflect.Int64Kind, protoreflect.Sint32Kind, protoreflect.Sint64Kind, protoreflect.Fixed32Kind,
		protoreflect.Fixed64Kind, protoreflect.Sfixed32Kind, protoreflect.Sfixed64Kind, protoreflect.FloatKind,
		protoreflect.DoubleKind:
		return ""
	case protoreflect.MessageKind:
		if cur.Message().FullName() == "google.protobuf.Timestamp" {
			return ""
		}
	}
	return fmt.Sprintf("leaf node '%s' must be numerical/string or timestamp type", cur.Name())
}

// fieldTypeURL is google.protobuf.Field's type_url: a message's or an enum's, else empty.
func fieldTypeURL(f protoreflect.FieldDescriptor) string {
	switch {
	case f.Message() != nil:
		return "type.googleapis.com/" + string(f.Message().FullName())
	case f.Enum() != nil:
		return "type.googleapis.com/" + string(f.Enum().FullName())
	}
	return ""
}

// methodFieldsProblem: the fields one method extracts from its request (or response) message,
// in name order (Envoy: its map's), as "couldn't init extractor for method `…`: …" words it; ""
// when the method or its message is not in files.
func methodFieldsProblem(files *protoregistry.Files, method string, response bool, fields []string) string {
	d, err := files.FindDescriptorByName(protoreflect.FullName(method))
	m, ok := d.(protoreflect.MethodDescriptor)
	if err != nil || !ok {
		return ""
	}
	msg := m.Input()
	if response {
		msg = m.Output()
	}
	url := "type.googleapis.com/" + string(msg.FullName())
	for _, f := range fields {
		if p := fieldPathProblem(msg, url, f); p != "" {
			return fmt.Sprintf("couldn't init extractor for method `%s`: %s", method, p)
		}
	}
	return ""
}

// sortedKeys is a map's keys in byte order.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

package bootcheck

import (
	"fmt"
	"strconv"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// shortDebugString writes a message the way protobuf C++'s ShortDebugString does, which Envoy
// puts into some of its errors: set fields in declaration order, `name: value`, nested messages in
// braces, a repeated field once per element, all on one line.
func shortDebugString(m protoreflect.Message) string {
	var parts []string
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if !m.Has(fd) {
			continue
		}
		v := m.Get(fd)
		switch {
		case fd.IsList():
			l := v.List()
			for j := 0; j < l.Len(); j++ {
				parts = append(parts, debugField(fd, l.Get(j)))
			}
		case fd.IsMap():
			v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
				entry := fmt.Sprintf("key: %s value: %s", debugScalar(fd.MapKey(), k.Value()), debugValue(fd.MapValue(), mv))
				parts = append(parts, fmt.Sprintf("%s { %s }", fd.Name(), entry))
				return true
			})
		default:
			parts = append(parts, debugField(fd, v))
		}
	}
	return strings.Join(parts, " ")
}

func debugField(fd protoreflect.FieldDescriptor, v protoreflect.Value) string {
	if fd.Kind() == protoreflect.MessageKind || fd.Kind() == protoreflect.GroupKind {
		inner := shortDebugString(v.Message())
		if inner == "" {
			return fmt.Sprintf("%s { }", fd.Name())
		}
		return fmt.Sprintf("%s { %s }", fd.Name(), inner)
	}
	return fmt.Sprintf("%s: %s", fd.Name(), debugScalar(fd, v))
}

func debugValue(fd protoreflect.FieldDescriptor, v protoreflect.Value) string {
	if fd.Kind() == protoreflect.MessageKind {
		return "{ " + shortDebugString(v.Message()) + " }"
	}
	return debugScalar(fd, v)
}

func debugScalar(fd protoreflect.FieldDescriptor, v protoreflect.Value) string {
	switch fd.Kind() {
	case protoreflect.StringKind, protoreflect.BytesKind:
		return strconv.Quote(v.String())
	case protoreflect.EnumKind:
		if ev := fd.Enum().Values().ByNumber(v.Enum()); ev != nil {
			return string(ev.Name())
		}
		return strconv.Itoa(int(v.Enum()))
	}
	return v.String()
}

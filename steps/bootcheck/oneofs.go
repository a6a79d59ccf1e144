package bootcheck

import (
	"strings"
	"sync"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// A required oneof left unset is worded by Envoy's C++ validators (protoc-gen-validate's cc
// template, msg.go) as `field: "<oneof>", reason: is required` — without the message's
// ValidationError name the Go validators put before it ("…ValidationError.<Oneof>: value is
// required").

// oneofNames are the oneofs of every registered message, keyed as Go's validators name them:
// "<GoMessageName>ValidationError.<GoOneofName>" (Bootstrap_DynamicResources, ConfigSourceSpecifier).
var oneofNames = sync.OnceValue(func() map[string]string {
	names := map[string]string{}
	var visit func(md protoreflect.MessageDescriptor, goName string)
	visit = func(md protoreflect.MessageDescriptor, goName string) {
		for i := range md.Oneofs().Len() {
			od := md.Oneofs().Get(i)
			if od.IsSynthetic() {
				continue
			}
			names[goName+"ValidationError."+camel(string(od.Name()))] = string(od.Name())
		}
		for i := range md.Messages().Len() {
			nested := md.Messages().Get(i)
			visit(nested, goName+"_"+string(nested.Name()))
		}
	}
	protoregistry.GlobalFiles.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		for i := range fd.Messages().Len() {
			md := fd.Messages().Get(i)
			visit(md, string(md.Name()))
		}
		return true
	})
	return names
})

// requiredOneof is Envoy's wording of a required oneof left unset, if errorName.field names one.
func requiredOneof(errorName, field, reason string) (string, bool) {
	if reason != "value is required" {
		return "", false
	}
	name, ok := oneofNames()[errorName+"."+field]
	if !ok {
		return "", false
	}
	return `field: "` + name + `", reason: is required`, true
}

// camel is a proto name as Go's generated code spells it (config_source_specifier:
// ConfigSourceSpecifier).
func camel(name string) string {
	var b strings.Builder
	up := true
	for _, r := range name {
		if r == '_' {
			up = true
			continue
		}
		if up && r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		up = false
		b.WriteRune(r)
	}
	return b.String()
}

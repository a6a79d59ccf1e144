package drill

import (
	"slices"
	"strings"
	"sync"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	"google.golang.org/protobuf/reflect/protoreflect"
	"gopkg.in/yaml.v3"

	"ist2-boot/content"
	"ist2-boot/steps/i18n"
)

// glossary is the lab's glossary (content/glossary.yaml), read once.
var glossary = sync.OnceValues(func() ([]i18n.Term, error) { return i18n.LoadGlossary(content.FS) })

// glossedTerms are the glossary's terms the broken field names: a key on its path (or the path
// itself, for terms like node.id), the value the field held before the fault (xds-grpc for a
// misspelt cluster name, STRICT_DNS for a cluster type), or a key inside a block it held
// (http2_protocol_options inside a removed block). In the glossary's order; none when the glossary names none of them.
func (d *Drill) glossedTerms() []i18n.Term {
	terms, err := glossary()
	if err != nil {
		return nil
	}
	field := d.OriginalField()
	names := map[string]bool{field: true}
	for _, s := range segments(field) {
		names[s] = true
	}
	var was yaml.Node
	if yaml.Unmarshal(d.base, &was) == nil {
		if v := lookup(&was, field); v != nil && v.Kind == yaml.ScalarNode {
			names[v.Value] = true
		} else if v != nil {
			keys(v, names)
		}
	}
	var out []i18n.Term
	for _, t := range terms {
		if names[t.Term] {
			out = append(out, t)
		}
	}
	return out
}

// keys adds every key under n to names: what a block holds, not the values that happen to be
// in it (a cluster's endpoints name its cluster, which is not what they are).
func keys(n *yaml.Node, names map[string]bool) {
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 {
			names[c.Value] = true
			continue
		}
		keys(c, names)
	}
}

// droppedDefault is the value a sidecar's Envoy gives the broken field when it drops it (an enum
// name the API does not have: one Unknown field warning, the field left unset): the enum's first
// value, proto3's default, read from the API's descriptor. "" when the field is not an enum, or
// was not dropped.
func (d *Drill) droppedDefault() string {
	if !slices.ContainsFunc(d.Evidence.Warnings, func(w string) bool { return strings.HasPrefix(w, "Unknown field: ") }) {
		return ""
	}
	md := (&bootstrapv3.Bootstrap{}).ProtoReflect().Descriptor()
	var fd protoreflect.FieldDescriptor
	for _, s := range segments(d.Field) {
		if strings.HasPrefix(s, "[") {
			continue
		}
		if md == nil {
			return ""
		}
		if fd = md.Fields().ByName(protoreflect.Name(s)); fd == nil {
			return ""
		}
		md = fd.Message()
	}
	if fd == nil || fd.Kind() != protoreflect.EnumKind {
		return ""
	}
	return string(fd.Enum().Values().Get(0).Name())
}

// glossArgs are the field verdict's gloss in each language, as gloss_ko, gloss_zh and gloss_ja
// (each language's string takes its own: a glossary line is no catalog key to refer to): what
// the field is, from the glossary, and — for a value a sidecar drops — the default it falls back to.
func (d *Drill) glossArgs() []string {
	terms, fallback := d.glossedTerms(), d.droppedDefault()
	var args []string
	for _, lang := range i18n.Langs {
		var b strings.Builder
		if fallback != "" {
			key := d.Field[strings.LastIndex(d.Field, ".")+1:]
			b.WriteString(i18n.T(lang, "drill.gloss_default", map[string]string{"key": key, "default": fallback}))
		}
		// A sidecar's Envoy drops a misspelt load_assignment: the ADS cluster is left without
		// endpoints, so the stream has nowhere to open (ko r22 L14: the chain, as for an enum).
		if d.Field != d.OriginalField() && strings.HasSuffix(d.OriginalField(), ".load_assignment") {
			b.WriteString(i18n.T(lang, "drill.gloss_no_endpoints", map[string]string{"cluster": d.adsClusterName()}))
		}
		// A wrong port: which it should be, and why the stream does not open (zh r23 L11), said
		// when the field is answered, as an enum's default is.
		if want, got := d.valueAt(d.base, d.Field), d.valueAt([]byte(d.Bootstrap), d.Field); d.Fault == "discovery-wrong" && want != "" && got != "" {
			b.WriteString(i18n.T(lang, "drill.gloss_port", map[string]string{"want": want, "got": got}))
		}
		for _, t := range terms {
			b.WriteString(i18n.T(lang, "drill.gloss", map[string]string{"term": t.Term, "text": strings.TrimSpace(t.In(lang))}))
		}
		args = append(args, "gloss_"+string(lang), b.String())
	}
	return args
}

// adsClusterName is the static cluster the drill's bootstrap names for ADS, as the learner wrote
// it: the words say which cluster lost its endpoints, not a name of the lesson's.
func (d *Drill) adsClusterName() string {
	var doc yaml.Node
	if yaml.Unmarshal([]byte(d.Bootstrap), &doc) != nil {
		return ""
	}
	if v := lookup(&doc, adsCluster); v != nil {
		return v.Value
	}
	return ""
}

// valueAt is the scalar at path in a bootstrap's YAML, "" where there is none.
func (d *Drill) valueAt(doc []byte, path string) string {
	var n yaml.Node
	if yaml.Unmarshal(doc, &n) != nil {
		return ""
	}
	if v := lookup(&n, path); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

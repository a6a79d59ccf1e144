package drill

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// insideRemoved: the answer names a field inside the block the fault removed — the HTTP/2 option
// under typed_extension_protocol_options, by its full path or its name — so it names what is
// missing, as the lesson taught it (ko r23 M5: http2_protocol_options was judged wrong).
func (d *Drill) insideRemoved(answer string) bool {
	if d.FieldLine() != 0 || answer == "" {
		return false
	}
	if strings.HasPrefix(answer, d.Field+".") {
		return true
	}
	// A path names a field of the same cluster, not another's (fact r25 L4); "@type" is the
	// block's type URL, not a setting.
	if holder := d.Field[:strings.LastIndex(d.Field, ".")]; strings.Contains(answer, "[") && !strings.HasPrefix(answer, holder+".") {
		return false
	}
	var was yaml.Node
	if yaml.Unmarshal(d.base, &was) != nil {
		return false
	}
	m, at := walk(&was, d.Field)
	if m == nil || at < 0 {
		return false
	}
	for _, k := range keysUnder(m.Content[at+1]) {
		if k != "@type" && (answer == k || strings.HasSuffix(answer, "."+k)) {
			return true
		}
	}
	return false
}

// keysUnder are the names of every mapping key in n, at any depth.
func keysUnder(n *yaml.Node) []string {
	var keys []string
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			keys = append(keys, n.Content[i].Value)
		}
	}
	for _, c := range n.Content {
		keys = append(keys, keysUnder(c)...)
	}
	return keys
}

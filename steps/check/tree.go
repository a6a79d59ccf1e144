package check

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// A tree is a decoded YAML or JSON document: maps, lists and scalars. Envoy reads its bootstrap
// through protobuf's JSON mapping, which takes a field by its proto name (http2_protocol_options)
// or its JSON name (http2ProtocolOptions); lookups here accept both the same way.

// parseTree decodes YAML (JSON is YAML) whose top is a mapping.
// errNotMapping: the YAML is read, but its top is not a mapping of fields (a list, a scalar, or
// nothing at all).
var errNotMapping = errors.New("the document is not a mapping of fields")

func parseTree(text string) (map[string]any, error) {
	var v any
	if err := yaml.Unmarshal([]byte(text), &v); err != nil {
		return nil, err
	}
	m, ok := asMap(v)
	if !ok {
		return nil, errNotMapping
	}
	return m, nil
}

// parseJSONTree decodes JSON whose top is an object into the shapes parseTree gives for the same
// text (integers as int, other numbers as float64), several times faster than the YAML parser.
func parseJSONTree(text []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return yamlNumbers(m).(map[string]any), nil
}

// yamlNumbers turns json.Numbers into what yaml.v3 decodes the same digits to, in place.
func yamlNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = yamlNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = yamlNumbers(e)
		}
	case json.Number:
		if i, err := strconv.Atoi(string(x)); err == nil {
			return i
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
		return string(x)
	}
	return v
}

// copyTree is a deep copy of a decoded document, so one cached tree can be edited for a comparison.
func copyTree(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = copyTree(e)
		}
		return out
	case map[any]any:
		out := make(map[any]any, len(x))
		for k, e := range x {
			out[k] = copyTree(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = copyTree(e)
		}
		return out
	}
	return v
}

// asMap accepts both map shapes yaml.v3 produces (string keys, or any keys).
func asMap(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case map[any]any:
		out := make(map[string]any, len(m))
		for k, x := range m {
			out[fmt.Sprint(k)] = x
		}
		return out, true
	}
	return nil, false
}

// jsonName is protobuf's JSON name of a field: lower camel case.
func jsonName(proto string) string {
	parts := strings.Split(proto, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// field returns m's field by proto name or JSON name.
func field(v any, name string) (any, bool) {
	m, ok := asMap(v)
	if !ok {
		return nil, false
	}
	if x, ok := m[name]; ok {
		return x, true
	}
	x, ok := m[jsonName(name)]
	return x, ok
}

// at walks a path of field names; "[N]" steps into a list.
func at(v any, path ...string) (any, bool) {
	for _, p := range path {
		if strings.HasPrefix(p, "[") {
			i, err := strconv.Atoi(strings.Trim(p, "[]"))
			list, ok := v.([]any)
			if err != nil || !ok || i >= len(list) {
				return nil, false
			}
			v = list[i]
			continue
		}
		var ok bool
		if v, ok = field(v, p); !ok {
			return nil, false
		}
	}
	return v, true
}

// scalar is a value as the learner would read it in the file.
func scalar(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case map[string]any, map[any]any:
		if m, _ := asMap(x); len(m) == 0 {
			return "{}"
		}
		return "{…}"
	case []any:
		return "[…]"
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// firstDifference is the first path where a and b differ ("" when equal), maps in key order.
func firstDifference(a, b any, path string) string {
	am, aok := asMap(a)
	bm, bok := asMap(b)
	if aok && bok {
		for _, k := range allKeys(am, bm) {
			if d := firstDifference(am[k], bm[k], joinPath(path, k)); d != "" {
				return d
			}
		}
		return ""
	}
	al, aok := a.([]any)
	bl, bok := b.([]any)
	if aok && bok {
		for i := 0; i < max(len(al), len(bl)); i++ {
			if i >= len(al) || i >= len(bl) {
				return fmt.Sprintf("%s[%d]", path, i)
			}
			if d := firstDifference(al[i], bl[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a, b) {
		if path == "" {
			return "."
		}
		return path
	}
	return ""
}

// allKeys are the keys of a and of b, sorted, each once.
func allKeys(a, b map[string]any) []string {
	keys := slices.Sorted(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

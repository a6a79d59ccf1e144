package bootcheck

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Envoy reads YAML with yaml-cpp and turns each scalar into a JSON value before protobuf's parser
// sees it (source/common/protobuf/yaml_utility.cc parseYamlNode): a quoted or block scalar is a
// string; a plain one is a boolean if yaml-cpp's bool conversion takes it, else a number if its
// integer conversion does (a string of the digits beyond int32), else a string — floats included.
// yaml.v3 types plain scalars by YAML 1.2's core schema, which differs: `yes` and `on` are strings
// there and booleans here; `1.5` is a float there and a string here; `0o17` and `1_000` are
// integers there and strings here; `010` is 8 in both.

// scalarKind is the JSON type Envoy's YAML loader gives a scalar.
type scalarKind int

const (
	jsonNull scalarKind = iota
	jsonBool
	jsonNumber
	jsonString
)

// envoyValue is a YAML scalar as Envoy's loader makes it: its JSON type and text (true/false for
// a boolean, the decimal digits for a number).
type envoyValue struct {
	kind scalarKind
	text string
}

// envoyScalar types a YAML scalar node as parseYamlNode does.
func envoyScalar(n *yaml.Node) envoyValue {
	const notPlain = yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle | yaml.LiteralStyle | yaml.FoldedStyle
	if n.Style&notPlain != 0 || n.Tag == "!" { // yaml-cpp tags every non-plain scalar "!"
		return envoyValue{jsonString, n.Value}
	}
	v := n.Value
	switch v {
	case "", "~", "null", "Null", "NULL": // yaml-cpp IsNullString
		if n.Tag == "!!null" || n.Tag == "" {
			return envoyValue{kind: jsonNull}
		}
	}
	if b, ok := yamlCppBool(v); ok {
		return envoyValue{jsonBool, strconv.FormatBool(b)}
	}
	if i, ok := yamlCppInt(v); ok {
		if i >= -1<<31 && i <= 1<<31-1 {
			return envoyValue{jsonNumber, strconv.FormatInt(i, 10)}
		}
		return envoyValue{jsonString, strconv.FormatInt(i, 10)} // std::to_string(int_value)
	}
	return envoyValue{jsonString, v}
}

// yamlCppBool is yaml-cpp 0.9.0's convert<bool>::decode (src/convert.cpp): y/yes/true/on and
// n/no/false/off, in lower case, UPPER case or Capitalized.
func yamlCppBool(s string) (bool, bool) {
	if !flexibleCase(s) {
		return false, false
	}
	switch strings.ToLower(s) {
	case "y", "yes", "true", "on":
		return true, true
	case "n", "no", "false", "off":
		return false, true
	}
	return false, false
}

// flexibleCase is yaml-cpp's IsFlexibleCase: all lower, or a capital then all lower or all upper.
func flexibleCase(s string) bool {
	if s == "" || s == strings.ToLower(s) {
		return true
	}
	first, rest := s[:1], s[1:]
	return first >= "A" && first <= "Z" && (rest == strings.ToLower(rest) || rest == strings.ToUpper(rest))
}

// yamlCppInt is yaml-cpp's convert<int64_t>::decode: a C++ stream read with the base left to the
// text (std::ios::dec unset): an optional sign, then 0x and hex digits, 0 and octal digits, or
// decimal digits, and nothing after but white space; no 0o, no 0b, no underscores; overflow fails.
func yamlCppInt(s string) (int64, bool) {
	s = strings.TrimRight(s, " \t\n\r\f\v")
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 || body == "" {
		return 0, false
	}
	base, digits := 10, body
	switch {
	case len(body) > 2 && (body[:2] == "0x" || body[:2] == "0X"):
		base, digits = 16, body[2:]
	case len(body) > 1 && body[0] == '0':
		base, digits = 8, body[1:]
	}
	for _, c := range digits {
		ok := c >= '0' && c <= '9'
		if base == 8 {
			ok = c >= '0' && c <= '7'
		} else if base == 16 {
			ok = ok || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
		}
		if !ok {
			return 0, false
		}
	}
	i, err := strconv.ParseInt(s[:len(s)-len(body)]+digits, base, 64)
	return i, err == nil
}

// jsonScalar types a scalar of a JSON bootstrap: Envoy hands a file not named .yaml or .yml to
// protobuf's parser as it is (MessageUtil::loadFromFile), so a number stays a number, whatever
// yaml-cpp would have made of it.
func jsonScalar(n *yaml.Node) envoyValue {
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return envoyValue{jsonString, n.Value}
	}
	switch n.Value {
	case "null", "":
		return envoyValue{kind: jsonNull}
	case "true", "false":
		return envoyValue{jsonBool, n.Value}
	}
	return envoyValue{jsonNumber, n.Value}
}

// lastKeyWins drops, in every mapping, each key that comes again later: yaml-cpp keeps both and
// parseYamlNode writes them into one Struct, so the last is what Envoy reads.
func lastKeyWins(n *yaml.Node, depth int) {
	if n == nil || depth > maxDepth {
		return
	}
	if n.Kind == yaml.MappingNode && len(n.Content) > 2 && repeatsKey(n.Content) {
		last := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			last[n.Content[i].Value] = i
		}
		kept := n.Content[:0:0]
		for i := 0; i+1 < len(n.Content); i += 2 {
			if last[n.Content[i].Value] == i {
				kept = append(kept, n.Content[i], n.Content[i+1])
			}
		}
		n.Content = kept
	}
	for _, c := range n.Content {
		lastKeyWins(c, depth+1)
	}
}

// repeatsKey: some key of the mapping's content comes twice. Most mappings are small, so they are
// compared pairwise, without a map.
func repeatsKey(content []*yaml.Node) bool {
	if len(content) > 32 {
		seen := make(map[string]bool, len(content)/2)
		for i := 0; i+1 < len(content); i += 2 {
			if seen[content[i].Value] {
				return true
			}
			seen[content[i].Value] = true
		}
		return false
	}
	for i := 0; i+1 < len(content); i += 2 {
		for j := i + 2; j+1 < len(content); j += 2 {
			if content[i].Value == content[j].Value {
				return true
			}
		}
	}
	return false
}

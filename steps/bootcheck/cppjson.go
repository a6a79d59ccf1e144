package bootcheck

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
	"gopkg.in/yaml.v3"
)

// Envoy parses the JSON its YAML loader made with protobuf's C++ JSON parser (protobuf 35.1,
// src/google/protobuf/json/internal/parser.cc), legacy behaviour allowed (json.h's default) and
// enum names case-insensitive (MessageUtil::loadFromJson). What that parser takes for each scalar
// field, and its words when it refuses, are here; what it takes that Go's protojson would not, the
// walker rewrites in the tree to the form Go reads the same way (a quoted boolean to a boolean, a
// quoted enum number to a number), so the tree says what Envoy's parser made of the text.

// parseFailure words a value protobuf's parser refuses as Envoy reports it: the parser's status
// (lexer.cc JsonLocation::Invalid: "invalid JSON in <path>, near L:C (offset O): <why>") inside
// MessageUtil::loadFromJson's "Unable to parse JSON as proto (…): <the JSON>". Envoy's JSON is one
// line whose key order it does not fix (a Struct's map order), so the position is not knowable
// beforehand and is left as "…"; protobuf also doubles some spaces at random, on purpose. The JSON
// itself is appended once the walk is done (see jsonTail).
func (w *walker) parseFailure(n *yaml.Node, path, what, why string) {
	w.add(n, path, fmt.Sprintf("Unable to parse JSON as proto (INVALID_ARGUMENT: invalid JSON in %s, near 1:… (offset …): %s)", w.described(path, what), why), "")
	w.problems[len(w.problems)-1].jsonTail = true
}

// statusFailure is a refusal protobuf returns without a location (a type URL it cannot resolve).
func (w *walker) statusFailure(n *yaml.Node, path, why string) {
	w.add(n, path, "Unable to parse JSON as proto (INVALID_ARGUMENT: "+why+")", "")
	w.problems[len(w.problems)-1].jsonTail = true
}

// described is the parser's path as message_path.cc MessagePath::Describe writes it: the root
// type, " @ " and the fields (with [i] for a list element; a map key is not named; an Any's
// content under "<any>"), then what the last field is (fieldWhat). protobuf names each field as
// the text wrote it; here it is the proto name, which is the same unless the text used the JSON
// (camelCase) name.
func (w *walker) described(path, what string) string {
	if path == "" {
		return string(rootType)
	}
	var b strings.Builder
	b.WriteString(string(rootType) + " @ ")
	for i := 0; i < len(path); i++ {
		if path[i] == '[' { // a map key: protobuf does not name it
			end := strings.IndexByte(path[i:], ']')
			if end > 0 && strings.Trim(path[i+1:i+end], "0123456789") != "" {
				i += end
				continue
			}
		}
		b.WriteByte(path[i])
		if w.anyPaths[path[:i+1]] && (i+1 == len(path) || path[i+1] == '.') {
			b.WriteString(".<any>")
		}
	}
	b.WriteString(": " + what)
	return b.String()
}

// fieldWhat is how Describe ends for a field: FieldDescriptor::TypeName (uint32, message, enum …)
// and, for a message or an enum, the type's full name.
func fieldWhat(fd protoreflect.FieldDescriptor) string {
	switch {
	case fd.IsMap(), fd.Kind() == protoreflect.MessageKind, fd.Kind() == protoreflect.GroupKind: // a map's type is its entry message
		return "message " + string(fd.Message().FullName())
	case fd.Kind() == protoreflect.EnumKind:
		return "enum " + string(fd.Enum().FullName())
	}
	return fd.Kind().String()
}

// scalar checks a value for a bool, number, string or bytes field as protobuf's ParseSingular
// does, and leaves the node in the form Go's protojson reads as the same value.
// what is how the parser describes where it is (fieldWhat, or the wrapper a value stands for).
func (w *walker) scalar(n *yaml.Node, fd protoreflect.FieldDescriptor, path, what string) {
	if n.Kind != yaml.ScalarNode {
		w.parseFailure(n, path, what, notScalar(n, fd.Kind()))
		return
	}
	v := w.typed(n)
	if v.kind == jsonNull {
		return
	}
	switch fd.Kind() {
	case protoreflect.BoolKind:
		var flag, ok bool
		switch v.kind {
		case jsonBool:
			flag, ok = v.text == "true", true
		case jsonString: // legacy: a quoted boolean, as absl::SimpleAtob reads it
			flag, ok = simpleAtob(v.text)
		}
		if !ok {
			w.parseFailure(n, path, what, "expected 'true' or 'false'")
			return
		}
		setScalar(n, "!!bool", strconv.FormatBool(flag))
	case protoreflect.StringKind, protoreflect.BytesKind:
		if v.kind != jsonString {
			w.parseFailure(n, path, what, fmt.Sprintf("unexpected character: '%c'; expected '\"'", v.text[0]))
			return
		}
		n.Tag = "!!str"
		if fd.Kind() == protoreflect.BytesKind {
			decoded, ok := decodeBase64(v.text)
			if !ok {
				w.parseFailure(n, path, what, "corrupt base64")
				return
			}
			setScalar(n, "!!str", base64.StdEncoding.EncodeToString(decoded)) // the form Go reads
		}
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		w.float(n, v, fd, path, what)
	default:
		w.integer(n, v, fd.Kind(), path, what)
	}
}

// notScalar is what the parser says on meeting an object or a list where a scalar belongs.
func notScalar(n *yaml.Node, kind protoreflect.Kind) string {
	c := '{'
	if n.Kind == yaml.SequenceNode {
		c = '['
	}
	switch kind {
	case protoreflect.BoolKind:
		return "expected 'true' or 'false'"
	case protoreflect.StringKind, protoreflect.BytesKind:
		return fmt.Sprintf("unexpected character: '%c'; expected '\"'", c)
	}
	return "expected number or string"
}

// setScalar rewrites n to a value; a string is quoted, so that both loaders read it as one.
func setScalar(n *yaml.Node, tag, value string) {
	n.Tag, n.Value, n.Style = tag, value, 0
	if tag == "!!str" {
		n.Style = yaml.DoubleQuotedStyle
	}
}

// integer is ParseInt / ParseUInt (ParseIntInner, ParseFloatStringAsInt): a number or a string of
// one, whole, within the JSON-safe bounds, then within 32 bits for a 32-bit field.
func (w *walker) integer(n *yaml.Node, v envoyValue, kind protoreflect.Kind, path, what string) {
	if v.kind == jsonBool {
		w.parseFailure(n, path, what, "expected number or string")
		return
	}
	if v.kind == jsonString && strings.ContainsAny(v.text, " \t\n\v\f\r") {
		w.parseFailure(n, path, what, "non-number characters in quoted number")
		return
	}
	unsigned := kind == protoreflect.Uint64Kind || kind == protoreflect.Fixed64Kind ||
		kind == protoreflect.Uint32Kind || kind == protoreflect.Fixed32Kind
	var value string
	if i, err := strconv.ParseInt(v.text, 10, 64); err == nil && (!unsigned || i >= 0) {
		value = strconv.FormatInt(i, 10)
	} else if u, err := strconv.ParseUint(strings.TrimPrefix(v.text, "+"), 10, 64); err == nil && unsigned {
		value = strconv.FormatUint(u, 10)
	} else {
		d, ok := simpleAtod(v.text)
		lo, hi := -9007199254740992.0, 9007199254740992.0
		if unsigned {
			lo, hi = 0, 18014398509481984.0
		}
		switch {
		case !ok || math.IsInf(d, 0) || math.IsNaN(d):
			w.parseFailure(n, path, what, fmt.Sprintf("invalid number: '%s'", v.text))
			return
		case d < lo || d > hi:
			w.parseFailure(n, path, what, "JSON number out of range for int")
			return
		case d != math.Trunc(d):
			w.parseFailure(n, path, what, "expected integer, but JSON number had fractional part")
			return
		}
		value = strconv.FormatFloat(d, 'f', 0, 64)
	}
	if !inRange(kind, value) {
		w.parseFailure(n, path, what, "integer out of range")
		return
	}
	setScalar(n, "!!int", value)
}

// inRange: a 32-bit field's value fits 32 bits (the parser checks after reading 64).
func inRange(kind protoreflect.Kind, value string) bool {
	switch kind {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind, protoreflect.EnumKind:
		_, err := strconv.ParseInt(value, 10, 32)
		return err == nil
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		_, err := strconv.ParseUint(value, 10, 32)
		return err == nil
	}
	return true
}

// float is ParseFp: a number, or a string of one, NaN, Infinity or -Infinity; a float field's
// finite value must stay finite as 32 bits.
func (w *walker) float(n *yaml.Node, v envoyValue, fd protoreflect.FieldDescriptor, path, what string) {
	if v.kind == jsonBool {
		w.parseFailure(n, path, what, "expected number or string")
		return
	}
	d, ok := simpleAtod(v.text)
	switch v.text {
	case "NaN", "Infinity", "-Infinity":
		n.Tag, n.Style = "!!str", yaml.DoubleQuotedStyle
		return
	}
	if !ok {
		w.parseFailure(n, path, what, "non-number characters in quoted number")
		return
	}
	if fd.Kind() == protoreflect.FloatKind && !math.IsInf(d, 0) && !math.IsNaN(d) && math.Abs(d) > math.MaxFloat32 {
		w.parseFailure(n, path, what, "float out of range")
		return
	}
	if math.IsInf(d, 0) || math.IsNaN(d) { // what absl reads as infinite, Go's protojson reads by name
		setScalar(n, "!!str", map[bool]string{true: "Infinity", false: "-Infinity"}[d > 0])
		if math.IsNaN(d) {
			n.Value = "NaN"
		}
		n.Style = yaml.DoubleQuotedStyle
		return
	}
	setScalar(n, "!!float", strconv.FormatFloat(d, 'g', -1, 64))
}

// simpleAtob is absl::SimpleAtob: true/t/yes/y/1 or false/f/no/n/0, in any case.
func simpleAtob(s string) (bool, bool) {
	switch strings.ToLower(s) {
	case "true", "t", "yes", "y", "1":
		return true, true
	case "false", "f", "no", "n", "0":
		return false, true
	}
	return false, false
}

// simpleAtod is absl::SimpleAtod: white space around, an optional sign, then a decimal number in
// fixed or scientific form, inf, infinity or nan; no hexadecimal, no digit separators. A value too
// large is infinite, not an error.
func simpleAtod(s string) (float64, bool) {
	t := strings.TrimSpace(s)
	if t == "" || strings.ContainsAny(t, "xX_pP") {
		return 0, false
	}
	d, err := strconv.ParseFloat(t, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return d, true
		}
		return 0, false
	}
	return d, true
}

// enum is ParseEnum: a name (any case), a number, or — legacy — a string holding a number; a
// name the enum does not have is, to Envoy, an unknown field (the relaxed parse skips it).
func (w *walker) enum(n *yaml.Node, fd protoreflect.FieldDescriptor, path, what string) {
	if n.Kind != yaml.ScalarNode {
		w.parseFailure(n, path, what, "expected number or string")
		return
	}
	v := w.typed(n)
	switch v.kind {
	case jsonNull:
		return
	case jsonBool:
		w.parseFailure(n, path, what, "expected number or string")
		return
	case jsonNumber:
		w.integer(n, v, protoreflect.EnumKind, path, what)
		return
	}
	ed := fd.Enum()
	if name, ok := enumName(ed, v.text); ok {
		setScalar(n, "!!str", string(name))
		return
	}
	if i, err := strconv.ParseInt(strings.TrimSpace(v.text), 10, 32); err == nil { // absl::SimpleAtoi
		setScalar(n, "!!int", strconv.FormatInt(i, 10))
		return
	}
	w.unknownEnum(n, ed, path, v.text)
}

// decodeBase64 is parser.cc DecodeBase64InPlace: standard and web-safe letters alike, padding
// only at the very end, a short tail of two or three letters allowed; anything else is corrupt.
func decodeBase64(s string) ([]byte, bool) {
	lookup := func(c byte) uint32 {
		switch {
		case c >= 'A' && c <= 'Z':
			return uint32(c - 'A')
		case c >= 'a' && c <= 'z':
			return uint32(c-'a') + 26
		case c >= '0' && c <= '9':
			return uint32(c-'0') + 52
		case c == '+' || c == '-':
			return 62
		case c == '/' || c == '_':
			return 63
		}
		return ^uint32(0) // -1: sets the sign bit of whatever it joins
	}
	b, end, ptr := []byte(s), len(s), 0
	out := make([]byte, 0, len(s)/4*3+2)
	for end4 := len(b) &^ 3; ptr < end4; ptr += 4 {
		val := lookup(b[ptr])<<18 | lookup(b[ptr+1])<<12 | lookup(b[ptr+2])<<6 | lookup(b[ptr+3])
		if int32(val) < 0 { // junk, or padding: padding is dropped when it ends the text
			if end-ptr == 4 && b[ptr+3] == '=' {
				end--
				if b[ptr+2] == '=' {
					end--
				}
			}
			break
		}
		out = append(out, byte(val>>16), byte(val>>8), byte(val))
	}
	if ptr < end {
		val := ^uint32(0)
		switch end - ptr {
		case 2:
			val = lookup(b[ptr])<<18 | lookup(b[ptr+1])<<12
			out = append(out, byte(val>>16))
		case 3:
			val = lookup(b[ptr])<<18 | lookup(b[ptr+1])<<12 | lookup(b[ptr+2])<<6
			out = append(out, byte(val>>16), byte(val>>8))
		}
		if int32(val) < 0 {
			return nil, false
		}
	}
	return out, true
}

// zeroElement rewrites a null list element, in place, to the default value of the list's type,
// as protobuf's legacy parser adds it; a google.protobuf.Value keeps its null.
func zeroElement(n *yaml.Node, fd protoreflect.FieldDescriptor) {
	var value string
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		switch fd.Message().FullName() {
		case "google.protobuf.Value", "google.protobuf.ListValue":
			return
		case "google.protobuf.Duration":
			setScalar(n, "!!str", "0s")
			return
		case "google.protobuf.Timestamp":
			setScalar(n, "!!str", "1970-01-01T00:00:00Z")
			return
		}
		if isWrapper(fd.Message()) {
			zeroElement(n, fd.Message().Fields().ByName("value"))
			return
		}
		*n = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
		return
	case protoreflect.BoolKind:
		setScalar(n, "!!bool", "false")
		return
	case protoreflect.StringKind, protoreflect.BytesKind:
		setScalar(n, "!!str", "")
		return
	case protoreflect.EnumKind:
		if fd.Enum().FullName() == "google.protobuf.NullValue" {
			return
		}
		value = "0"
	default:
		value = "0"
	}
	setScalar(n, "!!int", value)
}

package bootcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Envoy reads a file not named .yaml or .yml as JSON, handing its text to protobuf's parser
// (MessageUtil::loadFromFile → loadFromJson, source/common/protobuf/utility.cc:889,
// yaml_utility.cc:150-178) with Protobuf::util::JsonParseOptions as they come:
// allow_legacy_nonconformant_behavior is true by default (protobuf 35.1 json/json.h:30), so its
// lexer (json/internal/lexer.h VisitObject/VisitArray, lexer.cc ParseUtf8) takes more than JSON:
//   - a comma before the closing '}' or ']';
//   - an object key that is a bare word (letters, digits, '_', not starting with a digit);
//   - a string in single quotes, a \' or \U escape, and raw control characters in a string.
// legacyJSON reads the text as that lexer does and writes it as strict JSON, each line where it
// was, for the rest of the validator; what the lexer refuses it refuses in protobuf's words.

const extraneous = "extraneous characters after end of JSON object"

// legacyLexer walks the text; out is the strict JSON it writes.
type legacyLexer struct {
	text      []byte
	pos       int
	line, col int      // protobuf's JsonLocation: 0-based; a line ends only at a '\n' between tokens
	path      []string // the keys and indices around pos, for the message's " @ path"
	out       bytes.Buffer
	depth     int
	failed    bool
	failure   Problem
}

// legacyJSON is the text as strict JSON, or the problem protobuf's lexer stops at.
func legacyJSON(data []byte) ([]byte, *Problem) {
	l := &legacyLexer{text: data}
	l.out.Grow(len(data))
	l.skip()
	if l.pos >= len(data) || data[l.pos] != '{' {
		l.fail(l.expected("{"))
	} else {
		l.value()
	}
	if !l.failed {
		if l.skip(); l.pos < len(data) {
			l.fail(extraneous)
		}
	}
	if l.failed {
		return nil, &l.failure
	}
	return l.out.Bytes(), nil
}

// fail words the first refusal as loadFromJson does (yaml_utility.cc:144) around the lexer's
// status (lexer.cc JsonLocation::Invalid), with the text Envoy parsed appended.
func (l *legacyLexer) fail(why string) {
	if l.failed {
		return
	}
	l.failed = true
	msg := fmt.Sprintf("Unable to parse JSON as proto (INVALID_ARGUMENT: invalid JSON in %s, near %d:%d (offset %d): %s): ",
		l.describe(), l.line+1, l.col+1, l.pos, why)
	if why == "unexpected EOF" || why == extraneous { // plain statuses, without a place
		// (zero_copy_buffered_stream.cc:33, parser.cc:1360)
		msg = "Unable to parse JSON as proto (INVALID_ARGUMENT: " + why + "): "
	}
	l.failure = Problem{Line: l.line + 1, Col: l.col + 1, Message: msg + string(l.text), echoAt: len(msg), jsonTail: true}
}

// describe is MessagePath::Describe for the keys around the failure, resolved against the
// bootstrap's fields as far as they go (a field the bootstrap does not have is skipped by the
// parser without entering it).
func (l *legacyLexer) describe() string {
	md := (&bootstrapv3.Bootstrap{}).ProtoReflect().Descriptor()
	var fields []string
	what := ""
	for _, k := range l.path {
		if strings.HasPrefix(k, "[") {
			if len(fields) > 0 {
				fields[len(fields)-1] += k
			}
			continue
		}
		if md == nil {
			break
		}
		fd := md.Fields().ByName(protoreflect.Name(k))
		if fd == nil {
			fd = md.Fields().ByJSONName(k)
		}
		if fd == nil {
			break
		}
		fields, what, md = append(fields, k), fieldWhat(fd), fd.Message()
		if fd.IsMap() {
			md = nil // a map's keys are not fields
		}
	}
	if len(fields) == 0 {
		return string(rootType)
	}
	return string(rootType) + " @ " + strings.Join(fields, ".") + ": " + what
}

func (l *legacyLexer) expected(literal string) string {
	if l.pos >= len(l.text) {
		return "unexpected EOF"
	}
	return fmt.Sprintf("unexpected character: '%c'; expected '%s'", l.text[l.pos], literal)
}

// skip is SkipToToken: spaces, tabs, CRs and newlines, copied as they are.
func (l *legacyLexer) skip() {
	for ; l.pos < len(l.text); l.pos++ {
		switch l.text[l.pos] {
		case '\n':
			l.line, l.col = l.line+1, 0
		case '\r', '\t', ' ':
			l.col++
		default:
			return
		}
		l.out.WriteByte(l.text[l.pos])
	}
}

func (l *legacyLexer) advance(n int) {
	l.out.Write(l.text[l.pos : l.pos+n])
	l.pos, l.col = l.pos+n, l.col+n
}

// peek skips to the next token and consumes c if it is next.
func (l *legacyLexer) peek(c byte) bool {
	if l.skip(); l.pos < len(l.text) && l.text[l.pos] == c {
		l.advance(1)
		return true
	}
	return false
}

// value is PeekKind and what it leads to.
func (l *legacyLexer) value() {
	if l.skip(); l.pos >= len(l.text) {
		l.fail("unexpected EOF")
		return
	}
	switch c := l.text[l.pos]; {
	case c == '{' || c == '[':
		l.container(c)
	case c == '"' || c == '\'':
		l.str()
	case c == '-' || c >= '0' && c <= '9':
		l.number()
	case c == 't' || c == 'f' || c == 'n':
		word := map[byte]string{'t': "true", 'f': "false", 'n': "null"}[c]
		if !bytes.HasPrefix(l.text[l.pos:], []byte(word)) {
			l.fail(l.expected(word))
			return
		}
		l.advance(len(word))
	default:
		l.fail(fmt.Sprintf("unexpected character: '%c'", c))
	}
}

// container is VisitObject / VisitArray: a comma may come before the close (legacy); the
// comma is written as a space.
func (l *legacyLexer) container(open byte) {
	closer := map[byte]byte{'{': '}', '[': ']'}[open]
	l.advance(1)
	if l.depth++; l.depth > 100 { // ParseOptions::kDefaultDepth
		l.fail("JSON content was too deeply nested")
		return
	}
	defer func() { l.depth-- }()
	if l.peek(closer) {
		return
	}
	hasComma, commaAt := true, -1
	for i := 0; !l.failed; i++ {
		if !hasComma {
			l.fail("expected ','")
			return
		}
		if open == '{' {
			l.key()
		} else {
			l.path = append(l.path, "["+strconv.Itoa(i)+"]")
			l.value()
		}
		if l.failed {
			return
		}
		l.path = l.path[:len(l.path)-1]
		l.skip()
		hasComma, commaAt = l.pos < len(l.text) && l.text[l.pos] == ',', l.out.Len()
		if hasComma {
			l.advance(1)
		}
		if l.peek(closer) {
			if hasComma { // the trailing comma: gone from the strict JSON
				l.out.Bytes()[commaAt] = ' '
			}
			return
		}
		if l.pos >= len(l.text) {
			l.fail("unexpected EOF")
			return
		}
	}
}

// key is an object's key (a string, or a bare word), its ':' and its value.
func (l *legacyLexer) key() {
	if l.skip(); l.pos < len(l.text) && (l.text[l.pos] == '"' || l.text[l.pos] == '\'') {
		l.path = append(l.path, l.str())
	} else {
		start := l.pos
		for l.pos < len(l.text) && (l.text[l.pos] == '_' || isAlnum(l.text[l.pos])) {
			l.pos++
		}
		word := string(l.text[start:l.pos])
		l.pos = start
		if word == "" || word[0] >= '0' && word[0] <= '9' || word == "null" || word == "true" || word == "false" {
			l.fail("expected bare word")
			return
		}
		l.pos, l.col = l.pos+len(word), l.col+len(word)
		l.out.WriteString(strconv.Quote(word))
		l.path = append(l.path, word)
	}
	if l.failed {
		return
	}
	if l.skip(); l.pos >= len(l.text) || l.text[l.pos] != ':' {
		l.fail(l.expected(":"))
		return
	}
	l.advance(1)
	l.value()
}

// str is ParseUtf8: a string in double or (legacy) single quotes, written in double quotes with
// JSON's escapes. A raw newline in it is kept as a line break after the string, so the lines
// after it stay where they were.
func (l *legacyLexer) str() string {
	quote := l.text[l.pos]
	l.pos, l.col = l.pos+1, l.col+1
	var s []byte
	newlines := 0
	for {
		if l.pos >= len(l.text) {
			l.fail("unexpected EOF")
			return ""
		}
		c := l.text[l.pos]
		l.pos, l.col = l.pos+1, l.col+1
		switch {
		case c == quote:
			if !utf8.Valid(s) {
				l.fail("Invalid UTF-8 string")
				return ""
			}
			enc := json.NewEncoder(&l.out)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(string(s)) // a string always encodes; Encode ends it with a newline
			l.out.Truncate(l.out.Len() - 1)
			l.out.WriteString(strings.Repeat("\n", newlines))
			return string(s)
		case c == '\\':
			if l.pos >= len(l.text) {
				l.fail("unexpected EOF")
				return ""
			}
			e := l.text[l.pos]
			l.pos, l.col = l.pos+1, l.col+1
			if e == 'u' || e == 'U' {
				r, ok := l.unicodeEscape()
				if !ok {
					return ""
				}
				s = utf8.AppendRune(s, r)
				continue
			}
			simple, ok := map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', '\'': '\''}[e]
			if !ok {
				l.fail(fmt.Sprintf("invalid escape char: '%c'", e))
				return ""
			}
			s = append(s, simple)
		default:
			if c == '\n' {
				newlines++
			}
			s = append(s, c)
		}
	}
}

// unicodeEscape is ParseUnicodeEscape: four hex digits, a surrogate pair as two escapes.
func (l *legacyLexer) unicodeEscape() (rune, bool) {
	hex := func() (rune, bool) {
		if l.pos+4 > len(l.text) {
			l.fail("unexpected EOF")
			return 0, false
		}
		v, err := strconv.ParseUint(string(l.text[l.pos:l.pos+4]), 16, 16)
		l.pos, l.col = l.pos+4, l.col+4
		if err != nil || strings.ContainsAny(string(l.text[l.pos-4:l.pos]), "+-") {
			l.fail("invalid Unicode escape")
			return 0, false
		}
		return rune(v), true
	}
	r, ok := hex()
	switch {
	case !ok:
		return 0, false
	case r >= 0xd800 && r <= 0xdbff:
		if !bytes.HasPrefix(l.text[l.pos:], []byte(`\u`)) {
			l.fail(l.expected(`\u`))
			return 0, false
		}
		l.pos, l.col = l.pos+2, l.col+2
		low, ok := hex()
		if !ok {
			return 0, false
		}
		if low < 0xdc00 || low > 0xdfff {
			l.fail("invalid low surrogate")
			return 0, false
		}
		return (r&0x3ff)<<10 | (low & 0x3ff) + 0x10000, true
	case r >= 0xdc00 && r <= 0xdfff:
		l.fail("unpaired low surrogate")
		return 0, false
	}
	return r, true
}

// number is ParseRawNumber: what it takes is a JSON number, written as it is.
func (l *legacyLexer) number() {
	start, kind, prev := l.pos, 0, byte(0) // kind: 0 integer part, 1 fraction, 2 exponent
	for ; l.pos < len(l.text); l.pos++ {
		c, digit := l.text[l.pos], prev >= '0' && prev <= '9'
		ok := c >= '0' && c <= '9' ||
			kind == 0 && c == '-' && !digit ||
			kind == 0 && digit && c == '.' ||
			kind != 2 && digit && (c == 'e' || c == 'E') ||
			(prev == 'e' || prev == 'E') && (c == '-' || c == '+')
		if !ok {
			break
		}
		switch {
		case c == '.':
			kind = 1
		case c == 'e' || c == 'E':
			kind = 2
		}
		prev = c
	}
	text := string(l.text[start:l.pos])
	l.pos = start
	digits := strings.TrimPrefix(text, "-")
	d, ok := simpleAtod(text)
	switch {
	case text == "" || text == "-":
		l.fail("expected a number")
	case len(digits) > 1 && digits[0] == '0' && digits[1] >= '0' && digits[1] <= '9':
		l.fail("number cannot have extraneous leading zero")
	case strings.HasSuffix(text, "."):
		l.fail("number cannot have trailing period")
	case !ok || d-d != 0: // not a number, or not finite
		l.fail(fmt.Sprintf("invalid number: '%s'", text))
	}
	if l.failed {
		return
	}
	l.advance(len(text))
	if l.skip(); l.pos < len(l.text) && !strings.ContainsRune(",]}", rune(l.text[l.pos])) {
		l.fail(fmt.Sprintf("unexpected character: '%c'", l.text[l.pos]))
	}
}

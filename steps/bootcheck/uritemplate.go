package bootcheck

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// The URI template path extensions' parser, ported from Envoy's
// source/extensions/path/uri_template_lib/uri_template_internal.cc (parsePathPatternSyntax and
// its helpers) and uri_template.cc (parseRewritePattern, isValidSharedVariableSet), with the
// runtime guards uri_template_match_on_asterisk and uri_template_mixed_variable_literals at their
// default, on (runtime_features.cc:137-138). Error texts are Envoy's.

type uriOperator int

const (
	pathGlob uriOperator = iota // *
	textGlob                    // **
)

// uriSegment is one of a parsed pattern's segments: a literal, an operator or a variable.
type uriSegment struct {
	kind    byte // 'l' literal, 'o' operator, 'v' variable
	literal string
	op      uriOperator
	name    string       // variable
	match   []uriSegment // variable: its literals and operators, empty for the default *
	prefix  string       // variable: a mixed segment's literal before and after it
	suffix  string
}

// uriLiteralChars: RFC 3986 pchar as Envoy allows it, "*" included (kLiteralWithAsterisk,
// uri_template_internal.cc:55-60).
const uriLiteralChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~%!$&'()+,;:@=*"

func uriValidLiteral(s string, extra string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune(uriLiteralChars+extra, rune(s[i])) {
			return false
		}
	}
	return true
}

// uriValidVariableName is ^[a-zA-Z][a-zA-Z0-9_]*$ (isValidVariableName).
func uriValidVariableName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '_')) {
			return false
		}
	}
	return s != ""
}

func uriParseLiteral(p string) (string, string, error) {
	lit := p
	if i := strings.IndexByte(p, '/'); i >= 0 {
		lit = p[:i]
	}
	if !uriValidLiteral(lit, "") {
		return "", "", fmt.Errorf("Invalid literal: \"%s\"", lit)
	}
	return lit, p[len(lit):], nil
}

func uriParseOperator(p string) (uriOperator, string, error) {
	switch {
	case strings.HasPrefix(p, "**"):
		return textGlob, p[2:], nil
	case strings.HasPrefix(p, "*"):
		return pathGlob, p[1:], nil
	}
	return 0, "", fmt.Errorf("Invalid Operator: \"%s\"", p)
}

func uriParseVariable(p string) (uriSegment, string, error) {
	if len(p) < 2 || p[0] != '{' {
		return uriSegment{}, "", fmt.Errorf("Invalid variable: \"%s\"", p)
	}
	parts := strings.SplitN(p[1:], "}", 2)
	if len(parts) != 2 {
		return uriSegment{}, "", fmt.Errorf("Unmatched variable bracket in \"%s\"", p)
	}
	nameAndMatch := strings.SplitN(parts[0], "=", 2)
	if !uriValidVariableName(nameAndMatch[0]) {
		return uriSegment{}, "", fmt.Errorf("Invalid variable name: \"%s\"", nameAndMatch[0])
	}
	v := uriSegment{kind: 'v', name: nameAndMatch[0]}
	if len(nameAndMatch) < 2 {
		return v, parts[1], nil
	}
	item := nameAndMatch[1]
	if item == "" {
		return uriSegment{}, "", errors.New("Empty variable match")
	}
	for item != "" {
		if item[0] == '*' {
			op, rest, _ := uriParseOperator(item) // cannot fail on a '*'
			v.match, item = append(v.match, uriSegment{kind: 'o', op: op}), rest
		} else {
			lit, rest, err := uriParseLiteral(item)
			if err != nil {
				return uriSegment{}, "", err
			}
			v.match, item = append(v.match, uriSegment{kind: 'l', literal: lit}), rest
		}
		if item != "" {
			if item[0] != '/' || len(item) == 1 {
				return uriSegment{}, "", fmt.Errorf("Invalid variable match: \"%s\"", item)
			}
			item = item[1:]
		}
	}
	return v, parts[1], nil
}

func uriParseMixed(p string) (uriSegment, string, error) {
	start := strings.IndexByte(p, '{')
	if start < 0 {
		return uriSegment{}, "", fmt.Errorf("No variable found in mixed pattern: \"%s\"", p)
	}
	end := strings.IndexByte(p[start:], '}')
	if end < 0 {
		return uriSegment{}, "", fmt.Errorf("Unmatched variable bracket in mixed pattern: \"%s\"", p)
	}
	end += start
	prefix, portion := p[:start], p[start:end+1]
	suffix, rest := "", ""
	if end+1 < len(p) {
		if slash := strings.IndexByte(p[end+1:], '/'); slash >= 0 {
			suffix, rest = p[end+1:end+1+slash], p[end+1+slash:]
		} else {
			suffix = p[end+1:]
		}
	}
	if prefix != "" && !uriValidLiteral(prefix, "") {
		return uriSegment{}, "", fmt.Errorf("Invalid prefix literal: \"%s\"", prefix)
	}
	if suffix != "" && !uriValidLiteral(suffix, "") {
		return uriSegment{}, "", fmt.Errorf("Invalid suffix literal: \"%s\"", suffix)
	}
	v, _, err := uriParseVariable(portion)
	if err != nil {
		return uriSegment{}, "", err
	}
	v.prefix, v.suffix = prefix, suffix
	return v, rest, nil
}

// uriParsedPattern is a parsed path template: its segments and the suffix after the last one.
type uriParsedPattern struct {
	segments []uriSegment
	suffix   string
}

// parsePathPattern is parsePathPatternSyntax (uri_template_internal.cc:377-460).
func parsePathPattern(path string) (uriParsedPattern, error) {
	var out uriParsedPattern
	if !uriPrintable(path) {
		return out, fmt.Errorf("Invalid pattern: \"%s\"", path)
	}
	path = path[1:]
	for path != "" {
		var seg uriSegment
		var err error
		switch {
		case path[0] == '*':
			seg.kind = 'o'
			seg.op, path, _ = uriParseOperator(path)
		case path[0] == '{':
			seg, path, err = uriParseMixed(path)
		default:
			until := path
			if i := strings.IndexByte(path, '/'); i >= 0 {
				until = path[:i]
			}
			if strings.Contains(until, "{") && strings.Contains(until, "}") {
				seg, path, err = uriParseMixed(path)
			} else {
				seg.kind = 'l'
				seg.literal, path, err = uriParseLiteral(path)
			}
		}
		if err != nil {
			return out, err
		}
		out.segments = append(out.segments, seg)
		if path == "" {
			break
		}
		if path == "/" {
			out.segments = append(out.segments, uriSegment{kind: 'l'})
			break
		}
		if path[0] == '/' {
			path = path[1:]
			continue
		}
		lit, rest, err := uriParseLiteral(path)
		if err != nil {
			return out, err
		}
		out.suffix = lit
		if rest != "" {
			return out, errors.New("Prefix match not supported.")
		}
		break
	}
	if err := uriCaptureNames(out); err != nil {
		return out, err
	}
	return out, uriNoOperatorAfterTextGlob(out)
}

// uriPrintable is ^/[[:graph:]]*$: a leading slash, then printable ASCII other than space.
func uriPrintable(s string) bool {
	if s == "" || s[0] != '/' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// uriCaptureNames is gatherCaptureNames: at most 5 variables, names of 1-16 characters, each once.
func uriCaptureNames(p uriParsedPattern) error {
	seen := map[string]bool{}
	for _, s := range p.segments {
		if s.kind != 'v' {
			continue
		}
		if len(seen) >= 5 {
			return errors.New("Exceeded variable count limit (5)")
		}
		if len(s.name) < 1 || len(s.name) > 16 {
			return fmt.Errorf("Invalid variable name length (length of \"%s\" should be at least 1 and no more than 16)", s.name)
		}
		if seen[s.name] {
			return fmt.Errorf("Repeated variable name: \"%s\"", s.name)
		}
		seen[s.name] = true
	}
	return nil
}

// uriNoOperatorAfterTextGlob is validateNoOperatorAfterTextGlob.
func uriNoOperatorAfterTextGlob(p uriParsedPattern) error {
	seenText := false
	for _, s := range p.segments {
		switch {
		case s.kind == 'o':
			if seenText {
				return errors.New("Glob after text glob.")
			}
			seenText = s.op == textGlob
		case s.kind == 'v' && len(s.match) == 0:
			if seenText {
				return errors.New("Implicit variable path glob after text glob.")
			}
		case s.kind == 'v':
			for _, m := range s.match {
				if m.kind != 'o' {
					continue
				}
				if seenText {
					return errors.New("Glob after text glob.")
				}
				seenText = m.op == textGlob
			}
		}
	}
	return nil
}

// uriRegex is toRegexPattern of a parsed pattern: what the matcher compiles.
func uriRegex(p uriParsedPattern) string {
	var b strings.Builder
	b.WriteString("/")
	for i, s := range p.segments {
		if i > 0 {
			b.WriteString("/")
		}
		b.WriteString(uriSegmentRegex(s))
	}
	b.WriteString(uriLiteralRegex(p.suffix))
	return b.String()
}

var uriLiteralEscaper = strings.NewReplacer("$", `\$`, "(", `\(`, ")", `\)`, "+", `\+`, ".", `\.`)

func uriLiteralRegex(s string) string { return uriLiteralEscaper.Replace(s) }

func uriSegmentRegex(s uriSegment) string {
	switch s.kind {
	case 'l':
		return uriLiteralRegex(s.literal)
	case 'o':
		if s.op == textGlob {
			return "[a-zA-Z0-9-._~%!$&'()+,;:@=*/]*"
		}
		return "[a-zA-Z0-9-._~%!$&'()+,;:@=*]+"
	}
	inner := uriSegmentRegex(uriSegment{kind: 'o', op: pathGlob})
	if len(s.match) > 0 {
		parts := make([]string, len(s.match))
		for i, m := range s.match {
			parts[i] = uriSegmentRegex(m)
		}
		inner = strings.Join(parts, "/")
	}
	return uriLiteralRegex(s.prefix) + "(?P<" + s.name + ">" + inner + ")" + uriLiteralRegex(s.suffix)
}

// parseRewriteTemplate is parseRewritePattern (uri_template.cc:49-90): the variables it names.
func parseRewriteTemplate(p string) ([]string, error) {
	if p == "" || p[0] != '/' {
		return nil, errors.New("Invalid rewrite variable placement")
	}
	if strings.Contains(p, "//") && !strings.Contains(p, "\n") { // ^.*//.*$: '.' stops at a newline
		return nil, errors.New("Invalid rewrite literal")
	}
	var vars []string
	for p != "" {
		s1 := strings.SplitN(p, "{", 2)
		if s1[0] != "" && !uriValidLiteral(s1[0], "/") {
			return nil, errors.New("Invalid rewrite literal pattern")
		}
		if len(s1) < 2 {
			break
		}
		s2 := strings.SplitN(s1[1], "}", 2)
		if len(s2) < 2 {
			return nil, errors.New("Unmatched variable bracket")
		}
		p = s2[1]
		if !uriValidVariableName(s2[0]) {
			return nil, errors.New("Invalid variable name")
		}
		vars = append(vars, s2[0])
	}
	return vars, nil
}

// uriSharedVariables is isValidSharedVariableSet (uri_template.cc:131-138): the match template
// parses, its regex compiles (RE2 and Go's regexp agree on these: classes, escapes, named
// groups; "**" in a literal fails both), and the rewrite names only its variables.
func uriSharedVariables(rewrite, match string) bool {
	p, err := parsePathPattern(match)
	if err != nil {
		return false
	}
	re, err := regexp.Compile(uriRegex(p))
	if err != nil {
		return false
	}
	vars, err := parseRewriteTemplate(rewrite)
	if err != nil {
		return false
	}
	for _, v := range vars {
		if re.SubexpIndex(v) < 0 {
			return false
		}
	}
	return true
}

package bootcheck

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"
)

// pgvError is what protoc-gen-validate's generated errors have in common.
type pgvError interface {
	error
	Field() string
	Reason() string
	Cause() error
	ErrorName() string
}

// pgvProblems turns ValidateAll's errors into one problem per broken rule, each with the field
// path (below base) and line, worded as Envoy reports a constraint: Proto constraint validation
// failed (…), with the chain of embedded messages that led to it ("… | caused by …").
func (w *walker) pgvProblems(err error, base string) []Problem {
	var out []Problem
	var visit func(err error, path, chain string)
	visit = func(err error, path, chain string) {
		if multi, ok := err.(interface{ AllErrors() []error }); ok {
			for _, e := range multi.AllErrors() {
				visit(e, path, chain)
			}
			return
		}
		var ve pgvError
		if !errors.As(err, &ve) {
			out = append(out, Problem{Path: path, Message: chain + err.Error()})
			return
		}
		fp := joinPath(path, snake(ve.Field()))
		link := fmt.Sprintf("%s.%s: %s", ccErrorName(ve.ErrorName()), ve.Field(), envoyWording(ve.Reason()))
		if oneof, ok := requiredOneof(ve.ErrorName(), ve.Field(), ve.Reason()); ok {
			link = oneof
		}
		if cause := ve.Cause(); cause != nil {
			var inner pgvError
			_, isMulti := cause.(interface{ AllErrors() []error })
			if isMulti || errors.As(cause, &inner) {
				visit(cause, fp, chain+link+" | caused by ")
				return
			}
		}
		p := Problem{Path: fp, Message: "Proto constraint validation failed (" + chain + link + ")"}
		if n := w.nearest(fp); n != nil {
			p.Line, p.Col = n.Line, n.Column
		}
		out = append(out, p)
	}
	visit(err, base, "")
	return out
}

// ccErrorName is a validation error's name as Envoy's C++ validators write it: after the
// message's own name (DynamicResourcesValidationError), where Go's carry its enclosing messages'
// too (Bootstrap_DynamicResourcesValidationError) — protoc-gen-validate's templates/cc/register.go,
// errIdxCause: f.Message().Name().
func ccErrorName(goName string) string {
	msg := strings.TrimSuffix(goName, "ValidationError")
	if i := strings.LastIndexByte(msg, '_'); i >= 0 {
		msg = msg[i+1:]
	}
	return msg + "ValidationError"
}

// envoyWording: the Go rules count a string's length in runes; Envoy's C++ rules say characters.
func envoyWording(reason string) string {
	return strings.ReplaceAll(reason, " runes", " characters")
}

// nearest is the YAML node of a path, or of the closest enclosing path that was written (a
// required field that is absent points at its parent).
func (w *walker) nearest(path string) *yaml.Node {
	for p := path; p != ""; p = parent(p) {
		if n, ok := w.positions[p]; ok {
			return n
		}
	}
	return w.positions[""]
}

func parent(path string) string {
	i := strings.LastIndexAny(path, ".[")
	if i < 0 {
		return ""
	}
	return path[:i]
}

// snake writes a PGV field name (StaticResources, Clusters[0]) as the proto field name path
// (static_resources, clusters[0]); a map key in brackets is kept as it is.
func snake(field string) string {
	name, rest, _ := strings.Cut(field, "[")
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	if rest != "" {
		return b.String() + "[" + rest
	}
	return b.String()
}

// Package bootcheck judges an Envoy bootstrap the way `envoy --mode validate` does, without Envoy:
// the text typed as Envoy's loader types it (yaml-cpp for .yaml, JSON otherwise), read into Envoy's
// own API types (go-control-plane) by the rules of protobuf's C++ JSON parser, Envoy's duration
// limits and protoc-gen-validate's rules applied, then the server built as far as validate mode
// builds it — clusters, config sources, listeners, connection managers, route tables, extensions,
// server parts — in Envoy's order. Each refusal is in Envoy's words, with the field path and the
// YAML line; the first is the one Envoy stops at.
package bootcheck

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"gopkg.in/yaml.v3"

	"ist2-boot/steps/i18n"
)

// Result is the verdict: Envoy accepts the bootstrap when there are no Problems.
type Result struct {
	Problems []Problem
	Warnings []Problem
	parsed   *bootstrapv3.Bootstrap // what Envoy's parser made of the text, nil when it could not
}

// Canonical is the bootstrap as Envoy's parser reads it, in protobuf's JSON with proto field names
// (lone values made lists, enums upper-cased, well-known types in their JSON form), for whoever
// reads its fields next; nil when the text does not parse. Written on demand: validating alone
// does not pay for it.
func (r Result) Canonical() []byte {
	if r.parsed == nil {
		return nil
	}
	js, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(r.parsed)
	if err != nil {
		return nil
	}
	return js
}

// Parsed is the bootstrap as Envoy's parser made it (unknown fields dropped where allowed), nil
// when the text did not parse.
func (r Result) Parsed() *bootstrapv3.Bootstrap { return r.parsed }

// Built: the problem was met while Envoy built the server from a bootstrap that parsed and passed
// its constraints — after the bootstrap's application_log_config was applied.
func (p Problem) Built() bool { return p.stage > stageLogFormat }

// OK is Envoy's verdict: valid.
func (r Result) OK() bool { return len(r.Problems) == 0 }

// Report writes the verdict the way `envoy --mode validate -c FILE` does on success, and one line
// per problem (FILE:LINE:COL: …) otherwise: first the one Envoy stops at, then the rest, after a
// line that says so; warnings follow, marked as such. In English; ReportIn words it for a learner.
func (r Result) Report(file string) string { return r.ReportIn(file, "") }

// ReportIn is Report for a learner reading lang: Envoy's lines as Envoy prints them, this
// validator's own words ("also", "warning", a hint) in lang.
func (r Result) ReportIn(file string, lang i18n.Lang) string {
	say := func(key, english string, args ...string) string {
		if lang == "" {
			return english
		}
		return i18n.M(key, args...).In(lang)
	}
	var b strings.Builder
	if r.OK() {
		fmt.Fprintf(&b, "configuration '%s' OK\n", file)
	}
	for i, p := range r.Problems {
		if i == 1 {
			b.WriteString(say("validate.also", "Envoy would stop at the first; also:") + "\n")
		}
		if i == maxReported {
			n := fmt.Sprint(len(r.Problems) - maxReported)
			b.WriteString(say("validate.more", "… and "+n+" more", "count", n) + "\n")
			break
		}
		fmt.Fprintf(&b, "%s:%s\n", file, withLead(p.Say(lang)))
	}
	// The label carries its colon: a full-width one in Chinese and Japanese (zh M10).
	warning := say("validate.warning", "warning: ")
	for _, w := range r.Warnings {
		line := w
		line.Line = 0
		if w.Line > 0 {
			fmt.Fprintf(&b, "%s:%d:%d: %s%s\n", file, w.Line, w.Col, warning, line.Say(lang))
		} else {
			fmt.Fprintf(&b, "%s: %s%s\n", file, warning, line.Say(lang))
		}
	}
	return b.String()
}

// maxReported bounds the problems a report lists: a file with thousands of the same mistake says
// how many there are after the first ones.
const maxReported = 20

func withLead(s string) string {
	if s != "" && s[0] >= '0' && s[0] <= '9' {
		return s
	}
	return " " + s
}

// Options are the command-line flags of Envoy's that change what it accepts.
type Options struct {
	// AllowUnknownStaticFields is --allow-unknown-static-fields, which pilot-agent always passes
	// (istio pkg/envoy/proxy.go): a field or enum name the API does not have is logged as a
	// warning and ignored, instead of refused.
	AllowUnknownStaticFields bool
	// JSON: the bootstrap is a JSON file (Envoy reads a file as YAML only when it is named .yaml
	// or .yml, MessageUtil::loadFromFile); its scalars are JSON's, not yaml-cpp's.
	JSON bool
	// ProtoBinary and ProtoText: the file is named .pb or .pb_text, read as binary or text
	// protobuf (protofile.go); Path is its name as given, which Envoy's refusal of a text file says.
	ProtoBinary, ProtoText bool
	Path                   string
	// Serve: Envoy started to serve, as in a pod, not with --mode validate, which stops before
	// its subscriptions start: a source over ADS with no ads_config is then refused wherever it
	// is, not only where validate mode starts it (adsstart.go).
	Serve bool
}

// ForFile is the options Envoy's reading of a file of that name implies.
func ForFile(name string) Options {
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".pb"):
		return Options{ProtoBinary: true, Path: name}
	case strings.HasSuffix(lower, ".pb_text"):
		return Options{ProtoText: true, Path: name}
	}
	return Options{JSON: !strings.HasSuffix(lower, ".yaml") && !strings.HasSuffix(lower, ".yml"), Path: name}
}

// Prepare sets up what a first Validate would (Envoy's API descriptors, protobuf's JSON mapping of
// them), so a caller can have it done ahead, concurrently; it is safe to call any number of times.
func Prepare() { prepared() }

var prepared = sync.OnceFunc(func() { Validate([]byte(prepareDoc)) })

// prepareDoc reaches the parts of the API a lab bootstrap uses.
const prepareDoc = `{"node": {"id": "a", "cluster": "b"}, "static_resources": {"clusters": [{"name": "c", "type": "STATIC", "load_assignment": {"cluster_name": "c"}, "typed_extension_protocol_options": {"envoy.extensions.upstreams.http.v3.HttpProtocolOptions": {"@type": "type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions", "explicit_http_config": {"http2_protocol_options": {}}}}}]}, "dynamic_resources": {"ads_config": {"api_type": "GRPC", "grpc_services": [{"envoy_grpc": {"cluster_name": "c"}}]}, "cds_config": {"ads": {}}}}`

// Validate judges a bootstrap written in YAML or JSON as `envoy --mode validate -c FILE` does.
func Validate(data []byte) Result { return ValidateWith(data, Options{}) }

// ValidateWith judges a bootstrap as Envoy started with the given flags would.
func ValidateWith(data []byte, o Options) Result {
	if o.ProtoBinary || o.ProtoText {
		return validateProtoFile(data, o)
	}
	raw := data
	if o.JSON { // protobuf's lexer, legacy syntax allowed: its text as strict JSON (legacyjson.go)
		strict, p := legacyJSON(data)
		if p != nil {
			return Result{Problems: []Problem{*p}}
		}
		data = strict
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Result{Problems: []Problem{yamlProblem(tabLine(yamlLine(err), data), data)}}
	}
	if len(doc.Content) == 0 {
		return Result{Problems: []Problem{{Message: "the configuration is empty", ours: "validate.empty"}}} // our words: said in the learner's language (ko r8 KO-11)
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode { // MessageUtil::loadFromYaml: neither a map nor a list
		return Result{Problems: []Problem{{Line: root.Line, Col: root.Column, Message: "Unable to convert YAML as JSON: " + strings.TrimSpace(string(data))}}}
	}
	w := &walker{lenient: o.AllowUnknownStaticFields, typed: envoyScalar}
	if o.JSON {
		w.typed = jsonScalar
	} else {
		lastKeyWins(root, 0)
	}
	w.message(root, (&bootstrapv3.Bootstrap{}).ProtoReflect().Descriptor(), "")
	js, err := toJSONTyped(root, w.typed)
	if len(w.problems) > 0 {
		if o.JSON { // Envoy appends the text it parsed: the file itself
			js = raw
		}
		return Result{Problems: parseOrder(w.problems, js), Warnings: w.warnings}
	}
	if err != nil {
		return Result{Problems: []Problem{{Message: err.Error()}}}
	}
	// The bootstrap's own Durations are checked before its constraints; those inside an Any when
	// the extension is built, staged with it.
	var anyDurations []Problem
	for _, p := range w.durations {
		if inAny := w.anyOf(p.Path); inAny != "" {
			p.stage = stageOfAny(inAny)
			anyDurations = append(anyDurations, p)
		} else {
			return Result{Problems: []Problem{p}, Warnings: w.warnings}
		}
	}
	// What the walk let through, protobuf itself reads: the final word on the JSON mapping.
	var bs bootstrapv3.Bootstrap
	if err := (protojson.UnmarshalOptions{}).Unmarshal(js, &bs); err != nil {
		// Envoy's words around the status (MessageUtil::loadFromJson); the status itself is Go
		// protobuf's, which words it differently from protobuf's C++ parser.
		return Result{Problems: []Problem{{Message: "Unable to parse JSON as proto (INVALID_ARGUMENT: " + err.Error() + "): " + string(js)}}}
	}
	if err := bs.ValidateAll(); err != nil {
		return Result{Problems: w.pgvProblems(err, ""), parsed: &bs}
	}
	tree := messages(bs.ProtoReflect())
	r := startupChecks(&bs, tree, w.positions, append(anyDurations, w.anyProblems(tree)...), o.Serve)
	r.Warnings = append(w.warnings, r.Warnings...)
	r.parsed = &bs
	return r
}

// yamlLine is a YAML syntax error with the line it names (yaml.v3 gives no column).
func yamlLine(err error) Problem {
	var te *yaml.TypeError
	msg := err.Error()
	if errors.As(err, &te) {
		msg = strings.Join(te.Errors, "; ")
	}
	p := Problem{Message: strings.TrimPrefix(msg, "yaml: ")}
	if _, err := fmt.Sscanf(p.Message, "line %d:", &p.Line); err == nil {
		p.Message = strings.TrimSpace(p.Message[strings.Index(p.Message, ":")+1:])
		// yaml.v3 names a parser error's line 0-based (decode.go fail: only a scanner error's is
		// made 1-based): the list or node left open starts one line further on (ja r11 M9).
		if strings.HasPrefix(p.Message, "did not find expected") {
			p.Line++
		}
		p.Col = 0 // the first token of the line, once the text is at hand (yamlProblem)
	}
	return p
}

// yamlCppWords are yaml-cpp 0.9.0's messages (include/yaml-cpp/exceptions.h ErrorMsg) for the
// syntax errors whose yaml.v3 wording names the same fault.
var yamlCppWords = []struct{ ours, theirs string }{
	{"mapping values are not allowed in this context", "illegal map value"},
	{"did not find expected key", "end of map not found"},
	{"did not find expected '-' indicator", "end of sequence not found"},
	{"found character that cannot start any token", "unknown token"},
	{"found unexpected end of stream", "illegal EOF in scalar"},
}

// yamlWords are yaml.v3's messages that a learner meets in a hand-written bootstrap, each with the
// catalog string that says it in the learner's language (ko r8 KO-24, zh ZH-44).
var yamlWords = []struct{ message, key string }{
	{"did not find expected node content", "yaml.no_node"},
	{"did not find expected ',' or ']'", "yaml.seq_close"},
	{"did not find expected ',' or '}'", "yaml.map_close"},
	{"block sequence entries are not allowed in this context", "yaml.seq_here"},
	{"mapping values are not allowed in this context", "yaml.map_here"},
	{"found unknown escape character", "yaml.escape"},
	{"could not find expected ':'", "yaml.no_colon"},
	{"found a tab character", "yaml.tab"},
	{"found character that cannot start any token", "yaml.bad_token"},
}

// yamlProblem words a YAML syntax error as Envoy reports yaml-cpp's ParserException
// ("yaml-cpp: error at line N, column M: …", exceptions.h build_what) where the fault is one
// yaml-cpp names the same way; otherwise in this parser's words, said to be so. yaml-cpp's line
// and column are those of the token it stopped at, which can be one token later than ours.
func yamlProblem(p Problem, data []byte) Problem {
	if last := lastTextLine(data); p.Line > last && last > 0 {
		p.Line = last // the end of the input: named at its last line with text, not past it
	}
	if p.Line > 0 && p.Col == 0 {
		p.Col = firstColumn(data, p.Line)
	}
	for _, w := range yamlCppWords {
		if strings.HasPrefix(p.Message, w.ours) && p.Line > 0 && !tabIndented(data, p.Line) {
			p.Message = fmt.Sprintf("yaml-cpp: error at line %d, column %d: %s", p.Line, p.Col, w.theirs)
			return p
		}
	}
	p.ours, p.detail = "validate.yaml_syntax", p.Message
	for _, w := range yamlWords { // the parser's English put in the learner's words, kept beside them
		if strings.HasPrefix(p.Message, w.message) {
			p.detailKey = w.key
		}
	}
	p.Message = "YAML syntax error (in this validator's words; Envoy's yaml-cpp words it its own way): " + p.Message
	return p
}

// tabIndented: the line's indentation holds a tab, which yaml-cpp meets in its own way.
func tabIndented(data []byte, line int) bool {
	lines := strings.Split(string(data), "\n")
	if line > len(lines) {
		return false
	}
	l := lines[line-1]
	return strings.Contains(l[:len(l)-len(strings.TrimLeft(l, " \t"))], "\t")
}

// firstColumn is the column of the first character of line (1-based) that is not indentation.
func firstColumn(data []byte, line int) int {
	lines := strings.Split(string(data), "\n")
	if line > len(lines) {
		return 1
	}
	return len(lines[line-1]) - len(strings.TrimLeft(lines[line-1], " \t")) + 1
}

// tabLine points a tab error at the tab. yaml.v3's "tab character that violates indentation"
// names the line before the tab (it is reported while the previous line's token is closed), which
// would send the learner one line early; its "cannot start any token" names the right line, but
// column 1. The tab is the first indentation tab at or after the reported line.
func tabLine(p Problem, data []byte) Problem {
	last := p.Line // "cannot start any token": only that line
	switch {
	case p.Line == 0:
		return p
	case strings.Contains(p.Message, "tab character"):
		last = math.MaxInt
	case !strings.Contains(p.Message, "cannot start any token"):
		return p
	}
	for i, line := range strings.Split(string(data), "\n") {
		if i+1 < p.Line {
			continue
		}
		if i+1 > last {
			break
		}
		indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		if col := strings.IndexByte(indent, '\t'); col >= 0 {
			p.Line, p.Col = i+1, col+1
			return p
		}
	}
	return p
}

// parseOrder puts first what Envoy's parse reports: a value the relaxed parse (unknown fields
// ignored) still refuses, before the unknown fields the strict parse met; each refusal of a value
// gets the JSON Envoy appends.
func parseOrder(problems []Problem, js []byte) []Problem {
	out := make([]Problem, 0, len(problems))
	for _, p := range problems {
		if p.jsonTail {
			if js != nil {
				p.Message += ": "
				p.echoAt = len(p.Message)
				p.Message += string(js)
			}
			out = append(out, p)
		}
	}
	for _, p := range problems {
		if !p.jsonTail {
			out = append(out, p)
		}
	}
	return out
}

// anyOf is the path of the innermost Any that path is inside, "" when there is none.
func (w *walker) anyOf(path string) string {
	best := ""
	for p := range w.anyPaths {
		if len(p) > len(best) && strings.HasPrefix(path, p) && len(path) > len(p) && (path[len(p)] == '.' || path[len(p)] == '[') {
			best = p
		}
	}
	return best
}

// lastTextLine is the 1-based number of data's last line that is not blank (0 if none).
func lastTextLine(data []byte) int {
	lines := strings.Split(string(data), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.TrimSpace(lines[i]) != "" {
			return i + 1
		}
	}
	return 0
}

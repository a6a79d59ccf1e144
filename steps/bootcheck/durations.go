package bootcheck

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// maxDurationSeconds is protobuf's bound on a Duration, ten thousand years (parser.cc
// ParseDuration kMaxSeconds; util/time_util.h kDurationMaxSeconds).
const maxDurationSeconds = 3652500 * 86400

// duration is ParseDuration: a string of whole seconds (a sign allowed), up to nine fraction
// digits, and one "s"; then Envoy's own limits on what parsed (durationLimits).
func (w *walker) duration(n *yaml.Node, path, what string) {
	v := envoyValue{kind: jsonString}
	if n.Kind == yaml.ScalarNode {
		v = w.typed(n)
	}
	switch {
	case v.kind == jsonNull:
		return
	case n.Kind != yaml.ScalarNode:
		w.parseFailure(n, path, what, notScalar(n, 0))
		return
	case v.kind != jsonString:
		w.parseFailure(n, path, what, fmt.Sprintf("unexpected character: '%c'; expected '\"'", v.text[0]))
		return
	}
	text := v.text
	intEnd := len(text) - len(strings.TrimLeft(text, "0123456789-"))
	if intEnd == 0 {
		w.parseFailure(n, path, what, "duration must start with an integer")
		return
	}
	secs, err := strconv.ParseInt(text[:intEnd], 10, 64)
	if err != nil || strings.HasPrefix(text, "+") {
		w.parseFailure(n, path, what, "duration had bad seconds")
		return
	}
	if secs > maxDurationSeconds || secs < -maxDurationSeconds {
		w.parseFailure(n, path, what, "duration out of range")
		return
	}
	rest := text[intEnd:]
	var nanos int64
	if strings.HasPrefix(rest, ".") { // TakeNanosAndAdvance: one to nine digits
		digits := len(rest[1:]) - len(strings.TrimLeft(rest[1:], "0123456789"))
		if digits == 0 || digits > 9 {
			w.parseFailure(n, path, what, "duration had bad nanoseconds")
			return
		}
		nanos, _ = strconv.ParseInt(rest[1:1+digits]+strings.Repeat("0", 9-digits), 10, 64)
		rest = rest[1+digits:]
	}
	if secs < 0 || strings.HasPrefix(text, "-") {
		nanos = -nanos
	}
	if rest != "s" {
		w.parseFailure(n, path, what, "duration must end with a single 's'")
		return
	}
	setScalar(n, "!!str", w.durationLimits(n, path, secs, nanos))
}

// durationLimits records a Duration Envoy refuses once parsed, and gives the JSON text Go's
// protojson reads for it (a stand-in when it is refused: the refusal is what counts).
//
// Envoy checks every Duration of a config before its constraints (MessageUtil::validate →
// validateDurationFields, source/common/protobuf/utility.cc validateDurationUnifiedNoThrow, on
// by default with envoy.reloadable_features.strict_duration_validation): none may be negative,
// and each must be one protobuf holds valid (TimeUtil::IsDurationValid). The message ends with
// the Duration's DebugString.
func (w *walker) durationLimits(n *yaml.Node, path string, secs, nanos int64) string {
	var why string
	switch {
	case secs < 0 || nanos < 0:
		why = "Expected positive duration: "
	case secs > maxDurationSeconds || nanos > 999999999:
		why = "Duration out-of-range according to Protobuf: "
	default:
		return durationText(secs, nanos)
	}
	var debug []string
	if secs != 0 {
		debug = append(debug, fmt.Sprintf("seconds: %d", secs))
	}
	if nanos != 0 {
		debug = append(debug, fmt.Sprintf("nanos: %d", nanos))
	}
	w.durations = append(w.durations, Problem{Path: path, Line: n.Line, Col: n.Column,
		Message: "Invalid duration: " + why + strings.Join(debug, "\n")})
	return "0s"
}

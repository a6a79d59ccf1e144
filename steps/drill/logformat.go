package drill

import (
	"regexp"
	"strconv"
	"time"

	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/sidecar"
)

// istioLogFormat: the format pilot-agent's bootstrap gives Envoy (sidecar.IstioLogFormat).
const istioLogFormat = sidecar.IstioLogFormat

// podLogFormat is the format a sidecar's Envoy logs a refusal in: Envoy's default when the
// bootstrap fails while it is parsed (or while the log format itself is applied), Istio's for
// anything later — the drill's file stands for the xDS part of pilot-agent's bootstrap, whose
// application_log_config is Istio's. A bootstrap the validator accepts parses.
func podLogFormat(res bootcheck.Result) string {
	if len(res.Problems) > 0 && !res.Problems[0].Built() {
		return sidecar.DefaultLogFormat
	}
	return istioLogFormat
}

// defaultLine reads a line steps/sidecar wrote in Envoy's default format
// ("[%Y-%m-%d %T.%e][%t][%l][%n] [%g:%#] %v").
var defaultLine = regexp.MustCompile(`(?s)^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\]\[(\d+)\]\[(\w+)\]\[(\w+)\] \[` +
	regexp.QuoteMeta(sidecar.SourceRoot) + `(.*?):…\] (.*)$`)

// inFormat writes a line of Envoy's log that steps/sidecar models in Envoy's default format (the
// format of lines logged while the bootstrap is parsed), logged at at, in pattern instead: Envoy's
// lines after parsing are in the bootstrap's format. The default format keeps milliseconds only,
// so the time is the caller's. A line that is not Envoy's is left as it is.
func inFormat(line string, at time.Time, pattern string) string {
	m := defaultLine.FindStringSubmatch(line)
	if m == nil || pattern == sidecar.DefaultLogFormat {
		return line
	}
	thread, err := strconv.Atoi(m[2])
	if err != nil || m[1] != at.UTC().Format("2006-01-02 15:04:05.000") {
		return line
	}
	return sidecar.EnvoyLine{At: at, Thread: thread, Level: m[3], Logger: m[4], File: m[5], Msg: m[6]}.Format(pattern)
}

// logFormatName names a format for the drill's evidence and its explanation's words.
func logFormatName(pattern string) string {
	if pattern == istioLogFormat {
		return "istio"
	}
	return "envoy"
}

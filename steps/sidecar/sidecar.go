// Package sidecar is what a real Istio 1.31 sidecar shows of a bootstrap, as opposed to what
// `envoy --mode validate` prints on a laptop: Envoy started in serve mode by pilot-agent with its
// flags, the lines both write to the container's log, and the pod as `kubectl get pod` prints it,
// in the classic form (istio-proxy among the containers) and the native one (an init container
// with restartPolicy: Always, Istio's default on Kubernetes 1.33 and later).
//
// Sources, at the pinned versions (content/sources.md, rows P1–P12): istio pkg/envoy/proxy.go,
// pkg/envoy/agent.go, pkg/bootstrap/instance.go, pilot/cmd/pilot-agent/status; Envoy's
// source/server/server.cc, source/exe/main_common.cc, source/common/common/logger.h; kubectl's
// printPod (k8s.io/kubernetes pkg/printers/internalversion/printers.go).
package sidecar

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// AdminPort is the admin port of the bootstrap pilot-agent writes: ProxyAdminPort, the mesh's
// default 15000 (Istio pkg/config/mesh/mesh.go, tools/packaging/common/envoy_bootstrap.json).
const AdminPort = 15000

// ConfigPath is the bootstrap path pilot-agent hands Envoy: path.Join("./etc/istio/proxy",
// "envoy-rev.json"), relative to the container's working dir (pkg/bootstrap/instance.go
// configFile, pkg/config/constants ConfigPathDir).
const ConfigPath = "etc/istio/proxy/envoy-rev.json"

// EnvoyArgs are the arguments pilot-agent starts Envoy with (pkg/envoy/proxy.go args, NewProxy),
// for the proxy's log levels as injection passes them (--proxyLogLevel, --proxyComponentLogLevel)
// and its concurrency (0: no flag), with the mesh's default drain duration (45 s,
// pkg/config/mesh/mesh.go).
func EnvoyArgs(logLevel, componentLevel string, concurrency int) []string {
	args := []string{"-c", ConfigPath,
		"--drain-time-s", "45",
		"--drain-strategy", "immediate",
		"--local-address-ip-version", "v4",
		"--file-flush-interval-msec", "1000",
		"--disable-hot-restart",
		"--allow-unknown-static-fields"}
	if logLevel != "" {
		args = append(args, "-l", logLevel)
	}
	if componentLevel != "" {
		args = append(args, "--component-log-level", componentLevel)
	}
	if concurrency > 0 {
		args = append(args, "--concurrency", fmt.Sprint(concurrency))
	}
	return args
}

// AllowsUnknownFields: the arguments include --allow-unknown-static-fields.
func AllowsUnknownFields(args []string) bool {
	return slices.Contains(args, "--allow-unknown-static-fields")
}

// Envoy's default log format, used until the bootstrap's application_log_config is applied
// (source/common/common/logger.h DEFAULT_LOG_FORMAT); Istio's bootstrap sets its own there
// (tools/packaging/common/envoy_bootstrap.json), which a bootstrap that fails to parse never reaches.
const DefaultLogFormat = "[%Y-%m-%d %T.%e][%t][%l][%n] [%g:%#] %v"

// IstioLogFormat is the text format pilot-agent's bootstrap gives Envoy's own log
// (application_log_config.log_format.text_format, Istio tools/packaging/common/envoy_bootstrap.json
// at the pinned module; pilot-agent passes Envoy no --log-format, pkg/envoy/proxy.go args). Envoy
// applies it right after the bootstrap is loaded and checked (source/server/server.cc
// InstanceBase::initializeOrThrow: loadBootstrapConfig, then maybeSetApplicationLogFormat), so it
// is in force for everything after parsing and for nothing before.
const IstioLogFormat = "%Y-%m-%dT%T.%fZ\t%l\tenvoy %n %g:%#\t%v\tthread=%t"

// SourceRoot prefixes Envoy's source paths (%g) in Istio's proxy build, where Envoy is the external
// Bazel repository `envoy`.
const SourceRoot = "external/envoy/"

// EnvoyLine is one line of Envoy's log in the given spdlog pattern: the flags Envoy's formats use
// (%Y %m %d %T %e %f %t %l %n %g %# %v; %j as %v). An unknown line number is "…": it differs from
// one Envoy build to the next.
type EnvoyLine struct {
	At     time.Time
	Thread int
	Level  string // spdlog's names: trace, debug, info, warning, error, critical
	Logger string // Envoy's logger id: main, config, …
	File   string // source path inside Envoy's repository
	Msg    string
}

// Format writes the line in pattern.
func (l EnvoyLine) Format(pattern string) string {
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		if pattern[i] != '%' || i+1 == len(pattern) {
			b.WriteByte(pattern[i])
			continue
		}
		i++
		t := l.At.UTC()
		switch pattern[i] {
		case 'Y':
			fmt.Fprintf(&b, "%04d", t.Year())
		case 'm':
			fmt.Fprintf(&b, "%02d", int(t.Month()))
		case 'd':
			fmt.Fprintf(&b, "%02d", t.Day())
		case 'T':
			b.WriteString(t.Format("15:04:05"))
		case 'e':
			fmt.Fprintf(&b, "%03d", t.Nanosecond()/1e6)
		case 'f':
			fmt.Fprintf(&b, "%06d", t.Nanosecond()/1e3)
		case 't':
			fmt.Fprint(&b, l.Thread)
		case 'l':
			b.WriteString(l.Level)
		case 'n':
			b.WriteString(l.Logger)
		case 'g':
			b.WriteString(SourceRoot + l.File)
		case '#':
			b.WriteString("…")
		case 'v', 'j':
			b.WriteString(l.Msg)
		default:
			b.WriteByte('%')
			b.WriteByte(pattern[i])
		}
	}
	return b.String()
}

// AgentLine is one line of pilot-agent's own log: Istio's default encoder, UTC time with
// microseconds, the level, and for the default scope no scope name (pkg/log/config.go).
func AgentLine(at time.Time, level, msg string) string {
	return at.UTC().Format("2006-01-02T15:04:05.000000Z") + "\t" + level + "\t" + msg
}

// AgentStarting is pilot-agent's line as it starts the proxy (pkg/envoy/agent.go Run), at info:
// the proxy's own log level (--log_output_level=default:info, the injection template) writes it.
func AgentStarting(at time.Time) string { return AgentLine(at, "info", "Starting proxy agent") }

// Rejection is what the container's log ends with when Envoy refuses the bootstrap in serve mode:
// the critical line (source/server/server.cc: error `<msg>` initializing config
// '<config proto's DebugString> <--config-yaml> <path>', the DebugString of the empty config proto
// being protobuf's marker and a newline), the bare message Envoy's main writes to stderr
// (source/exe/main_common.cc), and pilot-agent's line when its child exits (pkg/envoy/agent.go).
func Rejection(at time.Time, thread int, pattern, msg string) []string {
	critical := EnvoyLine{At: at, Thread: thread, Level: "critical", Logger: "main", File: "source/server/server.cc",
		Msg: "error `" + msg + "` initializing config 'goo.gle/debugproto\n  " + ConfigPath + "'"}
	lines := strings.Split(critical.Format(pattern), "\n")
	lines = append(lines, msg)
	return append(lines, AgentLine(at.Add(7*time.Millisecond), "error", "Envoy exited with error: exit status 1"))
}

// UnknownField is the warning Envoy logs, as it parses the bootstrap, for what
// --allow-unknown-static-fields lets through (source/common/protobuf/message_validator_impl.cc,
// WarningValidationVisitorImpl, logger config). message is the validator's "Unknown field: …".
func UnknownField(at time.Time, thread int, message string) string {
	return EnvoyLine{At: at, Thread: thread, Level: "warning", Logger: "config",
		File: "source/common/protobuf/message_validator_impl.cc", Msg: message}.Format(DefaultLogFormat)
}

// InitialFetchTimedOut is Envoy's warning when a subscription's initial_fetch_timeout passes
// without a response (the gRPC subscription's FetchTimedout case).
func InitialFetchTimedOut(at time.Time, thread int, typeURL string) string {
	return EnvoyLine{At: at, Thread: thread, Level: "warning", Logger: "config",
		File: "source/extensions/config_subscription/grpc/grpc_subscription_impl.cc",
		Msg:  "gRPC config: initial fetch timed out for " + typeURL}.Format(DefaultLogFormat)
}

// The retry back-off of an xDS stream: jittered, from 500 ms doubling (below 15 s) to 30 s
// (envoy/config/subscription_factory.h RetryInitialDelayMs, RetryMaxDelayMs;
// source/common/common/backoff_strategy.cc JitteredExponentialBackOffStrategy::nextBackOffMs).
const (
	xdsRetryFirst = 500 * time.Millisecond
	xdsRetryMax   = 30 * time.Second
)

// StreamCloses are when a config stream that can never be opened closes, over up after Envoy
// started: at once, then after each jittered retry; random draws the jitter (random % interval).
func StreamCloses(first, up time.Duration, random func(n int64) int64) []time.Duration {
	var out []time.Duration
	interval := xdsRetryFirst
	for at := first; at <= up; {
		out = append(out, at)
		at += time.Duration(random(int64(interval/time.Millisecond))) * time.Millisecond
		if interval < xdsRetryMax/2 {
			interval *= 2
		} else {
			interval = xdsRetryMax
		}
	}
	return out
}

// StreamClosed is Envoy's warning for a config stream that keeps closing with a retriable status
// (14, UNAVAILABLE, what a failed connection becomes) once the failures have lasted longer than
// the retry back-off's maximum (grpc_stream.h logClose; earlier closes are logged at debug). The
// message after the status depends on the network: written "…".
func StreamClosed(at time.Time, thread int, method, cluster string, since time.Duration) string {
	return EnvoyLine{At: at, Thread: thread, Level: "warning", Logger: "config",
		File: "source/extensions/config_subscription/grpc/grpc_stream.h",
		Msg:  fmt.Sprintf("%s gRPC config stream to %s closed since %ds ago: 14, …", method, cluster, int(since.Seconds()))}.Format(DefaultLogFormat)
}

// StreamWarnedAfter: logClose warns for a retriable status only once this long has passed since
// the first close (isOverTimeLimit: more than the back-off's maximum).
const StreamWarnedAfter = xdsRetryMax

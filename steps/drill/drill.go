package drill

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"ist2-boot/steps"
	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/sidecar"
)

// Class is what an operator sees of a broken sidecar.
type Class string

// The three ways a sidecar fails to start.
const (
	Rejected Class = "rejected"  // Envoy refuses the bootstrap and exits: CrashLoopBackOff
	NotReady Class = "not-ready" // Envoy runs but no configuration arrives: Running, never Ready
	// ConfigRejected: Envoy runs, is connected and gets istiod's pushes, and refuses (NACKs) one
	// of them: Running, never Ready, and the reason is in the pushed resource, not the bootstrap.
	ConfigRejected Class = "config-rejected"
)

// ClassChoice is one answer to the class question, with the message key of its words.
type ClassChoice struct {
	Class Class
	Key   string
}

// ClassChoices are the class question's answers, in the order they are offered (1, 2, 3).
var ClassChoices = []ClassChoice{
	{Rejected, "drill.class.rejected"},
	{NotReady, "drill.class.not_ready"},
	{ConfigRejected, "drill.class.config_rejected"},
}

// Evidence is what decided the class, and what the operator sees.
type Evidence struct {
	// Source: "envoy" (Envoy ran it: --mode validate), "validator" (the offline check), and for a
	// bootstrap both accept, "documented" (Envoy's and pilot-agent's documented behaviour: the
	// start without istiod is not run by the drill).
	Source   string   `json:"source"`
	Message  string   `json:"message,omitempty"` // the first problem, in Envoy's words (serve mode)
	Line     int      `json:"line,omitempty"`    // its line in the drill's bootstrap
	Warnings []string `json:"warnings,omitempty"`
	// Bare is what Envoy run by hand (`envoy -c`, --mode validate) says where a sidecar differs:
	// pilot-agent's --allow-unknown-static-fields turns its refusal into a warning.
	Bare    string `json:"bare_envoy,omitempty"`
	Pod     string `json:"pod"`      // kubectl get pod, as it prints the pod at the moment looked at
	PodName string `json:"pod_name"` // the pod's name, from node.id
	// AgeSeconds and Restarts: when the pod is looked at, since it was created, and how many
	// times kubelet has restarted the proxy by then.
	AgeSeconds int `json:"age_s"`
	Restarts   int `json:"restarts"`
	// StateCmd and State: the proxy's State and Last State in kubectl describe (none before a
	// restart); EventsCmd and Events: the pod's Warning events.
	StateCmd  string   `json:"state_cmd"`
	State     []string `json:"state"`
	EventsCmd string   `json:"events_cmd"`
	Events    []string `json:"events"`
	LogsCmd   string   `json:"logs_cmd"` // the kubectl logs command whose lines Logs are
	Logs      []string `json:"logs"`     // what it prints: Envoy's and pilot-agent's lines
	// LogFormat: the format of Envoy's lines once it has met the fault — "istio" (the bootstrap
	// parsed, pilot-agent's application_log_config applies) or "envoy" (its default: parsing failed).
	LogFormat string `json:"log_format"`
	AdminCmd  string `json:"admin_cmd"`
	Admin     string `json:"admin"` // what Envoy's admin port answers on /ready: code and body
	// LiveAfter: Envoy reaches LIVE this many seconds after start, its initial fetches given up.
	LiveAfter int `json:"live_after_s,omitempty"`
	// HereReady and Connected are what Envoy started on this machine (envoy -c, no istiod, no
	// pilot-agent) answered on /ready and for control_plane.connected_state ("" unless run).
	HereReady string `json:"here_ready,omitempty"`
	HerePort  int    `json:"here_admin_port,omitempty"`
	Connected string `json:"connected_state,omitempty"`
	Started   bool   `json:"started,omitempty"` // Envoy was started for real, and stopped
	Key       string `json:"key,omitempty"`     // the message key of the explanation (i18n)
	Trick     bool   `json:"trick,omitempty"`   // Envoy goes LIVE, the sidecar still is not Ready
	// Counts: the counters pilot-agent reads, at the moment looked at (ConfigRejected).
	Counts *sidecar.XDSCounts `json:"xds_counts,omitempty"`
}

// Drill is one drawn drill: the seed, the fault, its class and field, the evidence and the broken
// bootstrap.
type Drill struct {
	Seed      uint64   `json:"seed"`
	Sidecar   string   `json:"sidecar"` // the pod's form: "classic" or "native", the lab's (its inject.yaml)
	Fault     string   `json:"fault"`
	Class     Class    `json:"class"`
	Field     string   `json:"field"`
	Evidence  Evidence `json:"evidence"`
	Bootstrap string   `json:"bootstrap"`
	Base      string   `json:"base,omitempty"`   // what was broken: the learner's bootstrap, or the fixtures'
	Pushed    *Pushed  `json:"pushed,omitempty"` // what istiod pushed (ConfigRejected): the fault is there
	base      []byte
	lab       Lab
	log       []string // the container's log as modelled, of which Evidence.Logs is what LogsCmd prints
}

// ErrBaseFails is returned when the bootstrap to break does not pass to begin with.
var ErrBaseFails = errors.New("the bootstrap to break does not pass the check")

// New draws the drill of seed from base, a bootstrap that passes, for a pod of lab: the fault
// (never avoid, the one before, unless it is the only one that applies), its field, and what it
// does — the validator's verdict, or Envoy's where envoy (a path) is given.
func New(base []byte, lab Lab, seed uint64, avoid, envoy string) (*Drill, error) {
	return NewAvoiding(context.Background(), base, lab, seed, []string{avoid}, envoy)
}

// NewAvoiding is New avoiding every fault of avoid (the last few drawn), unless only those apply;
// ctx's end stops the Envoy it may run or start (and removes its temp dir).
func NewAvoiding(ctx context.Context, base []byte, lab Lab, seed uint64, avoid []string, envoy string) (*Drill, error) {
	if r := bootcheck.Validate(base); !r.OK() {
		return nil, ErrBaseFails
	}
	// A fault in istiod's push is drawn as often as any one fault of either catalogue, from a
	// stream of its own: the bootstrap faults' draw below is the same seed for seed as before.
	pr := rand.New(rand.NewPCG(seed, 0x9054ed))
	if pr.IntN(len(Catalogue)+len(PushCatalogue)) < len(PushCatalogue) {
		if d := drawPushed(ctx, base, lab, seed, avoid, pr); d != nil {
			return d, nil
		}
	}
	r := rand.New(rand.NewPCG(seed, 0x15721b007))
	order := r.Perm(len(Catalogue))
	for pass := 0; pass < 2; pass++ {
		for _, i := range order {
			f := Catalogue[i]
			if pass == 0 && slices.Contains(avoid, f.ID) {
				continue
			}
			var doc yaml.Node
			if err := yaml.Unmarshal(base, &doc); err != nil {
				return nil, err
			}
			before := snapshot(&doc)
			field, ok := f.apply(&doc, r)
			if !ok {
				continue
			}
			out, err := encode(&doc)
			if err != nil {
				return nil, err
			}
			if text, ok := carried(base, before, &doc, out); ok {
				out = text // the base's own text with the fault in it: a diff shows the fault only
			}
			d := &Drill{Seed: seed, Fault: f.ID, Field: field, Bootstrap: string(out), base: base, lab: lab}
			d.judge(ctx, envoy)
			return d, nil
		}
	}
	if d := drawPushed(ctx, base, lab, seed, nil, pr); d != nil {
		return d, nil
	}
	return nil, errors.New("no fault of the catalogue applies to this bootstrap")
}

func encode(doc *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return b.Bytes(), enc.Close()
}

// envoyValidate runs Envoy's own check of a bootstrap (bounded in time).
func envoyValidate(ctx context.Context, envoy, bootstrap string, flags ...string) (int, string, bool) {
	dir, err := os.MkdirTemp("", "ist2-boot-drill-")
	if err != nil {
		return 0, "", false
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "bootstrap.yaml")
	if os.WriteFile(file, []byte(bootstrap), 0o644) != nil {
		return 0, "", false
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	// Its own group, killed whole at the time limit; its output kept to 1 MiB.
	out, _, err := steps.Output(exec.CommandContext(ctx, envoy, append([]string{"--mode", "validate", "-c", file}, flags...)...), 1<<20)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, string(out), true
	case errors.As(err, &exit) && ctx.Err() == nil:
		return exit.ExitCode(), string(out), true
	}
	return 0, "", false
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// Verdict is a judged answer: right or not, and why, in words with the evidence.
type Verdict struct {
	Right bool
	Fix   bool // a judgement of the learner's fixed file: fixed or not yet, not right or wrong
	Why   i18n.Msg
	// Answer: for a wrong class, the right one (the message key of its words), said with the
	// verdict before its explanation (zh r7 M11).
	Answer string
}

// JudgeClass judges the learner's class.
func (d *Drill) JudgeClass(answer Class) Verdict {
	v := Verdict{Right: answer == d.Class, Why: d.explain()}
	if !v.Right {
		for _, c := range ClassChoices {
			if c.Class == d.Class {
				v.Answer = c.Key
			}
		}
	}
	return v
}

func (d *Drill) explain() i18n.Msg {
	if d.Class == ConfigRejected {
		return d.explainPushed()
	}
	ready, status, restarts := podColumns(d.Evidence.Pod)
	bare := ""
	if d.Evidence.Bare != "" {
		bare = i18n.Ref("drill.bare_differs")
	}
	// The format of the log lines shown follows from the stage the fault is met at (P6).
	format, parseWarning := "", ""
	if d.Evidence.LogFormat != "" {
		format = i18n.Ref("drill.log_format." + d.Evidence.LogFormat)
	}
	if d.Evidence.LogFormat == "istio" && len(grep(d.Evidence.Logs, logPatterns[:1])) > 0 {
		parseWarning = i18n.Ref("drill.log_format.parse_warning")
	}
	// Why the container restarted — said only when it did (a not-Ready pod's first ten minutes
	// show RESTARTS 0: ja H1, zh M5).
	restarted := i18n.Ref("drill.not_ready.restarted")
	if n, _, _ := strings.Cut(restarts, " "); n == "0" {
		restarted = i18n.Ref("drill.not_ready.not_restarted")
	}
	// The message stands on a line of its own: Envoy's words whole, its full stop too.
	return i18n.M(d.Evidence.Key, "message", d.Evidence.Message, "line", strconv.Itoa(d.Evidence.Line),
		"source", i18n.Ref("drill.source."+d.Evidence.Source), "field", d.Field, "admin", d.Evidence.Admin,
		"ready", ready, "status", status, "restarts", restarts, "bare", bare, "bare_message", d.Evidence.Bare,
		"log_format", format, "log_parse", parseWarning, "restarted", restarted)
}

// podColumns are READY, STATUS and RESTARTS of the pod's row in the drill's kubectl table.
func podColumns(table string) (ready, status, restarts string) {
	lines := strings.Split(table, "\n")
	f := strings.Fields(lines[len(lines)-1])
	if len(f) < 5 {
		return "", "", ""
	}
	return f[1], f[2], strings.Join(f[3:len(f)-1], " ")
}

// JudgeField judges the field or line the learner names: the broken field's path, its last key,
// or its line in the drill's bootstrap (or the line the evidence names).
func (d *Drill) JudgeField(answer string) Verdict {
	if d.Class == ConfigRejected {
		return d.judgePushed(answer)
	}
	a := strings.TrimSpace(answer)
	right := false
	also := d.alsoRemoved()
	// A misspelt key may be named as written or as it should be: both name the broken field; so
	// does any other field of that name the fault removed with it.
	for _, f := range append([]string{d.Field, d.OriginalField()}, also...) {
		last := f[strings.LastIndex(f, ".")+1:]
		right = right || a != "" && (a == f || a == last || strings.HasSuffix(f, "."+a))
	}
	right = right || d.insideRemoved(a)
	if n, err := strconv.Atoi(a); err == nil && n > 0 {
		right = n == d.FieldLine()
	}
	args := append([]string{"field", d.Field, "line", strconv.Itoa(d.FieldLine())}, d.glossArgs()...)
	if d.FieldLine() == 0 {
		note := ""
		if len(also) > 0 {
			note = i18n.Ref("drill.also_removed")
		}
		args = append(args, "also", strings.Join(also, ", "), "also_note", note)
		return Verdict{Right: right, Why: i18n.M("drill.field_is_removed", args...)}
	}
	// The line the offline validator places Envoy's error at is not the broken field's (ko r24
	// M4, fact r25 M1: node.id's line for a misspelt node.cluster): judged wrong, and said for what
	// it is, with the field's own line.
	if n, err := strconv.Atoi(a); err == nil && n == d.Evidence.Line && n != d.FieldLine() {
		return Verdict{Right: right, Why: i18n.M("drill.field_is_evidence", append(args, "evidence", a)...)}
	}
	return Verdict{Right: right, Why: i18n.M("drill.field_is", args...)}
}

// alsoRemoved are the other fields of the broken field's name that the fault removed with it
// (both subscriptions' initial_fetch_timeout): in the bootstrap before, not in the drill's.
func (d *Drill) alsoRemoved() []string {
	var was, now yaml.Node
	if d.FieldLine() != 0 || yaml.Unmarshal(d.base, &was) != nil || yaml.Unmarshal([]byte(d.Bootstrap), &now) != nil {
		return nil
	}
	var out []string
	for _, p := range pathsNamed(&was, "", d.Field[strings.LastIndex(d.Field, ".")+1:]) {
		if p != d.Field && keyNode(&now, p) == nil {
			out = append(out, p)
		}
	}
	return out
}

// pathsNamed are the paths (as the catalogue writes them: a.b[0].c) of the keys called name
// under n.
func pathsNamed(n *yaml.Node, at, name string) []string {
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		return pathsNamed(n.Content[0], at, name)
	}
	var out []string
	switch n.Kind {
	case yaml.MappingNode:
		for k := 0; k+1 < len(n.Content); k += 2 {
			p := strings.TrimPrefix(at+"."+n.Content[k].Value, ".")
			if n.Content[k].Value == name {
				out = append(out, p)
			}
			out = append(out, pathsNamed(n.Content[k+1], p, name)...)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			out = append(out, pathsNamed(c, at+"["+strconv.Itoa(i)+"]", name)...)
		}
	}
	return out
}

// FieldLine is the line of the broken field in the drill's bootstrap (0 for a removed field).
func (d *Drill) FieldLine() int {
	var doc yaml.Node
	if yaml.Unmarshal([]byte(d.Bootstrap), &doc) != nil {
		return 0
	}
	if k := keyNode(&doc, d.Field); k != nil {
		return k.Line
	}
	return 0
}

// valueWord is a field's value as a verdict quotes it: a field that is not there is said so in
// words ("なし"), not left blank.
func valueWord(v string) string {
	if v == "" {
		return i18n.Ref("drill.absent")
	}
	return v
}

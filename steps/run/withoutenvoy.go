package run

import (
	"strings"

	"github.com/envoyproxy/go-control-plane/pkg/resource/v3"

	"ist2-boot/steps"
	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/check"
	"ist2-boot/steps/controlplane"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/sidecar"
)

// withoutEnvoy is what a step that needs Envoy can still show where Envoy is missing: the offline
// check's verdict of the bootstrap it would validate (section 5's rejection line is the point of
// that section), or Envoy's documented answers without istiod — each said to be what it is, not
// Envoy's own output.
func (r *Runner) withoutEnvoy(st steps.Step, emit func(Line)) {
	kind, arg, _ := strings.Cut(st.WithoutEnvoy, ":")
	switch strings.TrimSpace(kind) {
	case "validate":
		file := strings.TrimSpace(arg)
		data, err := steps.ReadRegularFile(r.Env.Path(file), check.MaxLearnerFile)
		if err != nil {
			emit(Line{Kind: Note, Msg: i18n.M("run.offline_no_file", "file", file)})
			return
		}
		emit(Line{Kind: Note, Msg: i18n.M("run.offline_verdict", "file", file)})
		for _, l := range strings.Split(strings.TrimRight(bootcheck.Validate(data).Report(file), "\n"), "\n") {
			emit(Line{Kind: Output, Text: l})
		}
	case "documented":
		p := r.Lesson.Params
		emit(Line{Kind: Note, Msg: i18n.M("run.documented_ready", "code", p["ready_code"], "body", p["ready_body"], "state", p["connected_state"])})
	case "practice":
		r.practiceModel(emit)
	}
}

// practiceModel is the practice page without Envoy: what an Envoy on the server's configuration
// shows (the documented answers), the server's resources, Envoy's warning for the version it
// refuses, and pilot-agent's line for counters with a success of each type before the refusal —
// all from the models the checks use, and said to be so.
func (r *Runner) practiceModel(emit func(Line)) {
	p := r.Lesson.Params
	b, err := controlplane.ReadBootstrap(r.Env.Path("practice.yaml"))
	rej, ok := controlplane.Rejected(b.NodeID)
	if err != nil || !ok {
		emit(Line{Kind: Note, Msg: i18n.M("run.offline_no_file", "file", "practice.yaml")})
		return
	}
	served := controlplane.ServedVersion(false)
	var clusters, listeners []string
	for _, c := range served.Clusters {
		clusters = append(clusters, c.GetName())
	}
	for _, l := range served.Listeners {
		listeners = append(listeners, l.GetName())
	}
	counts := sidecar.XDSCounts{CDSSuccess: 1, LDSSuccess: 1}
	if rej.TypeURL == resource.ClusterType {
		counts.CDSRejected = 1
	} else {
		counts.LDSRejected = 1
	}
	warning := rej.Warning() // over delta too, after `delta config for …` (watch_map.cc:307-311)
	emit(Line{Kind: Note, Msg: i18n.M("run.documented_practice", "code", p["live_ready_code"], "body", p["live_ready_body"],
		"state", p["live_connected_state"], "clusters", strings.Join(clusters, ","), "listeners", strings.Join(listeners, ","),
		"warning", warning, "pilot", check.ProbeAnswer(counts))})
}

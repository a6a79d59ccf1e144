package run

import (
	"strings"

	"ist2-boot/steps"
	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
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
	}
}

package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
)

// A real path without Envoy: section 5's run shows the offline check's rejection of boot-typo.yaml
// (said to be the check's, not Envoy's), section 6's run Envoy's documented answers, said so.
func TestWithoutEnvoyTheRunShowsTheOfflineVerdict(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, steptest.PathWithout("envoy"))
	steptest.CopyAnswers(t, env)
	tools := steps.LocateTools(env, l.Tools)
	if tools.Get("envoy").Found {
		t.Fatal("envoy is on the test's PATH")
	}
	r := &Runner{Lesson: l, Env: env, Tools: tools}
	var lines []Line
	emit := func(ln Line) { lines = append(lines, ln) }
	typo, _ := l.Section("typo")
	r.Tools = append(steps.Tools{}, tools...)
	for i, tl := range r.Tools { // section 5's first step (yq) is not what is tested: only its second
		if tl.Name == "yq" {
			r.Tools[i].Found = true
		}
	}
	res := r.RunSection(context.Background(), typo.ID, emit)
	var out, notes []string
	for _, ln := range lines {
		switch ln.Kind {
		case Output:
			out = append(out, ln.Text)
		case Note:
			notes = append(notes, ln.Msg.Key)
		}
	}
	joined := strings.Join(out, "\n")
	if res.MissingTool != "envoy" || !strings.Contains(joined, "Unknown gRPC client cluster '"+l.Params["typo_cluster"]+"'") ||
		!strings.Contains(strings.Join(notes, " "), "run.offline_verdict") {
		t.Errorf("section 5 without Envoy: %+v\n%s\n%v", res, joined, notes)
	}
	lines = nil
	ready, _ := l.Section("ready")
	r.RunSection(context.Background(), ready.ID, emit)
	said := ""
	for _, ln := range lines {
		if ln.Msg.Key == "run.documented_ready" {
			said = ln.Msg.In(i18n.Japanese)
		}
	}
	if !strings.Contains(said, l.Params["ready_body"]) {
		t.Errorf("section 6 without Envoy: %q", said)
	}
}

// D2: run applies check's rule first: a produced file that is a link out of the work dir is not
// written through; nothing runs, and the learner is told why in their language.
func TestRunRefusesALinkedProducedFile(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, os.Getenv("PATH"))
	steptest.CopyAnswers(t, env)
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(env.Path("bootstrap.yaml"))
	if err := os.Symlink(victim, env.Path("bootstrap.yaml")); err != nil {
		t.Fatal(err)
	}
	tools := steps.Tools{}
	for _, spec := range l.Tools { // every tool "found": only the refusal may stop the run
		tools = append(tools, steps.ToolStatus{Name: spec.Name, Found: true, Path: "/bin/true"})
	}
	var notes []string
	res := (&Runner{Lesson: l, Env: env, Tools: tools}).RunSection(context.Background(), "bootstrap", func(ln Line) {
		if ln.Kind == Note {
			notes = append(notes, ln.Msg.In(i18n.Japanese))
		}
	})
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Error("written through the link")
	}
	if res.OK() || res.Step != 0 || len(notes) == 0 || !strings.Contains(notes[0], "bootstrap.yaml") {
		t.Errorf("%+v %q", res, notes)
	}
}

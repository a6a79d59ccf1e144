package drill

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"

	"ist2-boot/steps"
	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/check"
	"ist2-boot/steps/run"
)

// File is where a drill's broken bootstrap is written, in the work dir, for the learner to fix.
const File = "drill-bootstrap.yaml"

// ErrNoBase: there is no bootstrap that passes to break — neither the learner's nor one the lab's
// commands could build here.
var ErrNoBase = errors.New("no bootstrap that passes")

// Draw draws the learner's next drill: from their bootstrap.yaml if it passes the check, else from
// the one the lab's commands build from the fixtures; seed decides the fault (a random one when
// seed is negative, then never one of avoid unless only those apply). Where Envoy is installed,
// its own check decides the class.
func Draw(ctx context.Context, lesson *steps.Lesson, env *steps.Env, seed int64, avoid []string) (*Drill, error) {
	base, lab, from, err := learnerBase(ctx, lesson, env)
	if err != nil {
		return nil, err
	}
	drawn := uint64(seed)
	if seed < 0 {
		drawn = rand.Uint64() % 1000000
	} else {
		avoid = nil // the same seed gives the same drill
	}
	envoy := ""
	if t := steps.LocateTools(env, lesson.Tools).Get("envoy"); t.Found { // its path: no versions needed
		envoy = t.Path
	}
	d, err := NewAvoiding(ctx, base, lab, drawn, avoid, envoy)
	if errors.Is(err, ErrBaseFails) {
		return nil, ErrNoBase
	}
	if err != nil {
		return nil, err
	}
	d.Base = from
	return d, nil
}

// WriteFile writes the drill's broken bootstrap to File in the work dir (never through a link).
func (d *Drill) WriteFile(env *steps.Env) error {
	return steps.WriteFileAtomic(env.Path(File), []byte(d.Bootstrap), 0o644)
}

// WriteFileIfAbsent writes File unless a regular file stands there already: a drill resumed from an
// earlier session keeps the learner's fix in progress.
func (d *Drill) WriteFileIfAbsent(env *steps.Env) error {
	if fi, err := os.Lstat(env.Path(File)); err == nil && fi.Mode().IsRegular() {
		return nil
	}
	return d.WriteFile(env)
}

// fixtureLab builds the bootstrap and the injected manifest the lab's own commands make from the
// fixtures, in a scratch work dir (the learner's is not touched): sections 1–4 run there, and
// section 4's first step writes bootstrap.yaml (its Envoy step may stop for want of Envoy: the
// file is made by then).
func fixtureLab(ctx context.Context, lesson *steps.Lesson, env *steps.Env) (bootstrap, manifest []byte, err error) {
	dir, err := os.MkdirTemp("", "ist2-boot-base-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	scratch := *env
	scratch.WorkDir = dir
	r := &run.Runner{Lesson: lesson, Env: &scratch, Tools: steps.LocateTools(&scratch, lesson.Tools)}
	for _, id := range []string{"args", "env", "mesh", "bootstrap"} {
		if res := r.RunSection(ctx, id, func(run.Line) {}); !res.OK() && id != "bootstrap" {
			return nil, nil, errors.New("the lab's commands could not build a bootstrap here: " + id)
		}
	}
	if manifest, err = steps.ReadRegularFile(filepath.Join(dir, "inject.yaml"), check.MaxLearnerFile); err != nil {
		return nil, nil, err
	}
	bootstrap, err = steps.ReadRegularFile(filepath.Join(dir, "bootstrap.yaml"), check.MaxLearnerFile)
	return bootstrap, manifest, err
}

// passesSection4: the learner's bootstrap.yaml passes step 4's check, not only the validator: a
// drill's words take its port and its cluster for the lesson's (fact r25 M2: a bootstrap with
// istiod's plaintext port validated, and the wrong-port drill called 15012 wrong).
func passesSection4(lesson *steps.Lesson, env *steps.Env) bool {
	results, err := check.Check(lesson, env, []string{"bootstrap"})
	if err != nil {
		return false
	}
	for _, r := range results {
		for _, f := range r.Files {
			if f.File == "bootstrap.yaml" {
				return f.Status == check.Pass
			}
		}
	}
	return false
}

// learnerBase is the bootstrap a drill breaks and the pod it runs in: the learner's bootstrap.yaml
// if it passes the check, else the one the lab's commands build from the fixtures; the learner's
// inject.yaml says the pod's form and probe, else the one the lab's commands build. from says
// whose bootstrap ("learner", "fixtures").
func learnerBase(ctx context.Context, lesson *steps.Lesson, env *steps.Env) (data []byte, lab Lab, from string, err error) {
	data, err = steps.ReadRegularFile(env.Path("bootstrap.yaml"), check.MaxLearnerFile)
	from = "learner"
	if err != nil || !bootcheck.Validate(data).OK() || !passesSection4(lesson, env) {
		data, from = nil, "fixtures"
	}
	known := false
	if manifest, err := steps.ReadRegularFile(env.Path("inject.yaml"), check.MaxLearnerFile); err == nil {
		lab, err = LabFromManifest(manifest)
		known = err == nil
	}
	if known && data != nil {
		return data, lab, from, nil
	}
	built, manifest, err := fixtureLab(ctx, lesson, env)
	if err != nil {
		return nil, Lab{}, "", ErrNoBase
	}
	if !known {
		if lab, err = LabFromManifest(manifest); err != nil {
			return nil, Lab{}, "", ErrNoBase
		}
	}
	if data == nil {
		if !bootcheck.Validate(built).OK() {
			return nil, Lab{}, "", ErrNoBase
		}
		data = built
	}
	return data, lab, from, nil
}

package run

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"ist2-boot/steps"
	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/check"
)

// FixtureBootstrap builds the bootstrap the lab's own commands make from the fixtures, in a
// scratch work dir (the learner's is not touched): sections 1–4 run there, and section 4's first
// step writes bootstrap.yaml (its Envoy step may stop for want of Envoy: the file is made by then).
// It is what a drill breaks when the learner has no bootstrap that passes yet.
func FixtureBootstrap(ctx context.Context, lesson *steps.Lesson, env *steps.Env) ([]byte, error) {
	dir, err := os.MkdirTemp("", "ist2-boot-base-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	scratch := *env
	scratch.WorkDir = dir
	r := &Runner{Lesson: lesson, Env: &scratch, Tools: steps.LocateTools(&scratch, lesson.Tools)}
	for _, id := range []string{"args", "env", "mesh", "bootstrap"} {
		if res := r.RunSection(ctx, id, func(Line) {}); !res.OK() && id != "bootstrap" {
			return nil, errors.New("the lab's commands could not build a bootstrap here: " + id)
		}
	}
	return steps.ReadRegularFile(filepath.Join(dir, "bootstrap.yaml"), check.MaxLearnerFile)
}

// DrillBase is the bootstrap a drill breaks: the learner's bootstrap.yaml if it passes the check,
// else the one the lab's commands build from the fixtures. from says which ("learner", "fixtures").
func DrillBase(ctx context.Context, lesson *steps.Lesson, env *steps.Env) (data []byte, from string, err error) {
	if data, err := steps.ReadRegularFile(env.Path("bootstrap.yaml"), check.MaxLearnerFile); err == nil && bootcheck.Validate(data).OK() {
		return data, "learner", nil
	}
	data, err = FixtureBootstrap(ctx, lesson, env)
	if err != nil || !bootcheck.Validate(data).OK() {
		return nil, "", errors.New("no bootstrap that passes")
	}
	return data, "fixtures", nil
}

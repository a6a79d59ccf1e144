package steps

import "ist2-boot/content"

// Open is how every front end starts: the shipped lesson, and the environment (lab pod or sandbox,
// with the learner's overrides) made ready, its sandbox fixtures and work dir written before any
// command looks for them.
func Open(getenv func(string) string, o Overrides) (*Lesson, *Env, error) {
	l, err := LoadLesson(content.FS)
	if err != nil {
		return nil, nil, err
	}
	env, err := DetectEnv(getenv, o)
	if err != nil {
		return nil, nil, err
	}
	if err := env.Prepare(); err != nil {
		return nil, nil, err
	}
	return l, env, nil
}

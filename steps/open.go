package steps

import "ist2-boot/content"

// Open is how every front end starts: the shipped lesson, and the environment (lab pod or sandbox,
// with the learner's overrides) made ready, its sandbox fixtures and work dir written before any
// command looks for them.
func Open(getenv func(string) string, o Overrides) (*Lesson, *Env, error) {
	l, env, prepared, err := OpenToLook(getenv, o)
	if err == nil {
		err = prepared
	}
	if err != nil {
		return nil, nil, err
	}
	return l, env, nil
}

// OpenToLook is Open for a command that diagnoses (doctor): a work dir or fixtures that cannot be
// made are its first finding, not a reason to find nothing (hostile L11). prepared is that
// failure; err is the lesson's or the environment's, which leave nothing to look at.
func OpenToLook(getenv func(string) string, o Overrides) (l *Lesson, env *Env, prepared, err error) {
	l, err = LoadLesson(content.FS)
	if err != nil {
		return nil, nil, nil, err
	}
	env, err = DetectEnv(getenv, o)
	if err != nil {
		return nil, nil, nil, err
	}
	return l, env, env.Prepare(), nil
}

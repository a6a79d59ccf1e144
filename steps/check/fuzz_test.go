package check

import (
	"os"
	"path/filepath"
	"testing"

	"ist2-boot/steps/steptest"
)

// FuzzJudges feeds each produced file arbitrary text (seeded with the right answers): a rule may
// fail a file, but never panic or hang. `go test` runs the seeds; `go test -fuzz FuzzJudges` more.
func FuzzJudges(f *testing.F) {
	entries, err := os.ReadDir(steptest.AnswersDir())
	if err != nil {
		f.Fatal(err)
	}
	var names []string
	for i, e := range entries {
		raw, err := os.ReadFile(filepath.Join(steptest.AnswersDir(), e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		names = append(names, e.Name())
		f.Add(uint8(i), raw)
		f.Add(uint8(i), raw[:len(raw)/2])
		f.Add(uint8(i), []byte("&a [*a, *a, *a]\n"))
	}
	l := steptest.Lesson(f)
	env := steptest.Env(f, steptest.PathWithout("envoy"))
	steptest.CopyAnswers(f, env)
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		name := names[int(which)%len(names)]
		path := env.Path(name)
		orig, _ := os.ReadFile(filepath.Join(steptest.AnswersDir(), name))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.WriteFile(path, orig, 0o644)
		sec, _ := l.ProducerOf(name)
		results, err := Check(l, env, []string{sec.ID})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range results[0].Files {
			if f.File == name && f.Status != Pass && f.Reason.Key == "" {
				t.Errorf("%s: %s without a reason", name, f.Status)
			}
		}
	})
}

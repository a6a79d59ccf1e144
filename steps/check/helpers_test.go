package check

import (
	"testing"

	"ist2-boot/steps"
)

// fileResult checks the sections and returns one file's verdict.
func fileResult(t testing.TB, l *steps.Lesson, env *steps.Env, file string) FileResult {
	t.Helper()
	sec, _ := l.ProducerOf(file)
	results, err := Check(l, env, []string{sec.ID})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range results[0].Files {
		if f.File == file {
			return f
		}
	}
	t.Fatalf("no result for %s", file)
	return FileResult{}
}

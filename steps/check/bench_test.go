package check

import (
	"testing"

	"ist2-boot/steps/steptest"
)

// BenchmarkCheckAll judges every produced file of a finished lab.
func BenchmarkCheckAll(b *testing.B) {
	l := steptest.Lesson(b)
	env := steptest.Env(b, steptest.PathWithout("envoy"))
	steptest.CopyAnswers(b, env)
	b.ResetTimer()
	for b.Loop() {
		results, err := Check(l, env, nil)
		if err != nil || len(results) != len(l.Sections) {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckFresh judges a work dir with nothing in it (tool lookups for needs-tool).
func BenchmarkCheckFresh(b *testing.B) {
	l := steptest.Lesson(b)
	env := steptest.Env(b, steptest.PathWithout("envoy"))
	for b.Loop() {
		if _, err := Check(l, env, nil); err != nil {
			b.Fatal(err)
		}
	}
}

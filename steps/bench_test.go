package steps

import (
	"testing"

	"ist2-boot/content"
)

// BenchmarkCheckAll judges every produced file of a finished lab.
func BenchmarkCheckAll(b *testing.B) {
	l := testLesson(b)
	env := testEnv(b, pathWithout("envoy"))
	copyAnswers(b, env)
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
	l := testLesson(b)
	env := testEnv(b, pathWithout("envoy"))
	for b.Loop() {
		if _, err := Check(l, env, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadLesson(b *testing.B) {
	for b.Loop() {
		if _, err := LoadLesson(content.FS); err != nil {
			b.Fatal(err)
		}
	}
}

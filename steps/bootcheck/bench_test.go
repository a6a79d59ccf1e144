package bootcheck

import (
	"os"
	"testing"
)

func benchmarkValidate(b *testing.B, file string, minSize int) {
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	if len(data) < minSize {
		b.Fatalf("%s is %d bytes, want at least %d", file, len(data), minSize)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if r := Validate(data); !r.OK() {
			b.Fatal(r.Problems)
		}
	}
}

// The learner's bootstrap: about 1 KB.
func BenchmarkValidateReference(b *testing.B) {
	benchmarkValidate(b, "../testdata/answers/bootstrap.yaml", 0)
}

// A 21 KB bootstrap as Istio's pilot-agent writes it (every option on): stats matchers, tracing,
// compressor filters, TypedStruct extensions.
func BenchmarkValidateIstio20KB(b *testing.B) {
	benchmarkValidate(b, "testdata/istio/all_golden.json", 20*1024)
}

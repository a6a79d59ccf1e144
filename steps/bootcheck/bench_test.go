package bootcheck

import (
	"os"
	"testing"
)

func BenchmarkValidateReference(b *testing.B) {
	data, err := os.ReadFile("../testdata/answers/bootstrap.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if r := Validate(data); !r.OK() {
			b.Fatal(r.Problems)
		}
	}
}

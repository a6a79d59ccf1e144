package main

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkValidateProcess is the wall time a learner waits for `ist2-boot validate` on a 21 KB
// bootstrap as Istio's pilot-agent writes it: process start, package init (the Envoy API registry,
// the markdown stack), protobuf's first-use set-up, and the validation itself.
func BenchmarkValidateProcess(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "ist2-boot")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	file := filepath.Join("steps", "bootcheck", "testdata", "istio", "all_golden.json")
	for b.Loop() {
		if out, err := exec.Command(bin, "validate", file).CombinedOutput(); err != nil {
			b.Fatalf("validate: %v\n%s", err, out)
		}
	}
}

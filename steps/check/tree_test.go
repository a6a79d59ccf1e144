package check

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"ist2-boot/steps/bootcheck"
)

// The fast JSON reading of a canonical bootstrap gives the very tree the YAML parser gives, on
// every accepted bootstrap we hold (the lab's answers, Envoy's and Istio's examples).
func TestJSONTreeIsTheYAMLTree(t *testing.T) {
	var files []string
	for _, glob := range []string{"../testdata/answers/*.yaml", "../bootcheck/testdata/*/*.yaml", "../bootcheck/testdata/*/*.json"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	compared := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		canonical := bootcheck.ValidateWith(data, bootcheck.ForFile(f)).Canonical()
		if canonical == nil {
			continue
		}
		want, err := parseTree(string(canonical))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		got, err := parseJSONTree(canonical)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the JSON tree differs from the YAML tree at %q", f, firstDifference(got, want, ""))
		}
		if !reflect.DeepEqual(copyTree(got), got) {
			t.Errorf("%s: copyTree changed the tree", f)
		}
		compared++
	}
	if compared < 30 {
		t.Fatalf("only %d canonical bootstraps compared; the corpus is missing", compared)
	}
}

// Numbers read as yaml.v3 reads them: integers as int, the rest as float64.
func TestJSONTreeNumbers(t *testing.T) {
	got, err := parseJSONTree([]byte(`{"a": 15000, "b": 0.5, "c": [1e+21, "7"], "d": -3}`))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := parseTree(`{"a": 15000, "b": 0.5, "c": [1e+21, "7"], "d": -3}`)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v, want %#v", got, want)
	}
}

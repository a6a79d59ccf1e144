package bootcheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"gopkg.in/yaml.v3"
)

// Envoy's own configurations (testdata/envoy, see its SOURCE.md): every one Envoy accepts is
// accepted, every one it refuses is refused with Envoy's message on the line it is about, and a
// contrib config is refused naming a type stock Envoy does not have.
func TestEnvoysOwnConfigurations(t *testing.T) {
	valid, _ := filepath.Glob("testdata/envoy/valid/*.yaml")
	if len(valid) < 50 {
		t.Fatalf("only %d valid configurations: testdata/envoy is incomplete", len(valid))
	}
	for _, file := range valid {
		t.Run("valid/"+filepath.Base(file), func(t *testing.T) {
			if r := Validate(readData(t, file)); !r.OK() {
				t.Errorf("refused, Envoy accepts it:\n%s", r.Report(file))
			}
		})
	}

	var expected []struct {
		File, Message, Contains, Proof string
		Line, Category                 int
	}
	if err := yaml.Unmarshal(readData(t, "testdata/envoy/invalid/EXPECTED.yaml"), &expected); err != nil {
		t.Fatal(err)
	}
	invalid, _ := filepath.Glob("testdata/envoy/invalid/*_*.yaml")
	if len(expected) != len(invalid) {
		t.Errorf("%d invalid configurations, %d expectations", len(invalid), len(expected))
	}
	for _, e := range expected {
		t.Run("invalid/"+e.File, func(t *testing.T) {
			r := Validate(readData(t, filepath.Join("testdata/envoy/invalid", e.File)))
			if r.OK() {
				t.Fatalf("accepted, Envoy refuses it (%s)", e.Proof)
			}
			first := r.Problems[0]
			matches := first.Message == e.Message || (e.Contains != "" && strings.Contains(first.Message, e.Contains))
			if !matches || first.Line != e.Line {
				t.Errorf("first problem %d: %q\nEnvoy: line %d: %q%q (%s)", first.Line, first.Message, e.Line, e.Message, e.Contains, e.Proof)
			}
		})
	}

	contrib, _ := filepath.Glob("testdata/envoy/contrib/*.yaml")
	for _, file := range contrib {
		t.Run("contrib/"+filepath.Base(file), func(t *testing.T) { contribRefused(t, file) })
	}
}

// contribRefused: a config that needs Envoy's contrib build is refused naming the first type stock
// Envoy does not have.
func contribRefused(t *testing.T, file string) {
	typeURL := regexp.MustCompile(`type\.googleapis\.com/([\w.]+)`)
	data := readData(t, file)
	var unknown []string // the types in the file that no stock Envoy extension takes
	for _, m := range typeURL.FindAllStringSubmatch(string(data), -1) {
		if _, err := protoregistry.GlobalTypes.FindMessageByName(protoName(m[1])); err != nil {
			unknown = append(unknown, m[1])
		}
	}
	r := Validate(data)
	if len(unknown) == 0 || r.OK() || !strings.Contains(r.Problems[0].Message, unknown[0]) {
		t.Errorf("want a refusal naming %v, got %+v", unknown, r.Problems)
	}
}

// The cases written here cover each kind of check issue 25 names, both ways: for every category
// at least one configuration Envoy accepts and one it refuses, each listed with the source that
// grounds it; every local valid file is listed, and every listed one exists.
func TestCorpusCoversEveryCategory(t *testing.T) {
	const categories = 13 // issue 25: cluster build … runtime layer walking
	var valid, invalid []struct {
		File, Proof string
		Category    int
	}
	if err := yaml.Unmarshal(readData(t, "testdata/envoy/local-valid.yaml"), &valid); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(readData(t, "testdata/envoy/invalid/EXPECTED.yaml"), &invalid); err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	validIn, invalidIn := map[int]int{}, map[int]int{}
	for _, v := range valid {
		listed[v.File] = true
		validIn[v.Category]++
		if v.Proof == "" {
			t.Errorf("%s: no source", v.File)
		}
		if _, err := os.Stat(filepath.Join("testdata/envoy/valid", v.File)); err != nil {
			t.Errorf("%s: listed, missing: %v", v.File, err)
		}
	}
	for _, e := range invalid {
		invalidIn[e.Category]++
	}
	local, _ := filepath.Glob("testdata/envoy/valid/local_*.yaml")
	for _, f := range local {
		if !listed[filepath.Base(f)] {
			t.Errorf("%s: not listed in local-valid.yaml", f)
		}
	}
	for c := 1; c <= categories; c++ {
		if validIn[c] == 0 || invalidIn[c] == 0 {
			t.Errorf("category %d: %d valid, %d invalid cases; each needs both", c, validIn[c], invalidIn[c])
		}
	}
}

func protoName(s string) protoreflect.FullName { return protoreflect.FullName(s) }

func readData(t *testing.T, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

package steps

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gopkg.in/yaml.v3"
)

// The quick reading of top-level keys agrees with a full parse on every shipped fixture and on
// the shapes a lab pod may hold (JSON with nested values, YAML with block scalars and comments).
func TestQuickTopLevelKeysAgreeWithAParse(t *testing.T) {
	inputs := map[string][]byte{
		"json":   []byte(`{"a": {"x": [1, {"y": 2}]}, "b": [], "c": "s", "d": 1, "e": {"f": {}}}`),
		"yaml":   []byte("# comment\na: 1\nb:\n  c: |\n    d: not a key\ne: [x]\nf.g-h: {i: 1}\n"),
		"spaces": []byte("\n\n  {\"only\": true}\n"),
	}
	files, _ := filepath.Glob(filepath.Join("..", "assets", "fixtures", "*.yaml"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(f)] = data
	}
	for name, data := range inputs {
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(name, err)
		}
		var want []string
		for i := 0; i < len(doc.Content[0].Content); i += 2 {
			want = append(want, doc.Content[0].Content[i].Value)
		}
		got := slices.Sorted(maps.Keys(quickTopLevelKeys(data)))
		if slices.Sort(want); !slices.Equal(got, want) {
			t.Errorf("%s: quick %v, parse %v", name, got, want)
		}
	}
}

func BenchmarkResolveFixtures(b *testing.B) {
	fixtures := filepath.Join("..", "assets", "fixtures")
	env := &Env{Fixtures: fixtures, Mesh: filepath.Join(fixtures, "mesh-config.yaml")}
	for b.Loop() {
		for _, f := range ResolveFixtures(env) {
			if f.Problem.Key != "" {
				b.Fatal(f)
			}
		}
	}
}

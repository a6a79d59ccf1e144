package bootcheck

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Whatever protobuf's lexer takes becomes strict JSON with its lines where they were, and
// whatever it refuses is a problem with a message; nothing panics.
func FuzzLegacyJSON(f *testing.F) {
	files, _ := filepath.Glob("testdata/istio/*_golden.json")
	for _, file := range append(files, "testdata/accept/json-format.json") {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{`{a: [1, 2,], 'b': 'c\'d', "e": "\U0041\ud83d\ude00",}`, "{\"a\": \"x\ny\"}", `{"a": 01}`, `{"a": [`, `{"": {"": 1}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, p := legacyJSON(data)
		if p != nil {
			if p.Message == "" {
				t.Fatalf("a problem without a message for %q", data)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("%q became %q, not JSON", data, out)
		}
		if bytes.Count(out, []byte("\n")) != bytes.Count(data, []byte("\n")) {
			t.Fatalf("%q became %q: lines moved", data, out)
		}
		ValidateWith(data, ForFile("x.json"))
	})
}

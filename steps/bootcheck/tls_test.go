package bootcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTLSRefusals: each bootstrap under testdata/tls-refuse is refused first with the words its
// "# want:" line gives (Envoy's, for the subtler paths through the TLS context's making).
func TestTLSRefusals(t *testing.T) {
	files, _ := filepath.Glob("testdata/tls-refuse/*.yaml")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(data), "\n")
		want, ok := strings.CutPrefix(first, "# want: ")
		if !ok {
			t.Fatalf("%s: no '# want:' line", f)
		}
		r := Validate(data)
		if r.OK() {
			t.Errorf("%s: accepted, Envoy says %q", f, want)
			continue
		}
		if got := r.Problems[0].Message; strings.TrimSpace(got) != strings.TrimSpace(want) {
			t.Errorf("%s: first problem %q, Envoy says %q", f, got, want)
		}
	}
}

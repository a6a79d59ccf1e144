package bootcheck

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestHTTPFixtures: each bootstrap under testdata/http says on its first line what Envoy does with
// it — "# accepted" or "# first: <Envoy's first message>" — and the validator must agree.
func TestHTTPFixtures(t *testing.T) {
	files, _ := filepath.Glob("testdata/http/*.yaml")
	if len(files) == 0 {
		t.Fatal("no fixtures in testdata/http")
	}
	for _, file := range files {
		data := readData(t, file)
		head, _, _ := strings.Cut(string(data), "\n")
		r := Validate(data)
		switch want, refused := strings.CutPrefix(head, "# first: "); {
		case refused && (r.OK() || r.Problems[0].Message != want):
			t.Errorf("%s: want first %q, got:\n%s", file, want, r.Report(file))
		case !refused && !strings.HasPrefix(head, "# accepted"):
			t.Errorf("%s: the first line says neither '# accepted' nor '# first: '", file)
		case !refused && !r.OK():
			t.Errorf("%s: refused, Envoy accepts it:\n%s", file, r.Report(file))
		}
	}
}

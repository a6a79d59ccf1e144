package bootcheck

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// uriLines reads a fixture of testdata/uritemplate: one entry a line, # comments left out, a
// line in double quotes unquoted as Go reads it (for the control characters).
func uriLines(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "uritemplate", name))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasPrefix(l, `"`) {
			if l, err = strconv.Unquote(l); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		out = append(out, l)
	}
	return out
}

func TestURITemplateMatch(t *testing.T) {
	for _, p := range uriLines(t, "match-accept.txt") {
		if _, err := parsePathPattern(p); err != nil {
			t.Errorf("%q refused: %v", p, err)
		}
	}
	refuse := uriLines(t, "match-refuse.txt")
	for i := 0; i+1 < len(refuse); i += 2 {
		_, err := parsePathPattern(refuse[i])
		if err == nil || err.Error() != refuse[i+1] {
			t.Errorf("%q: got %v, want %q", refuse[i], err, refuse[i+1])
		}
	}
}

// The regex a template makes, as Envoy's ConvertPathPattern.ValidPattern test has it.
func TestURITemplateRegex(t *testing.T) {
	p, err := parsePathPattern("/api/*/{resource=*}/{method=**}")
	if err != nil {
		t.Fatal(err)
	}
	want := "/api/[a-zA-Z0-9-._~%!$&'()+,;:@=*]+/(?P<resource>[a-zA-Z0-9-._~%!$&'()+,;:@=*]+)/(?P<method>[a-zA-Z0-9-._~%!$&'()+,;:@=*/]*)"
	if got := uriRegex(p); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestURITemplateRewrite(t *testing.T) {
	for _, p := range uriLines(t, "rewrite-accept.txt") {
		if _, err := parseRewriteTemplate(p); err != nil {
			t.Errorf("%q refused: %v", p, err)
		}
	}
	refuse := uriLines(t, "rewrite-refuse.txt")
	for i := 0; i+1 < len(refuse); i += 2 {
		_, err := parseRewriteTemplate(refuse[i])
		if err == nil || err.Error() != refuse[i+1] {
			t.Errorf("%q: got %v, want %q", refuse[i], err, refuse[i+1])
		}
	}
	for _, l := range uriLines(t, "shared.txt") {
		f := strings.Split(l, "\t")
		if got := uriSharedVariables(f[0], f[1]); got != (f[2] == "ok") {
			t.Errorf("rewrite %s, match %s: shared %v, want %s", f[0], f[1], got, f[2])
		}
	}
}

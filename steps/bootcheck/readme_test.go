package bootcheck

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite the README's coverage paragraph from the inventory")

// gapWords are the README's words for each gap category (validate --help has them in three
// languages in the catalog).
var gapWords = map[string]string{
	GapFile: "a file where Envoy runs (a certificate, a descriptor set, a module)", GapKey: "a private key",
	GapBoringSSL: "BoringSSL itself (parsing a certificate chain)", GapLua: "LuaJIT", GapRE2: "RE2's compiler (a regex's program size)",
	GapFlag: "a command-line flag", GapHost: "the machine Envoy runs on (kernel, capabilities, environment)",
	GapRuntime: "an xDS response (never a bootstrap alone)", GapSize: "a configuration far larger than any a learner writes",
}

// The README names what the validator does not model as the inventory does: the paragraph
// between its coverage markers is made from Coverage.
func TestReadmeNamesWhatIsNotModelled(t *testing.T) {
	modelled, reachable, gaps, err := Coverage()
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	open := reachable - modelled
	for _, g := range gaps {
		open -= g.Sites
		w, ok := gapWords[g.Category]
		if !ok {
			t.Fatalf("no README words for gap %q", g.Category)
		}
		named = append(named, fmt.Sprintf("%s (%d)", w, g.Sites))
	}
	want := fmt.Sprintf("Of the %d error sites a bootstrap can reach, %d are modelled, in Envoy's words and order;\n"+
		"%d could be and are not yet (open rows). Not modelled, because checking them offline needs %s.",
		reachable, modelled, open, strings.Join(named, "; "))
	path := filepath.Join("..", "..", "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- coverage:begin -->\n", "<!-- coverage:end -->"
	text := string(data)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatal("README has no coverage markers")
	}
	if got := strings.TrimSpace(text[i+len(begin) : j]); got != want {
		if *updateReadme {
			if err := os.WriteFile(path, []byte(text[:i+len(begin)]+want+"\n"+text[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("README says\n%s\nthe inventory says\n%s\n(go test ./steps/bootcheck -run Readme -update-readme)", got, want)
	}
}

package drill

import (
	"os"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"
)

// Newcomer L12: `diff bootstrap.yaml drill-bootstrap.yaml` shows the fault and nothing else — for
// every fault of the catalogue, on the lab's answer and on the validator's lab reference; a
// fault in what istiod pushes leaves the file as it was.
func TestTheDrillFileIsTheBaseWithOnlyTheFault(t *testing.T) {
	for _, file := range []string{"../testdata/answers/bootstrap.yaml", "../bootcheck/testdata/accept/lab-reference.yaml"} {
		base, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for seed := uint64(0); seed < 200 && len(seen) < len(Catalogue); seed++ {
			d, err := New(base, Lab{}, seed, "", "")
			if err != nil {
				t.Fatal(err)
			}
			seen[d.Fault] = true
			if d.Class == ConfigRejected { // the fault is in istiod's push: the file is the base itself
				if d.Bootstrap != string(base) {
					t.Errorf("%s, seed %d, %s: the bootstrap was changed", file, seed, d.Fault)
				}
				continue
			}
			diff := udiff.Unified("bootstrap.yaml", "drill-bootstrap.yaml", string(base), d.Bootstrap)
			changed := 0
			for _, l := range strings.Split(diff, "\n") {
				if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") {
					changed++
				}
			}
			limit := 2 // one line out, one in
			if strings.HasPrefix(d.Fault, "no-") {
				limit = 8 // an entry's lines removed (both initial_fetch_timeouts; the HTTP/2 options)
			}
			if changed == 0 || changed > limit {
				t.Errorf("%s, seed %d, %s: %d lines changed:\n%s", file, seed, d.Fault, changed, diff)
			}
		}
		if len(seen) < len(Catalogue) {
			t.Errorf("%s: only %d faults drawn", file, len(seen))
		}
	}
}

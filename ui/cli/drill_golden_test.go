package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"ist2-boot/steps/drill"
	"ist2-boot/steps/i18n"
)

// Drills as a learner reads them on the command line, in each language, golden: a rejection an
// envoy -c would word otherwise (seed 0, classic), one in a native sidecar (10), the trick (2, native)
// and a misspelt field a sidecar only warns about (23, classic). The class and field answered right,
// then q at the fix. Read by eye when they change (go test ./ui/cli -run Golden -update).
func TestGoldenDrills(t *testing.T) {
	// A data dir as long in every run (t.TempDir's is not): the prompts are wrapped with the real
	// path in them, then it is written /WORK.
	sb := newSandbox(t, "/usr/bin:/bin")
	data := filepath.Join(sb.vars["HOME"], "d")
	data += strings.Repeat("d", max(0, 44-len(data)))
	sb.vars["XDG_DATA_HOME"], sb.work = data, filepath.Join(data, "ist2-boot", "work")
	withDrillBase(t, sb)
	for _, seed := range []string{"0", "10", "2", "23"} {
		var d drill.Drill
		if err := json.Unmarshal([]byte(sb.must(0, "drill", "--json", "--seed", seed)), &d); err != nil {
			t.Fatal(err)
		}
		class := map[drill.Class]string{drill.Rejected: "1", drill.NotReady: "2"}[d.Class]
		for _, lang := range i18n.Langs {
			t.Run(fmt.Sprintf("seed%s-%s", seed, lang), func(t *testing.T) {
				sb.vars["COLUMNS"] = "100"
				_, out, _ := sb.main(class+"\n"+d.Field+"\nq\n", "drill", "--seed", seed, "--lang", string(lang))
				golden.RequireEqual(t, []byte(strings.ReplaceAll(out, sb.work, "/WORK")))
			})
		}
	}
}

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `doctor --fixtures EMPTY` says, file by file, what the lab will miss (it used to say nothing).
func TestDoctorSaysWhichFixturesAreMissing(t *testing.T) {
	sb := newSandbox(t, pathWithout("envoy"))
	empty := t.TempDir()
	var d doctorJSON
	if err := json.Unmarshal([]byte(sb.must(0, "doctor", "--json", "--fixtures", empty)), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Files) == 0 {
		t.Fatal("no fixture files looked at")
	}
	for _, f := range d.Files {
		if f.OK || !strings.HasPrefix(f.Path, empty) || !strings.Contains(f.Problem, f.Path) {
			t.Errorf("%+v", f)
		}
	}
	text := sb.must(0, "doctor", "--lang", "zh", "--fixtures", empty)
	words := strings.Join(strings.Fields(text), "") // lines are set to the width: a word may part
	if strings.Count(text, "✗ ") < len(d.Files) || strings.Count(words, "不存在") != len(d.Files) {
		t.Errorf("doctor:\n%s", text)
	}
	if err := json.Unmarshal([]byte(sb.must(0, "doctor", "--json")), &d); err != nil {
		t.Fatal(err)
	}
	for _, f := range d.Files {
		if !f.OK {
			t.Errorf("shipped fixture reported: %+v", f)
		}
	}
}

// A mistyped --workdir is refused with the mkdir to run, and nothing is created.
func TestMistypedWorkdirIsNotCreated(t *testing.T) {
	sb := newSandbox(t, pathWithout("envoy"))
	typo := filepath.Join(t.TempDir(), "lba")
	code, _, errs := sb.main("", "check", "--lang", "ja", "--workdir", typo)
	if code != exitUsage || !strings.Contains(errs, "mkdir -p "+typo) || !strings.Contains(errs, "ディレクトリではありません") {
		t.Errorf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(typo); err == nil {
		t.Errorf("%s created", typo)
	}
}

// A relative XDG_DATA_HOME is ignored as the XDG spec says, and said so: by doctor when $HOME
// stands in, as the reason when nothing does (it used to read "not set").
func TestRelativeXDGDataHome(t *testing.T) {
	sb := newSandbox(t, pathWithout("envoy"))
	sb.vars["XDG_DATA_HOME"] = "rel"
	if out := sb.must(0, "doctor"); !strings.Contains(out, "$XDG_DATA_HOME=rel") {
		t.Errorf("doctor does not say the variable was ignored:\n%s", out)
	}
	delete(sb.vars, "HOME")
	code, _, errs := sb.main("", "check")
	if code != exitUsage || !strings.Contains(errs, "상대 경로(rel)") || strings.Contains(errs, "not set") {
		t.Errorf("exit %d: %s", code, errs)
	}
}

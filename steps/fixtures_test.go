package steps_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
)

// The files a fixtures dir must hold are read off the reference commands, and each is one the
// shipped fixtures have.
func TestFixtureNamesComeFromTheCommands(t *testing.T) {
	names := steptest.Lesson(t).FixtureNames()
	if len(names) == 0 {
		t.Fatal("no $FIXTURES/… file found in the reference commands")
	}
	for _, n := range names {
		if _, err := os.Stat(filepath.Join("..", "assets", "fixtures", n)); err != nil {
			t.Errorf("the commands read %s, which the shipped fixtures lack: %v", n, err)
		}
	}
}

// `doctor --fixtures EMPTY` used to say nothing was missing: every needed file is now looked at.
func TestCheckFixturesSaysWhatIsMissing(t *testing.T) {
	l := steptest.Lesson(t)
	shipped := steptest.Env(t, "")
	if err := shipped.Prepare(); err != nil {
		t.Fatal(err)
	}
	for _, f := range steps.CheckFixtures(l, shipped) {
		if f.Problem.Key != "" {
			t.Errorf("shipped fixture %s: %s", f.Path, f.Problem.In(i18n.Korean))
		}
	}

	empty := t.TempDir()
	env := *shipped
	env.Fixtures, env.Mesh = empty, filepath.Join(empty, "mesh-config.yaml")
	steptest.WriteFile(t, filepath.Join(empty, l.FixtureNames()[0]), " \n")
	if err := os.Mkdir(env.Mesh, 0o755); err != nil {
		t.Fatal(err)
	}
	got := steps.CheckFixtures(l, &env)
	var keys []string
	for _, f := range got {
		if !strings.HasPrefix(f.Path, empty) {
			t.Errorf("looked outside the fixtures dir: %s", f.Path)
		}
		keys = append(keys, f.Problem.Key)
	}
	wantMissing := len(l.FixtureNames()) - 1
	if slices.Contains(l.FixtureNames(), "mesh-config.yaml") {
		wantMissing-- // the mesh config is there, as a directory
	}
	if keys[0] != "reason.empty" || !slices.Contains(keys, "reason.not_regular") || count(keys, "doctor.file_missing") != wantMissing {
		t.Errorf("problems %v", keys)
	}
}

func count(xs []string, x string) int {
	n := 0
	for _, v := range xs {
		if v == x {
			n++
		}
	}
	return n
}

package steps_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"ist2-boot/steps"
	"ist2-boot/steps/steptest"
)

func TestSandboxPrepareWritesFixturesOnce(t *testing.T) {
	dir := t.TempDir()
	get := func(k string) string {
		return map[string]string{"XDG_DATA_HOME": filepath.Join(dir, "d"), "XDG_STATE_HOME": filepath.Join(dir, "s"), "HOME": dir}[k]
	}
	env, err := steps.DetectEnv(get, steps.Overrides{LabMarker: filepath.Join(dir, "no-marker")})
	if err != nil {
		t.Fatal(err)
	}
	if env.Mode != steps.SandboxMode || env.WorkDir != filepath.Join(dir, "d", "ist2-boot", "work") {
		t.Fatalf("env %+v", env)
	}
	if err := env.Prepare(); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(env.Fixtures, "inject-target.yaml")
	want := steptest.ReadFile(t, "../assets/fixtures/inject-target.yaml")
	if steptest.ReadFile(t, target) != want {
		t.Fatal("fixture not written")
	}
	steptest.WriteFile(t, target, "changed")
	if err := env.Prepare(); err != nil || steptest.ReadFile(t, target) != want {
		t.Errorf("a changed fixture is not restored: %v", err)
	}
	marker := filepath.Join(dir, "marker")
	steptest.WriteFile(t, marker, "")
	lab, _ := steps.DetectEnv(get, steps.Overrides{LabMarker: marker, WorkDir: "rel"})
	if lab.Mode != steps.LabMode || lab.Fixtures != "/opt/lab/fixtures/istio" || lab.Mesh != "/opt/istio/mesh-config.yaml" || !filepath.IsAbs(lab.WorkDir) {
		t.Errorf("lab env %+v", lab)
	}
}

// The XDG spec says a relative path in XDG_DATA_HOME is invalid and to be ignored: it is, and the
// learner is told, not told "not set".
func TestRelativeXDGIsIgnoredAndSaid(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{"XDG_DATA_HOME": "rel/data", "HOME": dir}
	get := func(k string) string { return vars[k] }
	env, err := steps.DetectEnv(get, steps.Overrides{LabMarker: filepath.Join(dir, "no-marker")})
	if err != nil {
		t.Fatal(err)
	}
	if env.DataDir != filepath.Join(dir, ".local/share/ist2-boot") || !slices.Equal(env.IgnoredVars, []string{"XDG_DATA_HOME"}) {
		t.Errorf("data dir %s, ignored %v", env.DataDir, env.IgnoredVars)
	}
	delete(vars, "HOME")
	_, err = steps.DetectEnv(get, steps.Overrides{LabMarker: filepath.Join(dir, "no-marker")})
	var nodir *steps.NoDataDirError
	if !errors.As(err, &nodir) || nodir.Var != "XDG_DATA_HOME" || nodir.Relative != "rel/data" {
		t.Errorf("err %v", err)
	}
}

// Hostile L11: a relative HOME is no home (every path, LAB_DIR too, would follow the current
// directory): refused and said, unless an absolute XDG variable gives the place.
func TestARelativeHomeIsRefused(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{"HOME": "relhome"}
	get := func(k string) string { return vars[k] }
	_, err := steps.DetectEnv(get, steps.Overrides{LabMarker: filepath.Join(dir, "no-marker")})
	var nodir *steps.NoDataDirError
	if !errors.As(err, &nodir) || nodir.RelativeHome != "relhome" {
		t.Errorf("err %v", err)
	}
	vars["XDG_DATA_HOME"], vars["XDG_STATE_HOME"] = filepath.Join(dir, "d"), filepath.Join(dir, "s")
	env, err := steps.DetectEnv(get, steps.Overrides{LabMarker: filepath.Join(dir, "no-marker")})
	if err != nil || !filepath.IsAbs(env.WorkDir) {
		t.Errorf("with absolute XDG dirs: %v, %+v", err, env)
	}
}

// A mistyped --workdir used to be created silently; only the default work dir is created.
func TestAGivenWorkDirIsNeverCreated(t *testing.T) {
	dir := t.TempDir()
	typo := filepath.Join(dir, "lba")
	env := steptest.Env(t, "")
	env.WorkDir, env.WorkDirGiven = typo, true
	var nowork *steps.NoWorkDirError
	if err := env.Prepare(); !errors.As(err, &nowork) || nowork.Path != typo {
		t.Errorf("Prepare: %v", err)
	}
	if _, err := os.Stat(typo); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s was created", typo)
	}
	env.WorkDir = dir
	if err := env.Prepare(); err != nil {
		t.Errorf("an existing --workdir refused: %v", err)
	}
}

package steps

import (
	"path/filepath"
	"testing"
)

func TestSandboxPrepareWritesFixturesOnce(t *testing.T) {
	dir := t.TempDir()
	get := func(k string) string {
		return map[string]string{"XDG_DATA_HOME": filepath.Join(dir, "d"), "XDG_STATE_HOME": filepath.Join(dir, "s"), "HOME": dir}[k]
	}
	env, err := DetectEnv(get, Overrides{LabMarker: filepath.Join(dir, "no-marker")})
	if err != nil {
		t.Fatal(err)
	}
	if env.Mode != SandboxMode || env.WorkDir != filepath.Join(dir, "d", "ist2-boot", "work") {
		t.Fatalf("env %+v", env)
	}
	if err := env.Prepare(); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(env.Fixtures, "inject-target.yaml")
	want := readFile(t, "../assets/fixtures/inject-target.yaml")
	if readFile(t, target) != want {
		t.Fatal("fixture not written")
	}
	writeFile(t, target, "changed")
	if err := env.Prepare(); err != nil || readFile(t, target) != want {
		t.Errorf("a changed fixture is not restored: %v", err)
	}
	marker := filepath.Join(dir, "marker")
	writeFile(t, marker, "")
	lab, _ := DetectEnv(get, Overrides{LabMarker: marker, WorkDir: "rel"})
	if lab.Mode != LabMode || lab.Fixtures != labFixtures || lab.Mesh != labMesh || !filepath.IsAbs(lab.WorkDir) {
		t.Errorf("lab env %+v", lab)
	}
}

package steps_test

import (
	"path/filepath"
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

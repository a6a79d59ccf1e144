package steps_test

import (
	"path/filepath"
	"testing"

	"ist2-boot/steps"
	"ist2-boot/steps/steptest"
)

// layout copies the shipped fixtures into a new dir under the names given (role var → name;
// "" leaves that part out) and returns the dir.
func layout(t *testing.T, names map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, role := range steps.FixtureRoles {
		if name := names[role.Var]; name != "" {
			steptest.WriteFile(t, filepath.Join(dir, name), steptest.ReadFile(t, filepath.Join("..", "assets", "fixtures", role.Default)))
		}
	}
	return dir
}

func resolve(t *testing.T, fixtures, mesh string) map[string]steps.FixtureStatus {
	env := steptest.Env(t, "")
	env.Fixtures, env.Mesh = fixtures, mesh
	out := map[string]steps.FixtureStatus{}
	for _, f := range steps.ResolveFixtures(env) {
		out[f.Role.Var] = f
	}
	return out
}

// The shipped names are found by name; a lab pod's own names (only the manifest's and the mesh
// config's path are promised) are found by what the files contain.
func TestFixturePartsFoundByNameOrContent(t *testing.T) {
	shipped := filepath.Join("..", "assets", "fixtures")
	for v, f := range resolve(t, shipped, filepath.Join(shipped, "mesh-config.yaml")) {
		if f.Problem.Key != "" || filepath.Dir(f.Path) != shipped {
			t.Errorf("shipped %s: %+v", v, f)
		}
	}
	dir := layout(t, map[string]string{"INJECT_TARGET": "inject-target.yaml", "INJECT_CONFIG": "sidecar-injector-template.yaml", "INJECT_VALUES": "values.json"})
	meshDir := layout(t, map[string]string{"MESH_CONFIG": "mesh.yaml"})
	steptest.WriteFile(t, filepath.Join(dir, "notes.yaml"), "just: notes\n")
	got := resolve(t, dir, filepath.Join(meshDir, "mesh.yaml"))
	want := map[string]string{"INJECT_TARGET": filepath.Join(dir, "inject-target.yaml"), "INJECT_CONFIG": filepath.Join(dir, "sidecar-injector-template.yaml"),
		"INJECT_VALUES": filepath.Join(dir, "values.json"), "MESH_CONFIG": filepath.Join(meshDir, "mesh.yaml")}
	for v, p := range want {
		if got[v].Path != p || got[v].Problem.Key != "" {
			t.Errorf("%s: %+v, want %s", v, got[v], p)
		}
	}
}

// Each part without a usable file says why, in words that name the part and the file.
func TestFixtureProblems(t *testing.T) {
	dir := layout(t, map[string]string{"INJECT_TARGET": "inject-target.yaml", "INJECT_CONFIG": "sidecar.yaml"})
	steptest.WriteFile(t, filepath.Join(dir, "inject-values.yaml"), " \n")                  // empty
	steptest.WriteFile(t, filepath.Join(dir, "mesh-config.yaml"), "kind: NotAMeshConfig\n") // plays no part
	got := resolve(t, dir, filepath.Join(dir, "mesh-config.yaml"))
	for v, key := range map[string]string{"INJECT_TARGET": "", "INJECT_CONFIG": "", "INJECT_VALUES": "reason.empty", "MESH_CONFIG": "fixture.plays_another_part"} {
		if got[v].Problem.Key != key {
			t.Errorf("%s: %+v, want problem %q", v, got[v], key)
		}
	}
	empty := resolve(t, t.TempDir(), filepath.Join(t.TempDir(), "mesh.yaml"))
	for v, f := range empty {
		if f.Problem.Key != "fixture.none" {
			t.Errorf("empty dir, %s: %+v", v, f)
		}
	}
	if msg := steps.UnusableFixture(`istioctl --valuesFile "${INJECT_VALUES}"`, []steps.FixtureStatus{got["INJECT_VALUES"]}); msg.Key != "reason.empty" {
		t.Errorf("a step reading ${INJECT_VALUES}: %+v", msg)
	}
	if msg := steps.UnusableFixture(`istioctl -f "$INJECT_TARGET"`, []steps.FixtureStatus{got["INJECT_VALUES"]}); msg.Key != "" {
		t.Errorf("a step not reading it: %+v", msg)
	}
}

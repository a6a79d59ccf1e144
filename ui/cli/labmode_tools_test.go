//go:build labtools

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A lab pod laid out as its text promises and no more: the manifest by name in the fixtures dir,
// the injection template and Helm values under names of their own, the mesh config only at its
// own path. Lab mode finds each part by content, runs the lab's commands with them and passes;
// with the values gone it says which part is missing, before running istioctl.
func TestLabModeWithTheLabsOwnLayout(t *testing.T) {
	sb := newSandbox(t, pathWithout("envoy"))
	marker := filepath.Join(sb.vars["HOME"], "no-lab") // the marker sb.main passes: present = lab mode
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	shipped := filepath.Join("..", "..", "assets", "fixtures")
	fixtures, meshDir, work := t.TempDir(), t.TempDir(), t.TempDir()
	for src, dst := range map[string]string{
		"inject-target.yaml": filepath.Join(fixtures, "inject-target.yaml"),
		"inject-config.yaml": filepath.Join(fixtures, "istio-sidecar-injector-config.yaml"),
		"inject-values.yaml": filepath.Join(fixtures, "istio-sidecar-injector-values.json"),
		"mesh-config.yaml":   filepath.Join(meshDir, "mesh-config.yaml"),
	} {
		data, err := os.ReadFile(filepath.Join(shipped, src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	flags := []string{"--fixtures", fixtures, "--mesh", filepath.Join(meshDir, "mesh-config.yaml"), "--workdir", work}

	var d doctorJSON
	if err := json.Unmarshal([]byte(sb.must(0, append([]string{"doctor", "--json"}, flags...)...)), &d); err != nil {
		t.Fatal(err)
	}
	parts := map[string]string{}
	for _, f := range d.Files {
		parts[f.Var] = filepath.Base(f.Path)
	}
	if d.Mode != "lab" || parts["INJECT_CONFIG"] != "istio-sidecar-injector-config.yaml" || parts["INJECT_VALUES"] != "istio-sidecar-injector-values.json" {
		t.Fatalf("doctor: mode %s, parts %v", d.Mode, parts)
	}
	for _, id := range []string{"args", "env", "mesh", "identity"} {
		sb.must(0, append([]string{"run", id}, flags...)...)
	}
	if out := sb.must(0, append([]string{"check", "args", "env", "mesh", "identity"}, flags...)...); strings.Count(out, "통과") < 8 {
		t.Errorf("check:\n%s", out)
	}

	if err := os.Remove(filepath.Join(fixtures, "istio-sidecar-injector-values.json")); err != nil {
		t.Fatal(err)
	}
	code, out, _ := sb.main("", append([]string{"run", "args", "--lang", "ja"}, flags...)...)
	if code == 0 || !strings.Contains(out, "--valuesFile") || !strings.Contains(out, "見つかりません") || strings.Contains(out, "istioctl kube-inject") {
		t.Errorf("run args without the values: exit %d\n%s", code, out)
	}
}

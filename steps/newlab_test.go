package steps

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The same seed, the same lab; the fixture set written parses and carries the lab's values; the
// next start (Prepare) keeps it rather than writing the embedded set back.
func TestNewLabFixtures(t *testing.T) {
	if DrawLab(9) != DrawLab(9) {
		t.Fatal("seed 9 drew two labs")
	}
	v := DrawLab(9)
	data := t.TempDir()
	env := &Env{Mode: SandboxMode, DataDir: data, WorkDir: filepath.Join(data, "work"), Fixtures: filepath.Join(data, "fixtures")}
	if err := GenerateFixtures(env.Fixtures, v); err != nil {
		t.Fatal(err)
	}
	read := func(name string) []byte {
		raw, err := os.ReadFile(filepath.Join(env.Fixtures, name))
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	var values struct {
		Global struct {
			CAAddress string `json:"caAddress"`
			Proxy     struct {
				LogLevel string `json:"logLevel"`
			} `json:"proxy"`
		} `json:"global"`
	}
	if err := json.Unmarshal(read("inject-values.yaml"), &values); err != nil || values.Global.Proxy.LogLevel != v.LogLevel || values.Global.CAAddress != v.CAAddress {
		t.Errorf("values: %v %+v", err, values)
	}
	var mesh struct {
		RootNamespace string `yaml:"rootNamespace"`
		TrustDomain   string `yaml:"trustDomain"`
	}
	if err := yaml.Unmarshal(read("mesh-config.yaml"), &mesh); err != nil || mesh.RootNamespace != v.RootNamespace || mesh.TrustDomain != v.TrustDomain {
		t.Errorf("mesh: %v %+v", err, mesh)
	}
	if target := string(read("inject-target.yaml")); !strings.Contains(target, "name: "+v.Name) || !strings.Contains(target, "namespace: "+v.Namespace) || strings.Contains(target, "payments") {
		t.Errorf("target:\n%s", target)
	}
	before := read("inject-target.yaml")
	if err := env.Prepare(); err != nil {
		t.Fatal(err)
	}
	if string(read("inject-target.yaml")) != string(before) {
		t.Error("Prepare wrote the embedded fixtures over the new lab")
	}
}

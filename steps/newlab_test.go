package steps

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"ist2-boot/content"
	"ist2-boot/steps/i18n"
)

// The same seed, the same lab; the fixture set written parses and carries the lab's values; the
// next start (Prepare) keeps it rather than writing the embedded set back.
func TestNewLabFixtures(t *testing.T) {
	if a, b := DrawLab(9), DrawLab(9); a != b {
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

// A native-sidecar lab asks for it in the Deployment's pod template, as the webhook's annotation
// does; a classic one does not. Both occur among the seeds.
func TestNewLabNativeSidecar(t *testing.T) {
	seen := map[bool]bool{}
	for seed := uint64(0); seed < 8; seed++ {
		v := DrawLab(seed)
		seen[v.Native] = true
		dir := t.TempDir()
		if err := GenerateFixtures(dir, v); err != nil {
			t.Fatal(err)
		}
		raw, _ := os.ReadFile(filepath.Join(dir, "inject-target.yaml"))
		var d struct {
			Spec struct {
				Template struct {
					Metadata struct {
						Labels      map[string]string `yaml:"labels"`
						Annotations map[string]string `yaml:"annotations"`
					} `yaml:"metadata"`
				} `yaml:"template"`
			} `yaml:"spec"`
		}
		if err := yaml.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		got := d.Spec.Template.Metadata.Annotations["sidecar.istio.io/nativeSidecar"] == "true"
		if got != v.Native || d.Spec.Template.Metadata.Labels["app"] != v.Name {
			t.Errorf("seed %d: native %v, annotated %v, labels %v", seed, v.Native, got, d.Spec.Template.Metadata.Labels)
		}
	}
	if !seen[true] || !seen[false] {
		t.Errorf("forms drawn: %v", seen)
	}
}

// B6: after new-lab every page, in every language, names the new lab's values and none of the
// first lab's: the workload, its pod and node names come from the active fixtures.
func TestPagesNameTheActiveLab(t *testing.T) {
	l, err := LoadLesson(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, seed := range []uint64{3, 7, 11} {
		v := DrawLab(seed)
		dir := t.TempDir()
		if err := GenerateFixtures(dir, v); err != nil {
			t.Fatal(err)
		}
		env := &Env{WorkDir: "/w", Fixtures: dir, Mesh: filepath.Join(dir, "mesh-config.yaml")}
		for _, lang := range i18n.Langs {
			for _, id := range l.PageIDs() {
				text, err := l.Prose(id, lang, env)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(text, "payments") || strings.Contains(text, "{{") {
					t.Errorf("seed %d %s/%s names the first lab (or a placeholder is left)", seed, id, lang)
				}
				if id == "bootstrap" && (!strings.Contains(text, v.Name+"-"+l.Params["pod_hash"]+"."+v.Namespace) || !strings.Contains(text, "`"+v.Name+"."+v.Namespace+"`")) {
					t.Errorf("seed %d %s/%s does not name %s in %s", seed, id, lang, v.Name, v.Namespace)
				}
			}
		}
	}
}

package controlplane

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"gopkg.in/yaml.v3"
)

// fixture is the parts of a bootstrap fixture the tests compare with, read as plain YAML.
type fixture struct {
	Node struct {
		ID string `yaml:"id"`
	} `yaml:"node"`
	Dynamic struct {
		ADS struct {
			APIType  string `yaml:"api_type"`
			Services []struct {
				EnvoyGrpc struct {
					Cluster string `yaml:"cluster_name"`
				} `yaml:"envoy_grpc"`
			} `yaml:"grpc_services"`
		} `yaml:"ads_config"`
	} `yaml:"dynamic_resources"`
	Static struct {
		Clusters []struct {
			Name string `yaml:"name"`
			LA   struct {
				Endpoints []struct {
					LB []struct {
						Endpoint struct {
							Address struct {
								Socket struct {
									Address string `yaml:"address"`
									Port    uint32 `yaml:"port_value"`
								} `yaml:"socket_address"`
							} `yaml:"address"`
						} `yaml:"endpoint"`
					} `yaml:"lb_endpoints"`
				} `yaml:"endpoints"`
			} `yaml:"load_assignment"`
		} `yaml:"clusters"`
	} `yaml:"static_resources"`
}

func readFixture(t *testing.T, file string) fixture {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var f fixture
	if err := yaml.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// The node, the ADS protocol and the ADS cluster are read from the learner's bootstrap, and the
// changes that point it here name that cluster's address and port.
func TestReadBootstrap(t *testing.T) {
	for _, file := range []string{"testdata/bootstrap.yaml", "testdata/bootstrap-delta.yaml"} {
		f := readFixture(t, file)
		b, err := ReadBootstrap(file)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if b.NodeID != f.Node.ID || b.APIType != f.Dynamic.ADS.APIType || b.Delta != (f.Dynamic.ADS.APIType == "DELTA_GRPC") {
			t.Errorf("%s: %+v", file, b)
		}
		if b.Cluster != f.Dynamic.ADS.Services[0].EnvoyGrpc.Cluster || b.Index < 0 || f.Static.Clusters[b.Index].Name != b.Cluster || !b.HTTP2 || b.Refused != nil {
			t.Errorf("%s: the ADS cluster: %+v", file, b)
		}
		ep := f.Static.Clusters[b.Index].LA.Endpoints[0].LB[0].Endpoint.Address.Socket
		changes := b.Changes("127.0.0.1:18000")
		if len(changes) != 2 || changes[0].From != ep.Address || changes[0].To != "127.0.0.1" ||
			changes[1].From != strconv.Itoa(int(ep.Port)) || changes[1].To != "18000" ||
			filepath.Ext(changes[0].Path) != ".address" || filepath.Ext(changes[1].Path) != ".port_value" {
			t.Errorf("%s: changes %+v", file, changes)
		}
		// Pointed here already: nothing to change.
		if again := b.Changes(ep.Address + ":" + strconv.Itoa(int(ep.Port))); len(again) != 0 {
			t.Errorf("%s: changes to where it points: %+v", file, again)
		}
	}
}

// A bootstrap that cannot name a node is refused with a message in the learner's language.
func TestReadBootstrapRefuses(t *testing.T) {
	dir := t.TempDir()
	noNode := filepath.Join(dir, "no-node.yaml")
	os.WriteFile(noNode, []byte("admin: {}\n"), 0o644)
	broken := filepath.Join(dir, "broken.yaml")
	os.WriteFile(broken, []byte("node: [\n"), 0o644)
	for file, key := range map[string]string{noNode: "cp.no_node_id", broken: "cp.bootstrap_unparsed",
		filepath.Join(dir, "missing.yaml"): "doctor.file_missing", dir: "reason.is_dir"} {
		_, err := ReadBootstrap(file)
		var be *BootstrapError
		if !errors.As(err, &be) || be.Msg.Key != key {
			t.Errorf("%s: %v, want %s", file, err, key)
		}
	}
}

// A bootstrap Envoy refuses (its ADS names a cluster it does not have) still names its node; the
// refusal and the missing cluster are said.
func TestReadBootstrapEnvoyRefuses(t *testing.T) {
	f := readFixture(t, "testdata/boot-typo.yaml")
	b, err := ReadBootstrap("testdata/boot-typo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if b.NodeID != f.Node.ID || b.Refused == nil || b.Cluster != f.Dynamic.ADS.Services[0].EnvoyGrpc.Cluster || b.Index != -1 || len(b.Changes("127.0.0.1:1")) != 0 {
		t.Errorf("%+v (refused: %v)", b, b.Refused)
	}
}

// The lab's bootstrap named relatively or through a link is the same file (ja r9 H1).
func TestSameFileWhateverItsName(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bootstrap.yaml")
	if err := os.WriteFile(file, []byte("node: {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(file, filepath.Join(dir, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if !SameFile("bootstrap.yaml", file) || !SameFile(filepath.Join(dir, "link.yaml"), file) {
		t.Error("one file under two names is not the same")
	}
	if err := os.WriteFile(filepath.Join(dir, "copy.yaml"), []byte("node: {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if SameFile("copy.yaml", file) || SameFile("missing.yaml", file) {
		t.Error("a copy or a missing file is the same")
	}
}

package drill

import (
	"strings"
	"testing"
)

// A bootstrap may list another cluster before the ADS one: the faults of the ADS cluster break
// the one the ADS config names, and the drill's words name it (fact r23 M1: the first cluster
// was broken and the pod called not Ready, while the stream's cluster was whole).
func TestFaultsBreakTheClusterADSNames(t *testing.T) {
	doc := withBefore(t, string(base(t)), "- name: xds-grpc",
		"- name: prometheus_stats",
		"  type: STATIC",
		"  connect_timeout: 1s",
		"  load_assignment:",
		"    cluster_name: prometheus_stats",
		"    endpoints:",
		"    - lb_endpoints:",
		"      - endpoint:",
		"          address:",
		"            socket_address:",
		"              address: 127.0.0.1",
		"              port_value: 15000")
	seen := map[string]bool{}
	for seed := uint64(0); seed < 300; seed++ {
		d, err := New([]byte(doc), testLab(t), seed, "", "")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(d.Field, "static_resources.clusters[") {
			continue
		}
		seen[d.Fault] = true
		if !strings.HasPrefix(d.Field, "static_resources.clusters[1].") {
			t.Errorf("seed %d (%s): broke %s, not the ADS cluster clusters[1]", seed, d.Fault, d.Field)
		}
		if d.Fault == "misspelt-field" {
			if why := d.JudgeField(d.Field).Why.In("ja"); !strings.Contains(why, "xds-grpc") {
				t.Errorf("seed %d: the words do not name the ADS cluster: %s", seed, why)
			}
		}
	}
	for _, f := range []string{"misspelt-field", "bad-enum", "discovery-wrong", "no-http2"} {
		if !seen[f] {
			t.Errorf("%s never drawn on the ADS cluster", f)
		}
	}
}

package bootcheck

import (
	"strings"
	"testing"
)

// TestConfigSources: the bootstrap's authorities are ADS sources Envoy accepts, and an ADS
// config is judged in the order Envoy builds it (names before the node).
func TestConfigSources(t *testing.T) {
	for _, c := range []struct{ file, first string }{
		{"authorities-valid.yaml", ""},
		{"sds-delta-unknown-cluster-valid.yaml", ""},
		{"ads-no-service-no-node.yaml", "API configs must have either a gRPC service or a cluster name defined"},
	} {
		r := Validate(readData(t, "testdata/configsource/"+c.file))
		switch {
		case c.first == "" && !r.OK():
			t.Errorf("%s: refused, Envoy accepts it:\n%s", c.file, r.Report(c.file))
		case c.first != "" && (r.OK() || !strings.HasPrefix(r.Problems[0].Message, c.first)):
			t.Errorf("%s: want first %q, got:\n%s", c.file, c.first, r.Report(c.file))
		}
	}
}

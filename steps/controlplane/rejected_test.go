package controlplane

import (
	"strings"
	"testing"

	"github.com/envoyproxy/go-control-plane/pkg/resource/v3"
)

// The rejected version is refused for its cluster, in Envoy's words: the CDS wrapper, the
// cluster's name, and the validator's refusal, which Refusal gives on its own.
func TestRejectedNamesTheClusterAsEnvoyDoes(t *testing.T) {
	const node = "sidecar~10.0.0.7~payments-6d5f9.default~default.svc.cluster.local"
	r, ok := Rejected(node)
	p, refused := Refusal(node)
	if !ok || !refused {
		t.Fatalf("rejected %v, refusal %v", ok, refused)
	}
	if r.TypeURL != resource.ClusterType {
		t.Errorf("type %s", r.TypeURL)
	}
	if want := "Error adding/updating cluster(s) " + ClusterName + ": " + p.Message; r.Detail != want {
		t.Errorf("detail %q, want %q", r.Detail, want)
	}
	if !strings.Contains(r.Detail, rejectedHost) {
		t.Errorf("detail %q does not name the host", r.Detail)
	}
}

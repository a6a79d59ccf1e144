package bootcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestListenerFixtures: each fixture under testdata/listener says on its first line what Envoy
// does with it: "# accept: why", or "# first: <Envoy's first error>".
func TestListenerFixtures(t *testing.T) {
	files, err := filepath.Glob("testdata/listener/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(data), "\n")
		r := Validate(data)
		switch {
		case strings.HasPrefix(first, "# accept:"):
			if !r.OK() {
				t.Errorf("%s: Envoy accepts it, the validator says %s", f, r.Problems[0])
			}
		case strings.HasPrefix(first, "# first: "):
			want := strings.TrimPrefix(first, "# first: ")
			if r.OK() || r.Problems[0].Message != want {
				t.Errorf("%s: want first %q, got %v", f, want, r.Problems)
			}
		default:
			t.Errorf("%s: its first line says neither accept nor first", f)
		}
	}
}

// TestListenerKeyOrder: a chain's transport socket sorts before its filters, the filters before
// the match, and a later listener after all of an earlier one.
func TestListenerKeyOrder(t *testing.T) {
	paths := []string{
		"static_resources.listeners[0].address.socket_address.address",
		"static_resources.listeners[0].filter_chains[0].transport_socket.typed_config",
		"static_resources.listeners[0].filter_chains[0].filters[0].typed_config",
		"static_resources.listeners[0].filter_chains[0].filters[1]",
		"static_resources.listeners[0].filter_chains[0].filter_chain_match.server_names",
		"static_resources.listeners[0].filter_chains[1]",
		"static_resources.listeners[0].default_filter_chain.filters[0]",
		"static_resources.listeners[0].internal_listener",
		"static_resources.listeners[1].name",
	}
	for i := 1; i < len(paths); i++ {
		a, b := listenerKey(paths[i-1], nil), listenerKey(paths[i], nil)
		if !less(a, b) {
			t.Errorf("%s %v should come before %s %v", paths[i-1], a, paths[i], b)
		}
	}
}

func less(a, b []int) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}

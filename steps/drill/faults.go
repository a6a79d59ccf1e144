// Package drill trains the lab's one skill: looking at a sidecar that will not start and saying
// whether Envoy rejected its bootstrap, runs without configuration, or runs connected and refuses
// what istiod pushes — and where. A drill breaks a bootstrap that passes with one fault from a
// catalogue, or keeps it and breaks one pushed resource (PushCatalogue), lets the validator (and
// Envoy, where it is installed, for the bootstrap) decide what that fault does, and judges the
// learner's answers against that evidence.
package drill

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Fault is one way to break a bootstrap. apply changes the document and returns the path of the
// field it broke; false when the bootstrap has nothing it could break that way. fixedAt, when
// set, is where a fix is compared instead of the field itself.
type Fault struct {
	ID      string
	apply   func(doc *yaml.Node, r *rand.Rand) (string, bool)
	fixedAt func(field string) string
}

// fixPath is where the fix of the fault in field is compared with the bootstrap before it.
func (f Fault) fixPath(field string) string {
	if f.fixedAt == nil {
		return field
	}
	return f.fixedAt(field)
}

// faultByID is the catalogue's fault of that id.
func faultByID(id string) (Fault, bool) {
	for _, f := range Catalogue {
		if f.ID == id {
			return f, true
		}
	}
	return Fault{}, false
}

const (
	adsCluster = "dynamic_resources.ads_config.grpc_services[0].envoy_grpc.cluster_name"
	adsVersion = "dynamic_resources.ads_config.transport_api_version"
)

// Catalogue is every fault a drill draws from. What each does to Envoy is not written here: the
// validator (or Envoy) decides it for the bootstrap at hand.
var Catalogue = []Fault{
	{"ads-cluster-typo", func(doc *yaml.Node, r *rand.Rand) (string, bool) {
		v := lookup(doc, adsCluster)
		if v == nil || len(v.Value) < 3 {
			return "", false
		}
		v.Value = misspell(v.Value, r)
		return adsCluster, true
	}, nil},
	{"transport-v2", func(doc *yaml.Node, r *rand.Rand) (string, bool) {
		return adsVersion, set(doc, adsVersion, "V2")
	}, nil},
	// A misspelt key: Envoy run by hand refuses it; a sidecar (--allow-unknown-static-fields) warns
	// and goes on without the field, so only fields whose absence a sidecar shows are drawn —
	// endpoints gone (not Ready: the stream never opens), node.cluster gone (refused by ADS). A
	// misspelt connect_timeout would only fall back to its default: no fault at all. Nor is
	// cds_config drawn: with the stream open Envoy subscribes no CDS, goes LIVE on what else
	// arrives, and pilot-agent says "config not fully received" (probe.go:80) — the pod is still
	// not Ready, but with /ready 200 LIVE and 503 probe events, not the PRE_INITIALIZING pod
	// with a closed stream that this class's model draws (ko r18 M5).
	{"misspelt-field", func(doc *yaml.Node, r *rand.Rand) (string, bool) {
		var found []string
		xds, _ := xdsCluster(doc)
		for _, p := range []string{xds + ".load_assignment", "node.cluster"} {
			if lookup(doc, p) != nil {
				found = append(found, p)
			}
		}
		if len(found) == 0 {
			return "", false
		}
		p := found[r.IntN(len(found))]
		key := keyNode(doc, p)
		key.Value = misspell(key.Value, r)
		return parent(p) + "." + key.Value, true
	}, parent}, // the misspelt key is gone once fixed: the fix is compared at what held it
	// An enum name the API does not have: in a sidecar, a warning and the field left unset — a
	// cluster without a type is STATIC, which a host name endpoint makes Envoy refuse.
	{"bad-enum", func(doc *yaml.Node, r *rand.Rand) (string, bool) {
		xds, ok := xdsCluster(doc)
		p := xds + ".type"
		v := lookup(doc, p)
		if !ok {
			return "", false
		}
		if v == nil {
			return "", false
		}
		v.Value = strings.ReplaceAll(v.Value, "_", "-") + []string{"S", "X", "_V3"}[r.IntN(3)]
		return p, true
	}, nil},
	{"static-hostname", func(doc *yaml.Node, r *rand.Rand) (string, bool) {
		xds, ok := xdsCluster(doc)
		v := lookup(doc, xds+".load_assignment.endpoints[0].lb_endpoints[0].endpoint.address.socket_address.address")
		if !ok || v == nil || !strings.ContainsAny(v.Value, "abcdefghijklmnopqrstuvwxyz") {
			return "", false // already an IP: STATIC would not break it
		}
		// The type is what is wrong: the host name is right for the DNS types.
		return xds + ".type", set(doc, xds+".type", "STATIC")
	}, nil},
	{"no-node-cluster", func(doc *yaml.Node, r *rand.Rand) (string, bool) {
		return "node.cluster", remove(doc, "node.cluster")
	}, nil},
	{"discovery-wrong", func(doc *yaml.Node, r *rand.Rand) (string, bool) {
		xds, ok := xdsCluster(doc)
		sa := xds + ".load_assignment.endpoints[0].lb_endpoints[0].endpoint.address.socket_address"
		port := lookup(doc, sa+".port_value")
		if !ok || port == nil {
			return "", false
		}
		n, err := strconv.Atoi(port.Value)
		if err != nil {
			return "", false
		}
		port.Value = strconv.Itoa(n + 1 + r.IntN(9))
		return sa + ".port_value", true
	}, nil},
	{"no-http2", func(doc *yaml.Node, r *rand.Rand) (string, bool) {
		xds, ok := xdsCluster(doc)
		if !ok {
			return "", false
		}
		p := xds + ".typed_extension_protocol_options"
		if !remove(doc, p) {
			p = xds + ".http2_protocol_options"
			return p, remove(doc, p)
		}
		return p, true
	}, nil},
	{"no-initial-fetch-timeout", func(doc *yaml.Node, r *rand.Rand) (string, bool) {
		cds := remove(doc, "dynamic_resources.cds_config.initial_fetch_timeout")
		lds := remove(doc, "dynamic_resources.lds_config.initial_fetch_timeout")
		return "dynamic_resources.cds_config.initial_fetch_timeout", cds || lds
	}, nil},
}

// xdsCluster is the path of the static cluster the ADS config names, the one a sidecar's stream
// opens on: not always the first in the list (fact r23 M1: a cluster listed before it was broken
// and the pod called not Ready). False when the bootstrap names none it has.
func xdsCluster(doc *yaml.Node) (string, bool) {
	name, clusters := lookup(doc, adsCluster), lookup(doc, "static_resources.clusters")
	if name == nil || clusters == nil || clusters.Kind != yaml.SequenceNode {
		return "", false
	}
	for i, c := range clusters.Content {
		if n := lookup(c, "name"); n != nil && n.Value == name.Value {
			return "static_resources.clusters[" + strconv.Itoa(i) + "]", true
		}
	}
	return "", false
}

// misspell drops one letter, or swaps two neighbours, away from the ends.
func misspell(s string, r *rand.Rand) string {
	b := []byte(s)
	i := 1 + r.IntN(len(b)-2)
	if r.IntN(2) == 0 && b[i] != b[i+1] {
		b[i], b[i+1] = b[i+1], b[i]
		return string(b)
	}
	return string(b[:i]) + string(b[i+1:])
}

// segments splits a field path ("a.b[0].c") into keys and list indexes.
func segments(path string) []string {
	var out []string
	for _, part := range strings.Split(path, ".") {
		name, rest, _ := strings.Cut(part, "[")
		out = append(out, name)
		for rest != "" {
			idx, after, _ := strings.Cut(rest, "]")
			out = append(out, "["+idx+"]")
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return out
}

// walk follows path from the document's root mapping; it returns the mapping holding the last key
// and the index of that key's node (-1 when absent), or the value for a list index.
func walk(doc *yaml.Node, path string) (holder *yaml.Node, at int) {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	segs := segments(path)
	for i, s := range segs {
		last := i == len(segs)-1
		if strings.HasPrefix(s, "[") {
			idx, err := strconv.Atoi(strings.Trim(s, "[]"))
			if n.Kind != yaml.SequenceNode || err != nil || idx >= len(n.Content) {
				return nil, -1
			}
			n = n.Content[idx]
			continue
		}
		if n.Kind != yaml.MappingNode {
			return nil, -1
		}
		found := -1
		for k := 0; k+1 < len(n.Content); k += 2 {
			if n.Content[k].Value == s {
				found = k
			}
		}
		if last {
			return n, found
		}
		if found < 0 {
			return nil, -1
		}
		n = n.Content[found+1]
	}
	return nil, -1
}

func lookup(doc *yaml.Node, path string) *yaml.Node {
	m, at := walk(doc, path)
	if m == nil || at < 0 {
		return nil
	}
	return m.Content[at+1]
}

func keyNode(doc *yaml.Node, path string) *yaml.Node {
	m, at := walk(doc, path)
	if m == nil || at < 0 {
		return nil
	}
	return m.Content[at]
}

// set gives path the scalar value, adding the key where its mapping has none.
func set(doc *yaml.Node, path, value string) bool {
	m, at := walk(doc, path)
	if m == nil {
		return false
	}
	if at < 0 {
		segs := segments(path)
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: segs[len(segs)-1]}, &yaml.Node{Kind: yaml.ScalarNode, Value: value})
		return true
	}
	m.Content[at+1] = &yaml.Node{Kind: yaml.ScalarNode, Value: value}
	return true
}

func remove(doc *yaml.Node, path string) bool {
	m, at := walk(doc, path)
	if m == nil || at < 0 {
		return false
	}
	m.Content = append(m.Content[:at], m.Content[at+2:]...)
	return true
}

func parent(path string) string {
	i := strings.LastIndex(path, ".")
	if i < 0 {
		return ""
	}
	return path[:i]
}

package bootcheck

import (
	"fmt"
	"sort"
	"strings"

	commondfpv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/common/dynamic_forward_proxy/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// dnsCacheChecks: the DNS caches of dynamic forward proxies are one server-wide set, by name
// (DnsCacheManagerImpl::getCache, extensions/common/dynamic_forward_proxy/
// dns_cache_manager_impl.cc:17-24): a listener's filter (HTTP, SNI, UDP session, redis) asking
// for a cache by a name already configured otherwise — by a dynamic_forward_proxy cluster, built
// before every listener, or an earlier filter — is refused. Clusters among themselves are
// dfpCacheProblem's.
func dnsCacheChecks(tree []visited, add addFunc) {
	type cache struct {
		path string
		c    *commondfpv3.DnsCacheConfig
	}
	var caches []cache
	for _, n := range tree {
		if c, ok := n.m.Interface().(*commondfpv3.DnsCacheConfig); ok {
			caches = append(caches, cache{n.path, c})
		}
	}
	if len(caches) < 2 {
		return
	}
	cluster := func(p string) bool { return strings.HasPrefix(p, "static_resources.clusters[") }
	// The clusters' first, whatever order the walk met the two lists in.
	sort.SliceStable(caches, func(i, j int) bool { return cluster(caches[i].path) && !cluster(caches[j].path) })
	first := map[string]*commondfpv3.DnsCacheConfig{}
	for _, c := range caches {
		name := c.c.GetName()
		prev, seen := first[name]
		switch {
		case !seen:
			first[name] = c.c
		case !cluster(c.path) && !equivalent(prev, c.c):
			add(stageListeners, c.path, fmt.Sprintf("config specified DNS cache '%s' with different settings", name))
			return
		}
	}
}

// equivalent is MessageDifferencer::Equivalent: equal once a field set to its default — a
// sub-message with nothing set in it among them — counts as unset.
func equivalent(a, b proto.Message) bool {
	ca, cb := proto.Clone(a), proto.Clone(b)
	dropDefaults(ca.ProtoReflect())
	dropDefaults(cb.ProtoReflect())
	return proto.Equal(ca, cb)
}

// dropDefaults clears, depth first, the singular fields of m that hold their default value.
func dropDefaults(m protoreflect.Message) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			for i := 0; i < v.List().Len(); i++ {
				dropDefaults(v.List().Get(i).Message())
			}
		case fd.IsMap() && fd.MapValue().Message() != nil:
			v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
				dropDefaults(mv.Message())
				return true
			})
		case fd.Message() != nil && !fd.IsList() && !fd.IsMap():
			dropDefaults(v.Message())
			if !hasAnyField(v.Message()) {
				m.Clear(fd)
			}
		case !fd.IsList() && !fd.IsMap() && v.Equal(fd.Default()):
			m.Clear(fd)
		}
		return true
	})
}

func hasAnyField(m protoreflect.Message) bool {
	has := false
	m.Range(func(protoreflect.FieldDescriptor, protoreflect.Value) bool { has = true; return false })
	return has
}

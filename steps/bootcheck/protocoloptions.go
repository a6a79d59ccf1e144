package bootcheck

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// A cluster's typed_extension_protocol_options are made first in ClusterInfoImpl's member
// initialisers (upstream_impl.cc:1190-1191, parseExtensionProtocolOptions :127-141): each key is
// looked up as a network filter, then an HTTP filter, then a protocol options factory
// (createProtocolOptionsConfig, :92-124). Which factories have options and take them is
// factories_gen.go, generated from Envoy's source by scripts/gen-envoy-factories.sh.

// optionsRegistries: the names a lookup finds in the network filter and HTTP filter registries.
var optionsRegistries = sync.OnceValue(func() (out struct{ network, http map[string]string }) {
	out.network, out.http = map[string]string{}, map[string]string{}
	for _, e := range stockExtensions {
		for _, c := range strings.Fields(e.categories) {
			switch c {
			case catNetworkFilter:
				out.network[e.name] = strings.Fields(e.types)[0]
			case catHTTPFilter:
				out.http[e.name] = ""
			}
		}
	}
	return out
})

// protocolOptionsProblem is the first key parseExtensionProtocolOptions refuses. Envoy walks the
// keys in its map's order, which the file does not set; with two bad keys this takes the first in
// byte order.
func protocolOptionsProblem(c *clusterv3.Cluster) (msg, where string) {
	opts := c.GetTypedExtensionProtocolOptions()
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, name := range keys {
		if msg := protocolOptionsKeyProblem(name, opts[name].GetTypeUrl(), opts[name].GetValue()); msg != "" {
			return msg, fmt.Sprintf(".typed_extension_protocol_options[%s]", name)
		}
	}
	return "", ""
}

// protocolOptionsKeyProblem: createProtocolOptionsConfig for one key.
func protocolOptionsKeyProblem(name, typeURL string, value []byte) string {
	canonical := name
	if c, ok := deprecatedFactoryNames[name]; ok { // registered under both names (registry.h:230-241)
		canonical = c
	}
	reg := optionsRegistries()
	var options string // the options proto's type; "" for a factory that has none
	typed, isNetwork := networkOptionsFactories[canonical]
	configType, registered := reg.network[canonical]
	switch {
	case registered && isNetwork:
		options = typed.options
		if options == "" { // FactoryCommon's ProtocolOptionsProto defaults to its ConfigProto
			options = configType
		}
	case registered:
	case hasKey(reg.http, canonical):
	case contains(protocolOptionsFactories, canonical):
		options = canonical
	default:
		return fmt.Sprintf("Didn't find a registered network or http filter or protocol options implementation for name: '%s'", name)
	}
	if options == "" { // ProtocolOptionsFactory::createEmptyProtocolOptionsProto (filter_config.h:157)
		return fmt.Sprintf("filter %s does not support protocol options", name)
	}
	// translateOpaqueConfig (config/utility.cc:292-345) unpacks only a non-empty Any; a Struct or
	// TypedStruct goes through JSON instead, which is not judged here. The status ends with the
	// Any's DebugString (elided).
	typ := typeURL[strings.LastIndex(typeURL, "/")+1:]
	if len(value) > 0 && typ != options && !structType(typ) {
		return fmt.Sprintf("Unable to unpack as %s: %s", options, elided)
	}
	if len(value) == 0 && typ != options && !structType(typ) {
		// downcastAndValidate on the default proto (factory_base.h:32): its own rules still apply.
		if mt, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(options)); err == nil {
			if v, ok := mt.New().Interface().(interface{ ValidateAll() error }); ok {
				if err := v.ValidateAll(); err != nil {
					if ps := (&walker{}).pgvProblems(err, ""); len(ps) > 0 {
						return ps[0].Message
					}
				}
			}
		}
	}
	if isNetwork && !typed.takes { // FactoryCommon::createProtocolOptionsTyped, with the factory's own name
		return fmt.Sprintf("filter %s does not support protocol options", canonical)
	}
	return ""
}

func structType(typ string) bool {
	return typ == "google.protobuf.Struct" || typ == "xds.type.v3.TypedStruct" || typ == "udpa.type.v1.TypedStruct"
}

func hasKey(m map[string]string, k string) bool { _, ok := m[k]; return ok }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

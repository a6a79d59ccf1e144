package bootcheck

import (
	"fmt"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// The two generated files must agree: factories_gen.go names only factories extensions_gen.go
// has, and its option types are types the API defines.
func TestFactoriesGenAgreesWithExtensions(t *testing.T) {
	reg := optionsRegistries()
	for name, f := range networkOptionsFactories {
		if _, ok := reg.network[name]; !ok {
			t.Errorf("%s has protocol options but is no stock network filter", name)
		}
		if _, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(f.options)); f.options != "" && err != nil {
			t.Errorf("%s: options type %s: %v", name, f.options, err)
		}
	}
	for _, name := range protocolOptionsFactories {
		if _, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(name)); err != nil {
			t.Errorf("protocol options factory %s: %v", name, err)
		}
	}
	for old, name := range deprecatedFactoryNames {
		if !hasKey(reg.network, name) && !hasKey(reg.http, name) && !contains(protocolOptionsFactories, name) {
			t.Errorf("deprecated name %s maps to %s, which no registry has", old, name)
		}
	}
	if len(filterStateObjectFactories) == 0 {
		t.Error("no filter state object factories")
	}
}

// Keys whose factory takes protocol options, with their own type or an empty Any, are accepted.
func TestProtocolOptionsAccepted(t *testing.T) {
	for _, o := range []struct{ key, typ, body string }{
		{"envoy.filters.network.redis_proxy", "envoy.extensions.filters.network.redis_proxy.v3.RedisProtocolOptions", "auth_username: {inline_string: u}"},
		{"envoy.filters.network.thrift_proxy", "envoy.extensions.filters.network.thrift_proxy.v3.ThriftProtocolOptions", "transport: FRAMED"},
		{"envoy.filters.network.thrift_proxy", "google.protobuf.Empty", ""},
		{"envoy.extensions.upstreams.tcp.v3.TcpProtocolOptions", "envoy.extensions.upstreams.tcp.v3.TcpProtocolOptions", "idle_timeout: 1s"},
		{"envoy.upstreams.tcp.tcp_protocol_options", "envoy.extensions.upstreams.tcp.v3.TcpProtocolOptions", "idle_timeout: 1s"},
	} {
		text := fmt.Sprintf("static_resources:\n  clusters:\n  - name: c\n    typed_extension_protocol_options:\n      %s:\n        \"@type\": type.googleapis.com/%s\n", o.key, o.typ)
		if o.body != "" {
			text += "        " + o.body + "\n"
		}
		if r := Validate([]byte(text)); !r.OK() {
			t.Errorf("%s refused: %v", o.key, r.Problems[0])
		}
	}
}

// set_filter_state finds a value's factory by factory_key, else by object_key; either names a
// stock factory here, so each value is accepted.
func TestSetFilterStateFactoriesAccepted(t *testing.T) {
	text := hcmWith(`      - name: sfs
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.http.set_filter_state.v3.Config
          on_request_headers:
          - {object_key: envoy.tcp_proxy.cluster, format_string: {text_format_source: {inline_string: c}}}
          - {object_key: my.own.key, factory_key: envoy.string, format_string: {text_format_source: {inline_string: x}}}
`)
	if r := Validate([]byte(text)); !r.OK() {
		t.Fatalf("refused: %v", r.Problems[0])
	}
}

// One bandwidth_share bucket configured twice alike is one bucket, not a refusal.
func TestBandwidthBucketSharedAlike(t *testing.T) {
	bs := `- name: bs%d
  typed_config:
    "@type": type.googleapis.com/envoy.extensions.filters.http.bandwidth_share.v3.BandwidthShare
    request_limit: {bucket_id: b, kbps: {default_value: 1, runtime_key: k}}
    fill_interval: 0.05s
`
	two := strings.TrimSuffix(fmt.Sprintf(bs, 1)+fmt.Sprintf(bs, 2), "\n")
	text := hcmWith("      " + strings.ReplaceAll(two, "\n", "\n      ") + "\n")
	if r := Validate([]byte(text)); !r.OK() {
		t.Fatalf("refused: %v", r.Problems[0])
	}
}

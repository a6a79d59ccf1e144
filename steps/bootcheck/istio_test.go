package bootcheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// istioTypeURL finds the types of Istio's own extensions a bootstrap names (TypedStruct type_url or
// Any @type): only Istio's build of Envoy has them.
var istioTypeURL = regexp.MustCompile(`"(?:type_url|@type)"\s*:\s*"type\.googleapis\.com/(istio\.[A-Za-z0-9_.]+)"`)

// Every bootstrap Istio's pilot-agent renders (copied from the pinned Istio module by
// scripts/copy-istio-bootstraps.sh) is accepted, unless it names one of Istio's own extensions:
// upstream Envoy refuses those, and so must the validator, naming the type.
func TestIstioPilotAgentBootstraps(t *testing.T) {
	files, _ := filepath.Glob("testdata/istio/*_golden.json")
	if len(files) < 20 {
		t.Fatalf("only %d Istio bootstraps; run scripts/copy-istio-bootstraps.sh", len(files))
	}
	refused := 0
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), "_golden.json"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			r := Validate(data)
			for _, w := range r.Warnings {
				if !strings.HasPrefix(w.Message, "Using deprecated option") {
					t.Errorf("warned: %s", w)
				}
			}
			own := istioTypeURL.FindSubmatch(data)
			if own == nil && strings.Contains(f, "tracing_lightstep") {
				// No tracer of stock Envoy v1.39 takes LightstepConfig (the tracer left Envoy's
				// build, source/extensions/extensions_build_config.bzl has no envoy.tracers.lightstep),
				// and Envoy looks the bootstrap's tracer up at start (configuration_impl.cc:122, :195).
				own = [][]byte{nil, []byte("envoy.config.trace.v3.LightstepConfig")}
			}
			if own == nil {
				if !r.OK() {
					t.Fatalf("refused:\n%s", r.Report(f))
				}
				return
			}
			refused++
			if r.OK() {
				t.Fatalf("accepted a bootstrap naming %s, which upstream Envoy does not have", own[1])
			}
			p := r.Problems[0]
			if !strings.Contains(p.Message, "'"+string(own[1])+"'") || (strings.HasPrefix(string(own[1]), "istio.") && !strings.Contains(p.Message, "istio-proxy")) || p.Line == 0 {
				t.Errorf("got %s", p)
			}
		})
	}
	if refused == len(files) {
		t.Error("every Istio bootstrap was refused")
	}
}

// A TypedStruct naming a type no extension takes is refused when Envoy looks the extension up,
// in Envoy's words, naming the extension.
func TestTypedStructOfAnUnknownType(t *testing.T) {
	text := reference(t) + `bootstrap_extensions:
- name: my.extension
  typed_config:
    "@type": type.googleapis.com/udpa.type.v1.TypedStruct
    type_url: type.googleapis.com/envoy.extensions.bootstrap.internal_listener.v3.InternalListenr
    value: {}
`
	r := Validate([]byte(text))
	want := "Didn't find a registered implementation for 'my.extension' with type URL: 'envoy.extensions.bootstrap.internal_listener.v3.InternalListenr'"
	if r.OK() || r.Problems[0].Message != want || r.Problems[0].Line != lineOf(text, "type_url:") ||
		r.Problems[0].Hint != "type.googleapis.com/envoy.extensions.bootstrap.internal_listener.v3.InternalListener" {
		t.Fatalf("%+v", r.Problems)
	}
}

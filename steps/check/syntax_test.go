package check

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"ist2-boot/steps/i18n"
)

// A file the parser cannot read is said in the learner's words: the line, what is wrong, the
// parser's English only as the original (zh r11 H1 H2, ja r11 H1, ko r11 H2) and no Go type name.
func TestUnreadableFilesInTheLearnersWords(t *testing.T) {
	yamlCases := map[string]string{
		"unclosed list": "a: [1, 2\nb: 3\n",
		"two colons":    "node:\n  cluster: payments.default: x\n",
		"tab":           "node:\n\tid: x\n",
	}
	for name, text := range yamlCases {
		var v any
		err := yaml.Unmarshal([]byte(text), &v)
		if err == nil {
			t.Fatalf("%s: parsed", name)
		}
		m := unreadableYAML("bootstrap.yaml", err, text)
		if m.Key != "reason.bad_yaml_at" || m.Args["line"] == "" {
			t.Errorf("%s: %+v", name, m)
		}
		for _, lang := range i18n.Langs {
			said := m.In(lang)
			if strings.Contains(said, "yaml: line") || !strings.Contains(said, m.Args["original"]) {
				t.Errorf("%s %s: %q", name, lang, said)
			}
			if before, _, _ := strings.Cut(said, m.Args["original"]); before == "" || strings.Contains(strings.ToLower(before), "yaml syntax") {
				t.Errorf("%s %s: no words of ours before the original: %q", name, lang, said)
			}
		}
	}
	jsonCases := map[string]struct{ text, kind string }{
		"a list":    {"[1]", "json.top_kind"},
		"a string":  {`"x"`, "json.top_kind"},
		"cut short": {`{"id": "x",`, "json.truncated"},
		"yaml":      {"id: x", "json.syntax"},
	}
	for name, c := range jsonCases {
		var got map[string]any
		err := json.Unmarshal([]byte(c.text), &got)
		m := unreadableJSON("06-node.json", err, []byte(c.text))
		if m.Args["error"] != i18n.Ref(c.kind) {
			t.Errorf("%s: %+v, want %s", name, m, c.kind)
		}
		for _, lang := range i18n.Langs {
			said := m.In(lang)
			if strings.Contains(said, "Go value") || strings.Contains(said, "interface {}") || strings.Contains(said, "{kind}") {
				t.Errorf("%s %s: %q", name, lang, said)
			}
		}
	}
}

// ko r18 H1: a tab deep in a file is named at its own line, the line validate names — not the
// line before it, where yaml.v3 reports it.
func TestATabErrorNamesTheTabsLine(t *testing.T) {
	for _, text := range []string{
		"admin:\n  address:\n    socket_address:\n      address: 127.0.0.1\nnode:\n  id: x\n  cluster: y\n\tmetadata: {}\n",
		"node:\n  id: x\n  cluster: y\n  metadata:\n\t  A: b\n",
	} {
		var v any
		err := yaml.Unmarshal([]byte(text), &v)
		if err == nil {
			t.Fatalf("parsed: %q", text)
		}
		want := 0
		for i, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(strings.TrimLeft(l, " "), "\t") && want == 0 {
				want = i + 1
			}
		}
		m := unreadableYAML("bootstrap.yaml", err, text)
		if m.Args["line"] != strconv.Itoa(want) {
			t.Errorf("%q: line %s, want %d (%v)", text, m.Args["line"], want, err)
		}
	}
}

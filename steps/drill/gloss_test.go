package drill

import (
	"strings"
	"testing"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"

	"ist2-boot/content"
	"ist2-boot/steps/i18n"
)

// The field verdict says what the field is in the learner's language, from the glossary: the
// line of the term the field's name or its value before the fault is, in every language.
func TestFieldVerdictGlossesTheField(t *testing.T) {
	terms, err := i18n.LoadGlossary(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	line := func(term string, lang i18n.Lang) string {
		for _, x := range terms {
			if x.Term == term {
				return strings.TrimSpace(x.In(lang))
			}
		}
		t.Fatalf("the glossary has no %s", term)
		return ""
	}
	for fault, term := range map[string]string{"no-initial-fetch-timeout": "initial_fetch_timeout", "no-http2": "http2_protocol_options", "bad-enum": "STRICT_DNS"} {
		d := drillOf(t, base(t), fault)
		for _, lang := range i18n.Langs {
			why := d.JudgeField(d.Field).Why.In(lang)
			if !strings.Contains(why, line(term, lang)) || placeholder.MatchString(why) {
				t.Errorf("%s %s: no gloss of %s in %q", fault, lang, term, why)
			}
		}
	}
	// A cluster type a sidecar drops falls back to the API's default, read from its descriptor.
	d := drillOf(t, base(t), "bad-enum")
	if why := d.JudgeField("x").Why.In(i18n.Chinese); !strings.Contains(why, "默认值 "+clusterv3.Cluster_STATIC.String()) {
		t.Errorf("bad-enum: the default is not said: %s", why)
	}
}

// zh C5: the fault removes both subscriptions' initial_fetch_timeout; the verdict names both, and
// either is a right answer.
func TestBothRemovedFieldsNamed(t *testing.T) {
	d := drillOf(t, base(t), "no-initial-fetch-timeout")
	also := d.alsoRemoved()
	if len(also) != 1 || also[0] == d.Field || !strings.HasSuffix(also[0], ".initial_fetch_timeout") {
		t.Fatalf("removed with %s: %v", d.Field, also)
	}
	v := d.JudgeField(also[0])
	if !v.Right {
		t.Errorf("%s refused", also[0])
	}
	for _, lang := range i18n.Langs {
		if why := v.Why.In(lang); !strings.Contains(why, d.Field) || !strings.Contains(why, also[0]) {
			t.Errorf("%s: %s", lang, why)
		}
	}
	if other := drillOf(t, base(t), "no-node-cluster"); other.alsoRemoved() != nil {
		t.Errorf("no-node-cluster removed more: %v", other.alsoRemoved())
	}
}

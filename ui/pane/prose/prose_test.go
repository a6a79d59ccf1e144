package prose

import (
	"strconv"
	"testing"

	"ist2-boot/steps/i18n"
)

// D16: the renderings kept are bounded, whatever widths a resizing terminal passes through, and
// the one shown is never dropped.
func TestRenderingsAreBounded(t *testing.T) {
	p := New()
	p.SetSize(80, 20)
	shown := Key{Page: "intro", Lang: i18n.Korean, Width: 80}
	if err := p.Rendered(RenderedMsg{key: shown, text: "shown"}, shown); err != nil {
		t.Fatal(err)
	}
	for w := 60; w < 60+3*maxRendered; w++ {
		k := Key{Page: "intro", Lang: i18n.Korean, Width: w, Extra: strconv.Itoa(w)}
		if err := p.Rendered(RenderedMsg{key: k, text: "text"}, shown); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(p.cache); n > maxRendered || len(p.order) != n {
		t.Errorf("%d renderings kept (order %d), bound %d", n, len(p.order), maxRendered)
	}
	if _, ok := p.cache[p.Shown()]; !ok || p.Shown() != shown {
		t.Error("the rendering shown was dropped")
	}
}

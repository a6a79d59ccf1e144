package ui

import (
	"slices"
	"testing"

	drillpage "ist2-boot/ui/page/drill"
)

// The page list is the lesson's pages in its order, then the drill page; each page is served by
// one kind, and the open page's own messages reach it by id alone.
func TestEveryPageHasItsKind(t *testing.T) {
	m := New(testEngine(t))
	want := append(m.Eng.Lesson.PageIDs(), drillpage.ID)
	if !slices.Equal(m.nav.pages, want) {
		t.Fatalf("pages %v, want %v", m.nav.pages, want)
	}
	for _, id := range m.nav.pages {
		if i := m.kindOf(id); i < 0 || m.pageTitle(id) == "" {
			t.Errorf("%s: kind %d, title %q", id, i, m.pageTitle(id))
		}
	}
	if m.kindOf("no-such-page") >= 0 {
		t.Error("a kind owns a page that does not exist")
	}
}

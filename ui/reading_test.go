package ui

import (
	"strings"
	"testing"

	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
	"ist2-boot/ui/pane/prose"
)

// Newcomer L8: each h opens the page at the hint it revealed — the last one too, though the
// reference commands it unfolds come after it — in every language, at 80×24.
func TestEachHintOpensWhereItIs(t *testing.T) {
	for _, lang := range i18n.Langs {
		eng := testEngine(t)
		m := sized(t, eng, 80, 24)
		for m.Lang != lang {
			m = press(t, m, "l")
		}
		m = press(t, m, "n", "n", "n")
		sec, _ := eng.Lesson.Section(m.pageID())
		for n := 1; n <= len(sec.Hints); n++ {
			m = press(t, m, "h")
			line, ok := prose.FindHint(m.prose.Viewport().GetContent(), i18n.T(lang, "hints.title", nil), n)
			if top := m.prose.Viewport().YOffset(); !ok || line < top || line >= top+m.prose.Viewport().Height() {
				t.Errorf("%s, hint %d at line %d (found %v); the pane shows %d–%d", lang, n, line, ok, top, top+m.prose.Viewport().Height())
			}
		}
	}
}

// Newcomer L9: a restart opens the page where it was left, however often — not a little higher
// each time (the first rendering, before the states arrive, had the commands folded).
func TestARestartOpensWhereThePageWasLeft(t *testing.T) {
	eng := testEngine(t)
	steptest.CopyAnswers(t, eng.Env)
	m := sized(t, eng, 80, 24)
	for m.pageID() != "bootstrap" {
		m = press(t, m, "n")
	}
	m = press(t, m, "pgdown", "pgdown")
	want := m.prose.Viewport().YOffset()
	if want == 0 {
		t.Fatal("the page did not scroll")
	}
	for i := range 3 {
		press(t, m, "q")
		m = sized(t, eng, 80, 24)
		if m.pageID() != "bootstrap" || m.prose.Viewport().YOffset() != want {
			t.Fatalf("restart %d: page %s at line %d, left at %d", i+1, m.pageID(), m.prose.Viewport().YOffset(), want)
		}
	}
}

// Newcomer L7: at 80×24 the list is one line; moved off the open page, it says that enter opens
// the page it shows, so it is not read as the page open.
func TestTheOneLineListSaysItIsNotTheOpenPage(t *testing.T) {
	m := sized(t, testEngine(t), 80, 24)
	m = press(t, m, "l", "n", "n", "n", "tab") // zh, section 3, the list focused
	for m.nav.focus != focusList {
		m = press(t, m, "tab")
	}
	m = press(t, m, "g")
	if m.nav.cursor == m.nav.page {
		t.Fatal("g did not move the list's cursor")
	}
	if s := screenText(m); !strings.Contains(s, "（按 enter 打开）") {
		t.Errorf("the one-line list does not say so:\n%s", s)
	}
	checkFits(t, m)
}

// Issue 32: the glossary closes with esc, and its key line says so.
func TestTheGlossaryClosesWithEsc(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	m = press(t, m, "t")
	if m.nav.view != viewGlossary {
		t.Fatal("t did not open the glossary")
	}
	if line := xansi.Strip(m.keyLine()); !strings.Contains(line, "esc "+i18n.T(m.Lang, "keys.close", nil)) {
		t.Errorf("the key line does not say esc closes: %q", line)
	}
	m = press(t, m, "esc")
	if m.nav.view == viewGlossary {
		t.Error("esc did not close the glossary")
	}
}

// Issue 32 (B5, M23): at 120×40 the page list shows every page's short title whole, in each
// language, whatever its state.
func TestThePageListShowsShortTitlesWhole(t *testing.T) {
	for _, lang := range i18n.Langs {
		m := sized(t, testEngine(t), 120, 40)
		for m.Lang != lang {
			m = press(t, m, "l")
		}
		for i := range m.nav.pages {
			line := xansi.Strip(m.nav.listItem(m.Common, m.pageTitle, i, m.geometry().listW-2, false))
			if strings.Contains(line, "…") {
				t.Errorf("%s: %q is cut", lang, line)
			}
		}
	}
}

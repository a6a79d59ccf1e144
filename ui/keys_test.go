package ui

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps/i18n"
)

// Every binding is documented once, and no key is bound twice in a state where both could fire
// (n is Next on a page and No in a question; ctrl+c is Cancel while a run goes and Quit otherwise).
func TestKeysAreDocumentedAndNeverCollide(t *testing.T) {
	k := newKeyMap()
	v := reflect.ValueOf(k)
	var fields []key.Binding
	for i := range v.NumField() {
		fields = append(fields, v.Field(i).Interface().(key.Binding))
	}
	if len(keyDocs) != len(fields) {
		t.Errorf("%d bindings, %d documented", len(fields), len(keyDocs))
	}
	for i, d := range keyDocs {
		b := d.of(k)
		for j, other := range keyDocs[:i] {
			// The same keys may be two bindings (the drill page's c is not the section's c);
			// the same keys with the same help is one binding documented twice.
			if slices.Equal(other.of(k).Keys(), b.Keys()) && other.of(k).Help() == b.Help() {
				t.Errorf("keyDocs %d and %d document the same binding %v", j, i, b.Keys())
			}
		}
		if len(d.states) == 0 {
			t.Errorf("binding %v fires nowhere", b.Keys())
		}
	}
	for _, st := range keyStates {
		owner := map[string][]string{}
		for _, d := range keyDocs {
			if !slices.Contains(d.states, st) {
				continue
			}
			b := d.of(k)
			for _, key := range b.Keys() {
				owner[key] = append(owner[key], b.Keys()[0])
			}
		}
		for key, bindings := range owner {
			if len(bindings) > 1 {
				t.Errorf("state %d: %q fires %v", st, key, bindings)
			}
		}
	}
}

// The help screen lists every binding that has help, each with a catalog description.
func TestHelpRowsComeFromTheBindings(t *testing.T) {
	rows := newKeyMap().helpRows()
	if len(rows) < 10 {
		t.Fatalf("only %d help rows", len(rows))
	}
	for _, r := range rows {
		if r[0] == "" || r[1] == "" {
			t.Errorf("row %q", r)
		}
	}
}

// The key line at 60 and 80 columns, in every language and state, keeps ? and q (or close):
// items are dropped whole from the middle, never the end cut off.
func TestKeyLineKeepsHelpAndQuit(t *testing.T) {
	for _, lang := range i18n.Langs {
		for _, width := range []int{60, 80} {
			m := sized(t, testEngine(t), width, 24)
			m.lang = lang
			line := xansi.Strip(m.keyLine())
			if !strings.Contains(line, "? "+i18n.T(lang, "keys.help", nil)) || !strings.Contains(line, "q "+i18n.T(lang, "keys.quit", nil)) || xansi.StringWidth(line) > width {
				t.Errorf("%s at %d: %q", lang, width, line)
			}
		}
	}
}

// The help screen at 60×20 keeps its two columns (a description wraps beside its keys, never to
// column 0) and scrolls to its last row; it lists the drill page's keys.
func TestHelpScrollsAndKeepsItsColumns(t *testing.T) {
	m := sized(t, testEngine(t), 60, 20)
	m.lang = i18n.Japanese
	m = press(t, m, "?")
	if m.overlay != overlayHelp {
		t.Fatal("? did not open the help")
	}
	body := strings.Join(m.help.lines[2:], "\n")
	for _, l := range m.help.lines[2:] {
		if l != "" && !strings.HasPrefix(l, " ") {
			t.Errorf("a help line starts at column 0: %q", l)
		}
	}
	if !strings.Contains(body, "1 / 2") || !strings.Contains(body, "1–4") {
		t.Errorf("the drill keys are not listed:\n%s", body)
	}
	last := m.help.lines[len(m.help.lines)-1]
	for range 40 {
		m = press(t, m, "down")
	}
	if s := xansi.Strip(m.View().Content); !strings.Contains(s, strings.TrimSpace(last)) {
		t.Errorf("the last row %q is not reachable:\n%s", last, s)
	}
	m = press(t, m, "esc")
	if m.overlay != overlayNone {
		t.Error("esc did not close the help")
	}
}

// Esc closes the tools page, back to the page that was being read.
func TestEscClosesTheToolsPage(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	m = press(t, m, "n", "D")
	if m.view != viewTools || m.keyState() != stateTools {
		t.Fatalf("D: view %v", m.view)
	}
	m = press(t, m, "esc")
	if m.view != viewPage || m.pageID() != "args" {
		t.Errorf("esc: view %v on %s", m.view, m.pageID())
	}
}

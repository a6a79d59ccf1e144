package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"ist2-boot/steps/run"
	"ist2-boot/ui/task"

	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
)

// keyStates drives the tutorial into every state a key can be read in: a page with each pane
// focused, a section, a run going on, its question, the help screen, the diff view, the tools
// page, the finish page, the glossary, and the drill page at each of its questions.
func keyStates(t *testing.T) map[string]Model {
	t.Helper()
	states := map[string]Model{}
	m := goldenModel(t, i18n.Korean, 100, 30)
	states["intro"] = m
	states["output focused"] = press(t, m, "tab")
	states["list focused"] = press(t, m, "tab", "tab")
	states["section"] = press(t, m, "n")
	// The run's question needs the section's tools: found here whatever this machine has (the
	// code review's D1: without istioctl, r only says it is missing).
	// r looks the tools up, then asks: the lookup's answer is given, every tool found.
	section := press(t, m, "n")
	var found steps.Tools
	for _, spec := range section.Eng.Lesson.Tools {
		found = append(found, steps.ToolStatus{Name: spec.Name, Found: true, Path: "/stub/" + spec.Name})
	}
	asked, cmd := section.Update(toolsLocatedMsg{tools: found, then: "run"})
	states["question"] = drain(t, asked.(Model), cmd)
	states["help"] = press(t, m, "n", "?")
	states["diff"] = press(t, m, "n", "d")
	states["tools page"] = press(t, m, "n", "D")
	states["glossary"] = press(t, m, "n", "t")
	running := press(t, m, "n")
	running.runner.task, running.runner.section = task.New[run.Line, run.RunResult](time.Second), "args"
	running.syncKeys()
	states["running"] = running
	_, d := onDrillPage(t)
	states["finish"] = press(t, d, "p")
	states["drill: class"] = d
	dr := drillOf(d).Round().Drill
	class := press(t, d, classKey(dr.Class))
	states["drill: field"] = class
	states["drill: fix"] = press(t, class, string(rune('1'+slices.Index(dr.FieldChoices(), dr.Field))))
	for name, st := range states {
		if name != "running" && st.status.message.Key == "ui.check_first" {
			t.Fatalf("%s: not reached (%s)", name, st.status.message.Key)
		}
	}
	for name, reached := range map[string]bool{"the diff view": states["diff"].overlay == overlayDiff,
		"the help screen": states["help"].overlay == overlayHelp, "the run's question": states["question"].status.question == askRun} {
		if !reached {
			t.Fatalf("%s was not reached", name)
		}
	}
	return states
}

// No key fires two bindings in any state (n is Next on a page and No in a question; ctrl+c is
// Cancel while a run goes and Quit otherwise), every binding fires in some state, and the help
// screen lists each documented binding once.
func TestKeysNeverCollideAndEachFiresSomewhere(t *testing.T) {
	fired := map[int]bool{} // by place in bindings(), the same in every model
	for name, m := range keyStates(t) {
		owner := map[string]string{}
		for _, b := range m.bindings() {
			if !b.Enabled() {
				continue
			}
			for _, k := range b.Keys() {
				if other, ok := owner[k]; ok {
					t.Errorf("%s: %q fires %s and %s", name, k, other, b.Keys()[0])
				}
				owner[k] = b.Keys()[0]
			}
		}
		for i, b := range m.bindings() {
			if b.Enabled() {
				fired[i] = true
			}
		}
		if len(owner) == 0 {
			t.Errorf("%s: no key fires", name)
		}
	}
	ref := New(testEngine(t))
	for i, b := range ref.bindings() {
		if !fired[i] {
			t.Errorf("binding %v (%s) fires in no state", b.Keys(), b.Help().Desc)
		}
	}
}

// The help screen lists every binding that has help once, each with a catalog description; the
// drill page's keys among them.
func TestHelpRowsComeFromTheBindings(t *testing.T) {
	rows := New(testEngine(t)).helpRows()
	if len(rows) < 10 {
		t.Fatalf("only %d help rows", len(rows))
	}
	seen := map[[2]string]bool{}
	for _, r := range rows {
		if r[0] == "" || r[1] == "" || seen[r] {
			t.Errorf("row %q", r)
		}
		seen[r] = true
	}
}

// The key line at 60 and 80 columns, in every language and state, keeps ? and q (or close):
// items are dropped whole from the middle, never the end cut off.
func TestKeyLineKeepsHelpAndQuit(t *testing.T) {
	for _, lang := range i18n.Langs {
		for _, width := range []int{60, 80} {
			m := sized(t, testEngine(t), width, 24)
			m.Lang = lang
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
	m.Lang = i18n.Japanese
	m = press(t, m, "?")
	if m.overlay != overlayHelp {
		t.Fatal("? did not open the help")
	}
	body := strings.Join(m.help.Lines()[2:], "\n")
	for _, l := range m.help.Lines()[2:] {
		if l != "" && !strings.HasPrefix(l, " ") {
			t.Errorf("a help line starts at column 0: %q", l)
		}
	}
	if !strings.Contains(body, "1/2") || !strings.Contains(body, "1/2/3/4") {
		t.Errorf("the drill keys are not listed:\n%s", body)
	}
	last := m.help.Lines()[len(m.help.Lines())-1]
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
	if m.nav.view != viewTools || !m.toolsPage.Back().Enabled() {
		t.Fatalf("D: view %v", m.nav.view)
	}
	m = press(t, m, "esc")
	if m.nav.view != viewPage || m.pageID() != "args" {
		t.Errorf("esc: view %v on %s", m.nav.view, m.pageID())
	}
}

// q closes the glossary and the tools page, as it closes the help: it does not leave the
// tutorial from them (ko r7 M11).
func TestQClosesTheGlossaryAndTheToolsPage(t *testing.T) {
	for _, open := range []string{"t", "D"} {
		m := sized(t, testEngine(t), 100, 30)
		m = press(t, m, "n", open)
		if m.nav.view == viewPage {
			t.Fatalf("%s opened nothing", open)
		}
		m = press(t, m, "q")
		if m.nav.view != viewPage || m.session.quitting || m.status.asking() {
			t.Errorf("%s then q: view %v, quitting %v", open, m.nav.view, m.session.quitting)
		}
	}
}

package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"ist2-boot/ui/page/tools"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/drill"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
)

// goldenModel is the tutorial at a fixed size and language, with the lab pod's paths shown and
// section states from a work dir holding inject.yaml and a wrong 01-args.txt, where no tool is
// installed: every frame is the same on every machine.
func goldenModel(t *testing.T, lang i18n.Lang, w, h int) Model {
	t.Helper()
	eng := testEngine(t)
	work := eng.Env
	judge := *work
	judge.Getenv = func(k string) string {
		if k == "PATH" {
			return t.TempDir() // no tools: absent files are needs-tool everywhere
		}
		return os.Getenv(k)
	}
	inject, err := os.ReadFile("../steps/testdata/answers/inject.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"inject.yaml": string(inject), "01-args.txt": "role=router\ndomain=$(POD_NAMESPACE).svc.cluster.local\nproxy_log_level=warning\n"} {
		if err := os.WriteFile(filepath.Join(work.WorkDir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	results, err := check.Check(eng.Lesson, &judge, nil)
	if err != nil {
		t.Fatal(err)
	}
	shown := &steps.Env{Mode: steps.LabMode, WorkDir: "/root/ist2-boot", Fixtures: "/opt/lab/fixtures/istio", Mesh: "/opt/istio/mesh-config.yaml",
		ToolsDir: "/root/.local/share/ist2-boot/bin", Getenv: os.Getenv}
	eng.Env, eng.Lang = shown, lang
	m := New(eng)
	checkedAt := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	p := &progress.Progress{Version: 1, Sections: map[string]*progress.SectionProgress{"args": {Status: check.Fail, Attempts: 2, FirstCheck: checkedAt, LastCheck: checkedAt}}}
	// The tools as this machine has them: opening a page looks them up again and finds no change
	// (a change would re-judge every section in the shown, made-up lab-mode paths).
	nm, cmd := m.Update(startedMsg{progress: p, results: results, tools: steps.LocateTools(shown, eng.Lesson.Tools)})
	m = drain(t, nm.(Model), cmd)
	nm, cmd = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return drain(t, nm.(Model), cmd)
}

// Golden frames, colours stripped: the intro, a section, the diff view and the help screen, in each language, at
// 60×20, 80×24 and 120×40. `go test ./ui -update` rewrites them.
func TestGoldenFrames(t *testing.T) {
	for _, size := range [][2]int{{60, 20}, {80, 24}, {120, 40}} {
		for _, lang := range i18n.Langs {
			for _, view := range []string{"intro", "section", "diff", "help"} {
				name := fmt.Sprintf("%s-%s-%dx%d", view, lang, size[0], size[1])
				t.Run(name, func(t *testing.T) {
					m := goldenModel(t, lang, size[0], size[1])
					switch view {
					case "section":
						m = press(t, m, "n")
					case "help":
						m = press(t, m, "n", "?")
					case "diff":
						m = press(t, m, "n", "d")
						if m.overlay != overlayDiff {
							t.Fatal("diff view did not open")
						}
					}
					checkFits(t, m)
					golden.RequireEqual(t, []byte(xansi.Strip(m.View().Content)))
				})
			}
		}
	}
}

// The tools page in each language, with a fixed set of fixture files and tools found and missing.
func TestGoldenDoctor(t *testing.T) {
	found := steps.Tools{
		{Name: "istioctl", Found: true, Path: "/root/.local/share/ist2-boot/bin/istioctl", Version: "istio.io/istio v0.0.0-20260827124520-eed52ebb66ad"},
		{Name: "yq", Found: true, Path: "/root/.local/share/ist2-boot/bin/yq", Version: "yq (https://github.com/mikefarah/yq/) version v4.54.3"},
		{Name: "jq", Found: true, Path: "/usr/bin/jq", Version: "jq-1.6"},
		{Name: "curl"},
		{Name: "envoy"},
	}
	fixtures := []steps.FixtureStatus{
		{Role: steps.FixtureRoles[0], Path: "/opt/lab/fixtures/istio/inject-target.yaml"},
		{Role: steps.FixtureRoles[1], Path: "/opt/lab/fixtures/istio/sidecar-injector.yaml"},
		{Role: steps.FixtureRoles[3], Path: "/opt/istio/mesh-config.yaml", Problem: i18n.M("fixture.none", "part", i18n.Ref(steps.FixtureRoles[3].Name),
			"file", "/opt/istio/mesh-config.yaml", "dir", "/opt/lab/fixtures/istio")},
	}
	for _, lang := range i18n.Langs {
		t.Run(fmt.Sprintf("doctor-%s-100x30", lang), func(t *testing.T) {
			m := goldenModel(t, lang, 100, 30)
			m = press(t, m, "D")
			nm, cmd := m.Update(tools.FoundMsg{Tools: found, Fixtures: fixtures})
			m = drain(t, nm.(Model), cmd)
			checkFits(t, m)
			golden.RequireEqual(t, []byte(xansi.Strip(m.View().Content)))
		})
	}
}

// Golden frames of the pages the page breaker alone did not reach before: the finish page with
// its review and the drill page (a fixed drill, answered up to the fix), in each language at 80×24
// and 60×20.
func TestGoldenReviewAndDrill(t *testing.T) {
	base, err := os.ReadFile("../steps/testdata/answers/bootstrap.yaml")
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile("../steps/testdata/answers/inject.yaml")
	if err != nil {
		t.Fatal(err)
	}
	lab, err := drill.LabFromManifest(manifest)
	if err != nil {
		t.Fatal(err)
	}
	d, err := drill.New(base, lab, 3, "", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{60, 20}, {80, 24}} {
		for _, lang := range i18n.Langs {
			for _, page := range []string{"finish", "drill"} {
				t.Run(fmt.Sprintf("%s-%s-%dx%d", page, lang, size[0], size[1]), func(t *testing.T) {
					m := goldenModel(t, lang, size[0], size[1])
					// The drill is set before the page opens: no drill is drawn from the shown paths.
					m = withDrill(m, drill.NewRound(d))
					for m.pageID() != page {
						m = press(t, m, "n")
					}
					if page == "drill" {
						m = press(t, m, classKey(d.Class))
					}
					checkFits(t, m)
					golden.RequireEqual(t, []byte(xansi.Strip(m.View().Content)))
				})
			}
		}
	}
}

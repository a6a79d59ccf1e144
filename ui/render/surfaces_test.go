package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/drill"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/steps/steptest"
)

// surfacePages are the pages the tutorial makes itself, beside the lesson's: the finish page's
// review (every state, attempts, hints, a pass and the drill record) and the drill page for a few
// drills at each stage of the round, right and wrong.
func surfacePages(t *testing.T, lesson *steps.Lesson, lang i18n.Lang) map[string]string {
	t.Helper()
	at := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	states := map[string]check.SectionResult{}
	p := &progress.Progress{Sections: map[string]*progress.SectionProgress{}, Drills: progress.DrillRecord{Done: 7, Right: 5}}
	statuses := []check.Status{check.Pass, check.Fail, check.Missing, check.NeedsTool}
	for i, id := range lesson.SectionIDs() {
		st := statuses[i%len(statuses)]
		states[id] = check.SectionResult{ID: id, Status: st}
		if i == 6 { // partly done: one file passed, another missing
			states[id] = check.SectionResult{ID: id, Status: st, Files: []check.FileResult{{Status: check.Pass}, {Status: check.Missing}}}
		}
		p.Sections[id] = &progress.SectionProgress{Status: st, Attempts: i, HintsUsed: i % 4, Opened: at, FirstCheck: at, LastCheck: at.Add(time.Duration(i) * time.Minute), Passed: at.Add(time.Duration(i) * time.Minute), FirstTime: i%2 == 0}
	}
	pages := map[string]string{"review": ReviewList(progress.MakeReview(lesson.SectionIDs(), states, p), lesson, lang)}
	base, err := os.ReadFile(filepath.Join(steptest.AnswersDir(), "bootstrap.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile(filepath.Join(steptest.AnswersDir(), "inject.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	lab, err := drill.LabFromManifest(manifest)
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(0); seed < 6; seed++ {
		d, err := drill.New(base, lab, seed, "", "")
		if err != nil {
			t.Fatal(err)
		}
		r := drill.NewRound(d)
		pages["drill-class-"+d.Fault] = DrillPage(r, lang, sandboxEnv.WorkDir+"/"+drill.File, nil)
		r.AnswerClass(d.Class)
		pages["drill-field-"+d.Fault] = DrillPage(r, lang, sandboxEnv.WorkDir+"/"+drill.File, nil)
		r.AnswerField("metadata") // wrong, most often
		fix := d.JudgeFix([]byte(d.Bootstrap))
		r.Fix = &fix
		pages["drill-fix-"+d.Fault] = DrillPage(r, lang, sandboxEnv.WorkDir+"/"+drill.File, &p.Drills)
	}
	return pages
}

// The help screen's two columns at 80 and 60 columns in each language: the keys in their column,
// every description wrapped beside them (never at column 0) and set by the same rules as a page.
func TestHelpColumnsAreTypeset(t *testing.T) {
	keys, err := i18n.CatalogKeys()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range i18n.Langs {
		var rows [][2]string
		for _, k := range keys {
			if strings.HasPrefix(k, "help.") && k != "help.title" {
				rows = append(rows, [2]string{"↑/↓ j/k PgUp/PgDn g/G", i18n.T(lang, k, nil)})
			}
		}
		for _, width := range []int{57, 77} { // 60 and 80 columns, less the border and margin
			lines := KeyColumns(rows, width)
			keyW := min(xansi.StringWidth(rows[0][0]), (width-1)/3)
			for _, l := range lines {
				if xansi.StringWidth(l) > width || !strings.HasPrefix(l, " ") {
					t.Errorf("%s at %d: %q", lang, width, l)
				}
			}
			descW := max(width-1-keyW-2, 10)
			for _, r := range rows {
				desc := WrapLines(r[1], descW, 0)
				for _, p := range typesetProblems(strings.Join(desc, "\n"), r[1], descW, descW, nil, 0) {
					t.Errorf("%s help row %q at %d: %s", lang, r[1], width, p)
				}
			}
		}
	}
}

// ja T1, T2, zh B6: the review list at 60, 80 and 120 columns — each item's title on its line,
// the facts on the next; no state word or fact label cut in two, no line starting with the
// separator, no bullet alone.
func TestReviewListKeepsItsWordsWhole(t *testing.T) {
	lesson := lesson(t)
	for _, lang := range i18n.Langs {
		md := surfacePages(t, lesson, lang)["review"]
		var words []string
		for _, k := range []string{"status.pass", "status.fail", "status.missing", "status.needs-tool", "ui.finish.attempts", "ui.finish.hints", "review.time", "review.first_time"} {
			words = append(words, i18n.T(lang, k, nil))
		}
		for _, width := range []int{60, 80, 120} {
			out, err := RenderMarkdown(md, width-4, Plain)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.ReplaceAll(out, "\u00a0", " "), "\n")
			for _, w := range words {
				whole := 0
				for _, l := range lines {
					whole += strings.Count(l, w)
				}
				if want := strings.Count(strings.ReplaceAll(strings.ReplaceAll(md, "\u00a0", " "), string(wordJoiner), ""), w); whole != want {
					t.Errorf("%s at %d: %q whole %d times of %d:\n%s", lang, width, w, whole, want, out)
				}
			}
			for _, l := range lines {
				if body := strings.TrimSpace(l); body == "•" || strings.HasPrefix(body, "·") {
					t.Errorf("%s at %d: line %q", lang, width, l)
				}
			}
		}
	}
}

package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ist2-boot/ui/page/lesson"

	xansi "github.com/charmbracelet/x/ansi"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
)

// The finish page and its output pane say what is true now: nothing passed, some (naming the
// sections left), or all; never "all eight done" over an empty work dir.
func TestFinishPageReflectsTheSavedState(t *testing.T) {
	answers, err := filepath.Abs("../steps/testdata/answers")
	if err != nil {
		t.Fatal(err)
	}
	firstThree := []string{"inject.yaml", "01-args.txt", "02-env.txt", "03-mesh.txt"}
	total := itoa(len(testEngine(t).Lesson.Sections))
	tests := []struct {
		name  string
		files []string // copied from the answers; nil: all of them
		want  string
	}{
		{"nothing", []string{}, i18n.T(i18n.Korean, "ui.finish.none", map[string]string{"total": total})},
		{"some", firstThree, i18n.T(i18n.Korean, "ui.finish.some", map[string]string{"total": total, "passed": "3", "left": i18n.T(i18n.Korean, "doctor.step_numbers", map[string]string{"numbers": "4·5·6·7·8"})})},
		{"all", nil, i18n.T(i18n.Korean, "ui.finish.all", map[string]string{"total": total})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng := testEngine(t)
			files := tt.files
			if files == nil {
				entries, err := os.ReadDir(answers)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range entries {
					files = append(files, e.Name())
				}
			}
			for _, f := range files {
				raw, err := os.ReadFile(filepath.Join(answers, f))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(eng.Env.Path(f), raw, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			m := sized(t, eng, 120, 40)
			m = nextUntil(t, m, "finish")
			if m.pageID() != "finish" {
				t.Fatalf("on %s", m.pageID())
			}
			// Both read with their line breaks taken out: where a line ends depends on the width.
			prose := strings.Join(strings.Fields(xansi.Strip(m.prose.Viewport().GetContent())), " ")
			out := strings.Join(strings.Fields(m.out.Content()), " ")
			if !strings.Contains(prose, tt.want) {
				t.Errorf("finish page lacks %q:\n%s", tt.want, prose)
			}
			if !strings.Contains(out, tt.want) {
				t.Errorf("output pane lacks %q:\n%s", tt.want, out)
			}
			if strings.Contains(out, "r 로 이 단계의 명령을") {
				t.Errorf("output pane repeats the section prompt:\n%s", out)
			}
		})
	}
}

func TestFinishPageShowsTableAndReport(t *testing.T) {
	eng := testEngine(t)
	if err := os.WriteFile(eng.Env.Path("08-report.md"), []byte("xds_address=x\n- one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := sized(t, eng, 120, 40)
	m = nextUntil(t, m, "finish")
	c := m.prose.Viewport().GetContent()
	if m.pageID() != "finish" || !strings.Contains(c, "검사 횟수") || !strings.Contains(c, "xds_address=x") {
		t.Errorf("finish:\n%s", c)
	}
}

// The finish page is a review: sections that need another look come first, and a takes the
// learner to the first of them.
func TestFinishReviewJumpsToTheSectionToLookAgain(t *testing.T) {
	eng := testEngine(t)
	steptest.CopyAnswers(t, eng.Env)
	os.Remove(eng.Env.Path("03-mesh.txt")) // mesh does not pass
	m := sized(t, eng, 120, 40)
	for m.pageID() != eng.Lesson.Finish.ID {
		m = press(t, m, "n")
	}
	review := lesson.Review(m.Common)
	if len(review.Sections) == 0 || !review.Sections[0].Again {
		t.Fatalf("review: %+v", review.Sections)
	}
	want := review.Sections[0].ID
	m = press(t, m, "a")
	if m.pageID() != want {
		t.Errorf("a opened %s, want %s", m.pageID(), want)
	}
}

// N on the finish page, answered y, writes a fresh lab (sandbox mode) and starts a new round;
// with fixtures that are not the sandbox's own, it touches nothing and says why.
func TestFinishPageNewLab(t *testing.T) {
	eng := testEngine(t)
	m := sized(t, eng, 120, 40)
	for m.pageID() != eng.Lesson.Finish.ID {
		m = press(t, m, "n")
	}
	m = press(t, m, "N")
	if m.status.question == askNewLab || m.status.message.Key != "newlab.lab_mode" {
		t.Fatalf("with the test's own fixtures: confirm %d, message %+v", m.status.question, m.status.message)
	}
	eng.Env.Fixtures = filepath.Join(eng.Env.DataDir, "fixtures")
	eng.Env.Mesh = filepath.Join(eng.Env.Fixtures, "mesh-config.yaml")
	m = press(t, m, "N")
	if m.status.question != askNewLab {
		t.Fatalf("N asked nothing: %+v", m.status.message)
	}
	m = press(t, m, "y")
	if m.status.message.Key != "newlab.done" {
		t.Fatalf("message %+v", m.status.message)
	}
	if _, err := os.Stat(filepath.Join(eng.Env.Fixtures, steps.NewLabMarker)); err != nil {
		t.Errorf("no fresh fixtures: %v", err)
	}
	if m.Progress == nil || len(m.Progress.Rounds) != 1 {
		t.Errorf("rounds: %+v", m.Progress)
	}
}

package run

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
)

// A tool that ignores TERM and has children: when the step times out, nothing of its process
// group is left once the run has returned (it used to return with the tool and both sleeps still
// running), and the file the step was writing is removed.
func TestTimeoutLeavesNothingOfAStubbornToolBehind(t *testing.T) {
	script := "echo $$ > group.pid\nprintf 'half' > a.txt.tmp\n" +
		"bash -c 'trap \"\" TERM; sleep 100 & sleep 100; wait'\nmv a.txt.tmp a.txt"
	r, env := scriptRunner(t, time.Second, steps.Step{Run: script})
	start := time.Now()
	res := r.RunSection(context.Background(), "args", func(Line) {})
	if !res.TimedOut {
		t.Fatalf("result %+v", res)
	}
	pgid, err := strconv.Atoi(strings.TrimSpace(steptest.ReadFile(t, env.Path("group.pid"))))
	if err != nil {
		t.Fatal(err)
	}
	if GroupAlive(pgid) {
		syscall.Kill(-pgid, syscall.SIGKILL) // leave nothing behind for the next test either
		t.Errorf("process group %d still has processes after the run returned (after %v)", pgid, time.Since(start))
	}
	if _, err := os.Stat(env.Path("a.txt.tmp")); !os.IsNotExist(err) {
		t.Errorf("the half-written a.txt.tmp is left: %v", err)
	}
}

// Hostile L1: a FILE.tmp that stood in the work dir before the run (a learner's draft) is not the
// run's to delete when it is stopped; only one the run made is.
func TestAStoppedRunKeepsATempFileItDidNotMake(t *testing.T) {
	r, env := scriptRunner(t, 500*time.Millisecond, steps.Step{Run: "sleep 5"})
	if err := os.WriteFile(env.Path("a.txt.tmp"), []byte("my draft"), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := r.RunSection(context.Background(), "args", func(Line) {}); !res.TimedOut {
		t.Fatalf("result %+v", res)
	}
	if got := steptest.ReadFile(t, env.Path("a.txt.tmp")); got != "my draft" {
		t.Errorf("the draft is %q", got)
	}
}

// Issue 32 (ko fresh read, high 1): what the reference commands print of their own is in the
// learner's language — the lesson's `say` messages reach the script as SAY_<KEY>.
func TestACommandsOwnWordsAreTheLearnersLanguage(t *testing.T) {
	r, _ := scriptRunner(t, 5*time.Second, steps.Step{Run: `printf "$SAY_ADMIN_SILENT\n" 9982`})
	r.Lesson.Say = steptest.Lesson(t).Say
	r.Lang = i18n.Chinese
	var lines []string
	if res := r.RunSection(context.Background(), "args", func(l Line) { lines = append(lines, l.Text) }); !res.OK() {
		t.Fatalf("%+v", res)
	}
	want := strings.Replace(r.Lesson.Say["admin_silent"][i18n.Chinese], "%s", "9982", 1)
	if !slices.Contains(lines, want) {
		t.Errorf("no %q in %q", want, lines)
	}
}

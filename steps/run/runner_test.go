package run

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
)

// scriptRunner runs a one-section lesson made of the given steps in a temp sandbox.
func scriptRunner(t *testing.T, timeout time.Duration, script ...steps.Step) (*Runner, *steps.Env) {
	t.Helper()
	env := steptest.Env(t, os.Getenv("PATH"))
	l := &steps.Lesson{
		Params: map[string]string{"admin_port": "9982"},
		Tools:  []steps.ToolSpec{{Name: "bash"}, {Name: "no-such-tool", Get: "get_envoy"}},
		Sections: []steps.Section{{Page: steps.Page{ID: "args"}, Steps: script,
			Files: []steps.FileSpec{{Name: "a.txt"}}}},
	}
	tools := steps.Tools{{Name: "bash", Found: true, Path: "/bin/bash"}, {Name: "no-such-tool"}}
	return &Runner{Lesson: l, Env: env, Tools: tools, Timeout: timeout}, env
}

// recorder keeps the lines of a run with the time each arrived.
type recorder struct {
	mu    sync.Mutex
	start time.Time
	lines []Line
	at    []time.Duration
}

func (r *recorder) emit(l Line) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, l)
	r.at = append(r.at, time.Since(r.start))
}

func (r *recorder) output() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, l := range r.lines {
		if l.Kind == Output {
			out = append(out, l.Text)
		}
	}
	return out
}

func (r *recorder) when(text string) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, l := range r.lines {
		if l.Kind == Output && l.Text == text {
			return r.at[i]
		}
	}
	return -1
}

func TestRunStreamsLinesAsTheyCome(t *testing.T) {
	r, env := scriptRunner(t, 0, steps.Step{Tools: []string{"bash"}, Run: "echo first\nsleep 1\necho \"$LAB_DIR|$FIXTURES|$MESH_CONFIG|$ADMIN_PORT|$(pwd)|${PATH%%:*}\""})
	rec := &recorder{start: time.Now()}
	res := r.RunSection(context.Background(), "args", rec.emit)
	if !res.OK() || res.ExitCode != 0 {
		t.Fatalf("result %+v", res)
	}
	if first := rec.when("first"); first < 0 || first > 700*time.Millisecond {
		t.Errorf("first line arrived at %v, before the step ended at %v? it should", first, res.Duration)
	}
	if res.Duration < time.Second {
		t.Errorf("duration %v", res.Duration)
	}
	want := strings.Join([]string{env.WorkDir, env.Fixtures, env.Mesh, "9982", env.WorkDir, env.ToolsDir}, "|")
	if out := rec.output(); len(out) != 2 || out[1] != want {
		t.Errorf("output %q, want second line %q", out, want)
	}
}

func TestRunReportsExitStatusAndMergesStderr(t *testing.T) {
	r, _ := scriptRunner(t, 0,
		steps.Step{Run: "echo one"},
		steps.Step{Run: "echo out\necho err >&2\nexit 3"},
		steps.Step{Run: "echo never"})
	rec := &recorder{start: time.Now()}
	res := r.RunSection(context.Background(), "args", rec.emit)
	if res.ExitCode != 3 || res.Step != 2 || res.OK() || res.Summary.Key != "run.step_failed" {
		t.Fatalf("result %+v", res)
	}
	if got := strings.Join(rec.output(), ","); got != "one,out,err" {
		t.Errorf("output %s", got)
	}
}

func TestRunTimesOutAndSaysWhichCommand(t *testing.T) {
	r, _ := scriptRunner(t, time.Second, steps.Step{Run: "# waits\nsleep 30"})
	start := time.Now()
	res := r.RunSection(context.Background(), "args", func(Line) {})
	if !res.TimedOut || time.Since(start) > 5*time.Second {
		t.Fatalf("result %+v after %v", res, time.Since(start))
	}
	if msg := res.Summary.In(i18n.Korean); !strings.Contains(msg, "sleep 30") || !strings.Contains(msg, "1초") {
		t.Errorf("summary %q", msg)
	}
}

func TestCancelEndsTheWholeProcessGroup(t *testing.T) {
	r, env := scriptRunner(t, 0, steps.Step{Run: "sleep 30 &\necho $! > child.pid\necho started\nwait"})
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	var once sync.Once
	emit := func(l Line) {
		if l.Text == "started" {
			once.Do(func() { close(started) })
		}
	}
	done := make(chan RunResult)
	go func() { done <- r.RunSection(ctx, "args", emit) }()
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("never started")
	}
	cancel()
	var res RunResult
	select {
	case res = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("cancel did not end the run")
	}
	if !res.Cancelled || res.Summary.Key != "run.cancelled" {
		t.Errorf("result %+v", res)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(steptest.ReadFile(t, env.Path("child.pid"))))
	deadline := time.Now().Add(3 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if alive(pid) {
		t.Errorf("child %d of the cancelled step still runs", pid)
	}
}

func TestRunStopsBeforeAStepWhoseToolIsMissing(t *testing.T) {
	r, env := scriptRunner(t, 0,
		steps.Step{Run: "echo made > a.txt"},
		steps.Step{Tools: []string{"no-such-tool"}, Run: "echo ran > b.txt"})
	var notes []i18n.Msg
	res := r.RunSection(context.Background(), "args", func(l Line) {
		if l.Kind == Note {
			notes = append(notes, l.Msg)
		}
	})
	if res.MissingTool != "no-such-tool" || res.Step != 2 || res.ExitCode != 127 {
		t.Fatalf("result %+v", res)
	}
	if _, err := os.Stat(env.Path("a.txt")); err != nil {
		t.Error("the step before the missing tool did not run")
	}
	if _, err := os.Stat(env.Path("b.txt")); err == nil {
		t.Error("the step with the missing tool ran")
	}
	if len(notes) != 1 || !strings.Contains(notes[0].In(i18n.Japanese), "no-such-tool") || !strings.Contains(notes[0].In(i18n.Japanese), "ist2-boot doctor") { // where to read how to get it: said in full once, by check and doctor (ja r14 M10)
		t.Errorf("notes %v", notes)
	}
}

func TestRunStopsBeforeAStepWhoseInputIsMissing(t *testing.T) {
	r, _ := scriptRunner(t, 0, steps.Step{Inputs: []string{"a.txt"}, Run: "cat a.txt"})
	res := r.RunSection(context.Background(), "args", func(Line) {})
	if res.MissingInput != "a.txt" || res.Summary.Key != "run.input_missing" || res.Summary.Args["section"] != "args" {
		t.Fatalf("result %+v", res)
	}
}

func TestABackgroundChildHoldingThePipeDoesNotHangTheRun(t *testing.T) {
	r, env := scriptRunner(t, 0, steps.Step{Run: "sleep 20 &\necho $! > bg.pid\necho done"})
	start := time.Now()
	res := r.RunSection(context.Background(), "args", func(Line) {})
	if !res.OK() || time.Since(start) > 3*time.Second {
		t.Fatalf("result %+v after %v", res, time.Since(start))
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(steptest.ReadFile(t, env.Path("bg.pid")))); err == nil {
		_ = syscall.Kill(pid, syscall.SIGKILL) // ours: started by this test
	}
}

func TestAMissingInputThatNeedsAMissingToolNamesTheTool(t *testing.T) {
	r, _ := scriptRunner(t, 0, steps.Step{Inputs: []string{"b.txt"}, Run: "cat b.txt"})
	r.Lesson.Sections = append(r.Lesson.Sections, steps.Section{Page: steps.Page{ID: "env"},
		Files: []steps.FileSpec{{Name: "b.txt", Needs: []string{"no-such-tool"}}}})
	res := r.RunSection(context.Background(), "args", func(Line) {})
	if res.MissingInput != "b.txt" || res.MissingTool != "no-such-tool" || res.Summary.Key != "run.input_needs_tool" {
		t.Fatalf("result %+v", res)
	}
}

// A timed-out command is quoted as the learner would recognise it: the first line of a command
// continued with a backslash is cut off with "…", not quoted with its backslash.
func TestFirstCommandOfAContinuedLine(t *testing.T) {
	for script, want := range map[string]string{
		"# comment\nistioctl kube-inject --revision default \\\n  -f x.yaml\n": "istioctl kube-inject --revision default …",
		"\n  yq '.a' x.yaml > y\n": "yq '.a' x.yaml > y",
	} {
		if got := firstCommand(script); got != want {
			t.Errorf("%q: %q, want %q", script, got, want)
		}
	}
}

package run

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
)

// The commands get this program's own path as IST2_BOOT: the running executable's unless told.
func TestCommandsGetOurOwnPath(t *testing.T) {
	r, _ := scriptRunner(t, 10*time.Second, steps.Step{Tools: []string{"bash"}, Run: `echo "self=$IST2_BOOT"`})
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ self, want string }{{"", exe}, {"/opt/x/ist2-boot", "/opt/x/ist2-boot"}} {
		r.Self = tt.self
		rec := &recorder{start: time.Now()}
		if res := r.RunSection(context.Background(), "args", rec.emit); !res.OK() {
			t.Fatalf("run: %+v", res)
		}
		if out := strings.Join(rec.output(), "\n"); out != "self="+tt.want {
			t.Errorf("Self %q: the step printed %q, want self=%s", tt.self, out, tt.want)
		}
	}
}

// Without Envoy the practice page's run shows what the models say — the documented LIVE answers,
// the server's resources, Envoy's warning for the refused version, pilot-agent's line — said so.
func TestPracticeWithoutEnvoyShowsTheModel(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, steptest.PathWithout("envoy"))
	steptest.CopyAnswers(t, env)
	r := &Runner{Lesson: l, Env: env, Tools: steps.LocateTools(env, l.Tools)}
	sec, _ := l.Section("practice")
	var said []string
	for _, st := range sec.Steps {
		if st.WithoutEnvoy != "" {
			r.withoutEnvoy(st, func(ln Line) { said = append(said, ln.Msg.Key+": "+ln.Msg.In(i18n.Chinese)) })
		}
	}
	text := strings.Join(said, "\n")
	for _, want := range []string{"run.documented_practice", l.Params["live_ready_body"], "practice-backend", "practice-http",
		"gRPC config for type.googleapis.com/envoy.config.cluster.v3.Cluster rejected: Error adding/updating cluster(s) practice-backend: malformed IP address",
		"pilot-agent 的就绪检查会返回 200"} {
		if !strings.Contains(text, want) {
			t.Errorf("without Envoy the run does not say %q:\n%s", want, text)
		}
	}
	os.Remove(env.Path("practice.yaml"))
	said = nil
	r.withoutEnvoy(sec.Steps[len(sec.Steps)-1], func(ln Line) { said = append(said, ln.Msg.Key) })
	if strings.Join(said, " ") != "run.offline_no_file" {
		t.Errorf("without practice.yaml: %v", said)
	}
}

// The practice page's commands stop the server and the Envoy they started, by the pids they
// recorded, however the step ends: cancelled while it waits for LIVE, and failing when LIVE never
// comes. Stand-ins: an Envoy that never opens its admin port, a server that only sleeps.
func TestPracticeLeavesNothingRunning(t *testing.T) {
	l := steptest.Lesson(t)
	silent, err := filepath.Abs("../testdata/silentenvoy")
	if err != nil {
		t.Fatal(err)
	}
	env := steptest.Env(t, silent+string(os.PathListSeparator)+os.Getenv("PATH"))
	steptest.CopyAnswers(t, env)
	tools := steps.LocateTools(env, l.Tools)
	for _, name := range []string{"curl", "jq"} {
		if !tools.Get(name).Found {
			t.Skipf("%s is not installed", name)
		}
	}
	server := filepath.Join(t.TempDir(), "ist2-boot")
	steptest.WriteFile(t, server, "#!/bin/sh\necho $$ >> \"$LAB_DIR/server.pids\"\nexec sleep 300\n")
	if err := os.Chmod(server, 0o755); err != nil {
		t.Fatal(err)
	}
	sec, _ := l.Section("practice")
	practice := *sec
	practice.Steps = sec.Steps[1:] // the copy (yq) is in the answers; this is the step that starts things
	lesson := *l
	lesson.Practice = []steps.Practice{{Section: practice, After: "ready"}}
	r := &Runner{Lesson: &lesson, Env: env, Tools: tools, Self: server}
	pids := func() []int {
		var out []int
		raw, _ := os.ReadFile(env.Path("server.pids"))
		for _, f := range strings.Fields(string(raw)) {
			n, _ := strconv.Atoi(f)
			out = append(out, n)
		}
		return out
	}
	for _, cancelIt := range []bool{true, false} {
		os.Remove(env.Path("server.pids"))
		// A run puts the learner's files aside first; the answers' copy is put back for each run.
		steptest.WriteFile(t, env.Path("practice.yaml"), steptest.ReadFile(t, filepath.Join(steptest.AnswersDir(), "practice.yaml")))
		ctx, cancel := context.WithCancel(context.Background())
		envoy := make(chan int, 1)
		go func() { // Envoy's pid while it runs; then, for the first run, cancel
			for ctx.Err() == nil {
				if pid, ok := pidIn(env.Path("envoy.pid")); ok && len(pids()) > 0 {
					envoy <- pid
					if cancelIt {
						time.Sleep(300 * time.Millisecond)
						cancel()
					}
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
		}()
		var out []string
		res := r.RunSection(ctx, "practice", func(ln Line) { out = append(out, ln.Text+ln.Msg.In(i18n.Korean)) })
		cancel()
		if cancelIt != res.Cancelled || res.OK() {
			t.Fatalf("cancelled %v: %+v\n%s", cancelIt, res, strings.Join(out, "\n"))
		}
		var started []int
		select {
		case pid := <-envoy:
			started = append(pids(), pid)
		default:
			t.Fatalf("cancelled %v: nothing was started: %+v\n%s", cancelIt, res, strings.Join(out, "\n"))
		}
		for _, pid := range started {
			if !exited(pid) {
				t.Errorf("cancelled %v: %d still runs", cancelIt, pid)
				_ = syscall.Kill(pid, syscall.SIGKILL) // ours: started by this test
			}
		}
		if _, err := os.Stat(env.Path("envoy.pid")); !os.IsNotExist(err) {
			t.Errorf("cancelled %v: envoy.pid kept for an Envoy that was stopped", cancelIt)
		}
	}
}

//go:build labtools

// Tests that run the lab's own commands with the real yq, curl and jq (scripts/test.sh installs
// them and runs these with -tags labtools).

package steps

import (
	"context"
	"ist2-boot/steps/i18n"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// The Envoy path of sections 4-6 with the Envoy test double: the lab's own commands validate,
// start Envoy detached, record its pid, wait for the admin port, and the engine stops only that
// pid. Needs curl and jq, as the lab does.
func TestEnvoySectionsWithTheTestDouble(t *testing.T) {
	l := testLesson(t)
	env := testEnv(t, fakeEnvoyPath(t)+string(os.PathListSeparator)+os.Getenv("PATH"))
	copyAnswers(t, env)
	for _, f := range []string{"04-validate.txt", "05-typo.txt", "06-node.json", "06-ready.txt", "08-report.md", "boot-typo.yaml"} {
		os.Remove(env.Path(f))
	}
	tools := FindTools(env, l.Tools)
	for _, name := range []string{"envoy", "curl", "jq", "yq"} {
		if !tools.Get(name).Found {
			t.Fatalf("%s not found: install it (scripts/test.sh does)", name)
		}
	}
	r := &Runner{Lesson: l, Env: env, Tools: tools}
	run := func(id string) RunResult {
		var out []string
		res := r.RunSection(context.Background(), id, func(l Line) { out = append(out, l.Text+l.Msg.In(i18n.Korean)) })
		if !res.OK() {
			t.Fatalf("run %s: %+v\n%s", id, res, strings.Join(out, "\n"))
		}
		return res
	}
	run("bootstrap")
	run("typo")
	run("ready")
	pidFile := env.Path("envoy.pid")
	t.Cleanup(func() { StopEnvoy(pidFile) })
	first, ok := RunningEnvoy(pidFile)
	if !ok {
		t.Fatal("no running Envoy recorded")
	}
	// Job control gives Envoy a process group of its own: it outlives the step, and ending the
	// step's group (cancel, timeout) does not reach it.
	if pgid, _ := syscall.Getpgid(first); pgid != first {
		t.Errorf("Envoy %d does not lead its own process group (pgid %d)", first, pgid)
	}
	run("report")
	results, err := Check(l, env, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range results {
		if s.Status != Pass {
			t.Errorf("%s: %s %+v", s.ID, s.Status, s.Files)
		}
	}
	// Running section 6 again stops the Envoy it started before starting a new one.
	run("ready")
	second, ok := RunningEnvoy(pidFile)
	if !ok || second == first || alive(first) {
		t.Errorf("first Envoy %d, second %d (running %v)", first, second, ok)
	}
	if pid, stopped := StopEnvoy(pidFile); !stopped || pid != second || alive(second) {
		t.Errorf("stop: %d %v", pid, stopped)
	}
	if _, err := os.Stat(pidFile); !os.IsNotExist(err) {
		t.Error("pid file kept after stop")
	}
}

// Section 6 through the wrapper: the lab's own commands start "Envoy" (the test double standing
// for the container), the admin port answers on 127.0.0.1, the files come out right, and the stop
// by pid reaches the container.
func TestSection6ThroughTheEnvoyWrapper(t *testing.T) {
	env, l := setupEnv(t, "testdata/fakego", "testdata/fakedocker")
	env.Getenv = func(k string) string {
		if k == "PATH" {
			return strings.Join([]string{env.ToolsDir, mustAbs(t, "testdata/fakedocker"), os.Getenv("PATH")}, ":")
		}
		return os.Getenv(k)
	}
	t.Setenv("FAKE_GO_LOG", filepath.Join(t.TempDir(), "go.log"))
	dockerLog := filepath.Join(t.TempDir(), "docker.log")
	t.Setenv("FAKE_DOCKER_LOG", dockerLog)
	t.Setenv("FAKE_ENVOY", filepath.Join(fakeEnvoyPath(t), "envoy"))
	spec, _ := l.Tool("envoy")
	l.Tools = []ToolSpec{spec}
	var got events
	(&Installer{Lesson: l, Env: env, Envoy: func(string, string) bool { return true }}).Setup(context.Background(), got.add)
	full := testLesson(t)
	tools := FindTools(env, full.Tools)
	if !strings.HasPrefix(tools.Get("envoy").Path, env.ToolsDir) {
		t.Fatalf("envoy is not the wrapper: %+v", tools.Get("envoy"))
	}
	copyAnswers(t, env)
	for _, f := range []string{"06-node.json", "06-ready.txt"} {
		os.Remove(env.Path(f))
	}
	r := &Runner{Lesson: full, Env: env, Tools: tools}
	var out []string
	res := r.RunSection(context.Background(), "ready", func(l Line) { out = append(out, l.Text+l.Msg.In(i18n.Korean)) })
	pidFile := env.Path("envoy.pid")
	t.Cleanup(func() { StopEnvoy(pidFile) })
	if !res.OK() {
		t.Fatalf("%+v\n%s", res, strings.Join(out, "\n"))
	}
	results, err := Check(full, env, []string{"ready"})
	if err != nil || results[0].Status != Pass {
		t.Fatalf("%v %+v", err, results)
	}
	if !strings.Contains(readFile(t, dockerLog), "--network host") {
		t.Errorf("docker log:\n%s", readFile(t, dockerLog))
	}
	pid, stopped := StopEnvoy(pidFile)
	if !stopped || !strings.Contains(readFile(t, dockerLog), "stop -t 5 ist2-boot-envoy-"+strconv.Itoa(pid)) {
		t.Errorf("stop: %v\n%s", stopped, readFile(t, dockerLog))
	}
}

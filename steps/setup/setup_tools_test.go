//go:build labtools

package setup

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/run"
	"ist2-boot/steps/steptest"
)

// Section 6 through the wrapper: the lab's own commands start "Envoy" (the test double standing
// for the container), the admin port answers on 127.0.0.1, the files come out right, and the stop
// by pid reaches the container.
func TestSection6ThroughTheEnvoyWrapper(t *testing.T) {
	env, l := setupEnv(t, steptest.Testdata("fakego"), steptest.Testdata("fakedocker"))
	getenv := env.Getenv // keeps steptest.NoNetwork for the Envoy download
	env.Getenv = func(k string) string {
		if k == "PATH" {
			return strings.Join([]string{env.ToolsDir, steptest.Testdata("fakedocker"), os.Getenv("PATH")}, ":")
		}
		return getenv(k)
	}
	t.Setenv("FAKE_GO_LOG", filepath.Join(t.TempDir(), "go.log"))
	dockerLog := filepath.Join(t.TempDir(), "docker.log")
	t.Setenv("FAKE_DOCKER_LOG", dockerLog)
	t.Setenv("FAKE_ENVOY", filepath.Join(steptest.FakeEnvoyPath(t), "envoy"))
	spec, _ := l.Tool("envoy")
	l.Tools = []steps.ToolSpec{spec}
	var got events
	(&Installer{Lesson: l, Env: env, Envoy: func(string, string) bool { return true }}).Setup(context.Background(), got.add)
	full := steptest.Lesson(t)
	tools := steps.FindTools(env, full.Tools)
	if !strings.HasPrefix(tools.Get("envoy").Path, env.ToolsDir) {
		t.Fatalf("envoy is not the wrapper: %+v", tools.Get("envoy"))
	}
	steptest.CopyAnswers(t, env)
	for _, f := range []string{"06-node.json", "06-ready.txt"} {
		os.Remove(env.Path(f))
	}
	r := &run.Runner{Lesson: full, Env: env, Tools: tools}
	var out []string
	res := r.RunSection(context.Background(), "ready", func(l run.Line) { out = append(out, l.Text+l.Msg.In(i18n.Korean)) })
	pidFile := env.Path("envoy.pid")
	t.Cleanup(func() { run.StopEnvoy(pidFile) })
	if !res.OK() {
		t.Fatalf("%+v\n%s", res, strings.Join(out, "\n"))
	}
	results, err := check.Check(full, env, []string{"ready"})
	if err != nil || results[0].Status != check.Pass {
		t.Fatalf("%v %+v", err, results)
	}
	if !strings.Contains(steptest.ReadFile(t, dockerLog), "--network host") {
		t.Errorf("docker log:\n%s", steptest.ReadFile(t, dockerLog))
	}
	pid, stopped := run.StopEnvoy(pidFile)
	if !stopped || !strings.Contains(steptest.ReadFile(t, dockerLog), "stop -t 5 ist2-boot-envoy-"+strconv.Itoa(pid)) {
		t.Errorf("stop: %v\n%s", stopped, steptest.ReadFile(t, dockerLog))
	}
}

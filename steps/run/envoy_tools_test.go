//go:build labtools

// Tests that run the lab's own commands with the real yq, curl and jq (scripts/test.sh installs
// them and runs these with -tags labtools).

package run

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
)

// The Envoy path of sections 4-6 with the Envoy test double: the lab's own commands validate,
// start Envoy detached, record its pid, wait for the admin port, and the engine stops only that
// pid. Needs curl and jq, as the lab does.
func TestEnvoySectionsWithTheTestDouble(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, steptest.FakeEnvoyPath(t)+string(os.PathListSeparator)+os.Getenv("PATH"))
	steptest.CopyAnswers(t, env)
	for _, f := range []string{"04-validate.txt", "05-typo.txt", "06-node.json", "06-ready.txt", "08-report.md", "boot-typo.yaml"} {
		os.Remove(env.Path(f))
	}
	tools := steps.FindTools(env, l.Tools)
	for _, name := range []string{"envoy", "curl", "jq", "yq"} {
		if !tools.Get(name).Found {
			t.Fatalf("%s not found: install it (scripts/test.sh does)", name)
		}
	}
	r := &Runner{Lesson: l, Env: env, Tools: tools}
	section := func(id string) RunResult {
		var out []string
		res := r.RunSection(context.Background(), id, func(l Line) { out = append(out, l.Text+l.Msg.In(i18n.Korean)) })
		if !res.OK() {
			t.Fatalf("run %s: %+v\n%s", id, res, strings.Join(out, "\n"))
		}
		return res
	}
	section("bootstrap")
	section("typo")
	section("ready")
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
	section("report")
	results, err := check.Check(l, env, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range results {
		if s.Status != check.Pass {
			t.Errorf("%s: %s %+v", s.ID, s.Status, s.Files)
		}
	}
	// Running section 6 again stops the Envoy it started before starting a new one.
	section("ready")
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

//go:build labtools

// Tests that run the lab's own commands with the real yq, curl and jq (scripts/test.sh installs
// them and runs these with -tags labtools).

package run

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

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

// An Envoy whose run did not end well is ours all the same (the newcomer review's H1): cancelled
// while it waits for an admin port that never answers, the run has recorded it, and the next run
// stops it before it starts its own.
func TestAnEnvoyOfACancelledRunIsStillOurs(t *testing.T) {
	l := steptest.Lesson(t)
	silent, err := filepath.Abs("../testdata/silentenvoy")
	if err != nil {
		t.Fatal(err)
	}
	env := steptest.Env(t, silent+string(os.PathListSeparator)+os.Getenv("PATH"))
	steptest.CopyAnswers(t, env)
	r := &Runner{Lesson: l, Env: env, Tools: steps.FindTools(env, l.Tools)}
	pidFile := env.Path("envoy.pid")
	t.Cleanup(func() { StopEnvoy(pidFile) })
	// cancelled runs section 6 and cancels it once the step has written Envoy's pid.
	cancelled := func() int {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			for ctx.Err() == nil {
				if fi, err := os.Stat(pidFile); err == nil && fi.Size() > 0 {
					time.Sleep(300 * time.Millisecond) // into the wait for the admin port
					cancel()
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
		}()
		res := r.RunSection(ctx, "ready", func(Line) {})
		if !res.Cancelled {
			t.Fatalf("not cancelled: %+v", res)
		}
		pid, ours := RunningEnvoy(pidFile)
		if !ours {
			t.Fatalf("the cancelled run's Envoy %d is not recorded as ours", pid)
		}
		return pid
	}
	first := cancelled()
	second := cancelled()
	if second == first || alive(first) {
		t.Errorf("the next run left the first Envoy %d running (second %d)", first, second)
	}
}

// M3: a run never replaces what the learner wrote without a word: their file goes to a backup
// first (and the run says so); a file the last run wrote is simply written again.
func TestARunBacksUpTheLearnersFiles(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, os.Getenv("PATH"))
	steptest.CopyAnswers(t, env) // the inputs of section 3
	mine := []byte("# mine, by hand\n")
	if err := os.WriteFile(env.Path("03-mesh.txt"), mine, 0o644); err != nil {
		t.Fatal(err)
	}
	r := &Runner{Lesson: l, Env: env, Tools: steps.FindTools(env, l.Tools)}
	run := func() []string {
		var notes []string
		res := r.RunSection(context.Background(), "mesh", func(l Line) {
			if l.Kind == Note {
				notes = append(notes, l.Msg.Key)
			}
		})
		if !res.OK() {
			t.Fatalf("run mesh: %+v", res)
		}
		return notes
	}
	if notes := run(); !slices.Contains(notes, "run.backed_up") {
		t.Errorf("no word of the backup: %v", notes)
	}
	backups, _ := filepath.Glob(env.Path("backup-*/03-mesh.txt"))
	if len(backups) != 1 {
		t.Fatalf("backups: %v", backups)
	}
	if got, _ := os.ReadFile(backups[0]); string(got) != string(mine) {
		t.Errorf("the backup holds %q", got)
	}
	if notes := run(); slices.Contains(notes, "run.backed_up") {
		t.Error("the run's own file was backed up")
	}
	if again, _ := filepath.Glob(env.Path("backup-*")); len(again) != 1 {
		t.Errorf("backups after the second run: %v", again)
	}
}

// The hostile report's M2: a run follows no link or device out of the work dir — not through an
// input (read as check reads it), not through a produced file's hard link, not through FILE.tmp.
func TestARunFollowsNoLinkOut(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, os.Getenv("PATH"))
	steptest.CopyAnswers(t, env)
	r := &Runner{Lesson: l, Env: env, Tools: steps.FindTools(env, l.Tools)}
	outside := filepath.Join(t.TempDir(), "victim")
	refused := func(what, section string) {
		t.Helper()
		if err := os.WriteFile(outside, []byte("VICTIM\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		res := r.RunSection(context.Background(), section, func(Line) {})
		if res.OK() || res.Step > 1 && res.Summary.Key == "run.done" {
			t.Errorf("%s: ran: %+v", what, res)
		}
		if got, _ := os.ReadFile(outside); string(got) != "VICTIM\n" {
			t.Errorf("%s: the file outside now holds %q", what, got)
		}
	}
	// An input that is a device: refused before sed reads it.
	os.Remove(env.Path("02-env.txt"))
	if err := os.Symlink("/dev/zero", env.Path("02-env.txt")); err != nil {
		t.Fatal(err)
	}
	refused("02-env.txt → /dev/zero", "mesh")
	steptest.CopyFile(t, filepath.Join(steptest.AnswersDir(), "02-env.txt"), env.Path("02-env.txt"))
	// A produced file hard-linked to a file elsewhere.
	os.Remove(env.Path("03-mesh.txt"))
	if err := os.WriteFile(outside, []byte("VICTIM\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(outside, env.Path("03-mesh.txt")); err != nil {
		t.Fatal(err)
	}
	refused("03-mesh.txt hard-linked outside", "mesh")
	os.Remove(env.Path("03-mesh.txt"))
	// The temp file a produced file is written through.
	if err := os.Symlink(outside, env.Path("inject.yaml.tmp")); err != nil {
		t.Fatal(err)
	}
	refused("inject.yaml.tmp → outside", "args")
}

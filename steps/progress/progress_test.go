package progress

import (
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
)

func TestProgressRoundTrip(t *testing.T) {
	s, err := NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	results := []check.SectionResult{{ID: "args", Status: check.Fail}, {ID: "env", Status: check.Pass}}
	if _, err := s.Update(RecordCheck(results, t0)); err != nil {
		t.Fatal(err)
	}
	results[0].Status = check.Pass
	if _, err := s.Update(RecordCheck(results[:1], t0.Add(time.Minute))); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(func(p *Progress) { p.Lang, p.LastSection = i18n.Japanese, "env" }); err != nil {
		t.Fatal(err)
	}
	p, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	a := p.Sections["args"]
	if a.Status != check.Pass || a.Attempts != 2 || !a.FirstCheck.Equal(t0) || !a.LastCheck.Equal(t0.Add(time.Minute)) {
		t.Errorf("args %+v", a)
	}
	if p.Sections["env"].Attempts != 1 || p.Lang != i18n.Japanese || p.LastSection != "env" {
		t.Errorf("progress %+v", p)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(s.Dir, ".progress.json.tmp-*")); len(leftovers) > 0 {
		t.Errorf("temp files left: %v", leftovers)
	}
}

func TestCorruptProgressIsKeptAsideAndRestarted(t *testing.T) {
	for name, content := range map[string]string{
		"not json":     "{\"version\": 1, \"sections\": {",
		"binary":       "\x00\x01\x02",
		"bad language": `{"version":1,"lang":"fr","sections":{}}`,
		"negative":     `{"version":1,"sections":{"args":{"attempts":-1}}}`,
		"future":       `{"version":9,"sections":{}}`,
	} {
		t.Run(name, func(t *testing.T) {
			s, _ := NewStore(t.TempDir())
			steptest.WriteFile(t, s.path(), content)
			p, err := s.Load()
			if err != nil || len(p.Sections) != 0 {
				t.Fatalf("%v %+v", err, p)
			}
			if s.Warning.Key != "progress.corrupt" {
				t.Errorf("no warning")
			}
			aside, _ := filepath.Glob(s.path() + ".corrupt-*")
			if len(aside) != 1 || steptest.ReadFile(t, aside[0]) != content {
				t.Errorf("corrupt file not kept: %v", aside)
			}
		})
	}
}

// Concurrent read-modify-writes (two copies of the program) lose nothing.
func TestConcurrentUpdatesLoseNothing(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Go(func() {
			s, _ := NewStore(dir) // each its own lock file descriptor, as two processes would have
			if _, err := s.Update(RecordCheck([]check.SectionResult{{ID: "args", Status: check.Pass}}, time.Now())); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	s, _ := NewStore(dir)
	p, _ := s.Load()
	if got := p.Sections["args"].Attempts; got != 20 {
		t.Errorf("attempts %d, want 20", got)
	}
}

// A second copy that holds the lock too long gets a clear error, not a hang.
func TestLockHeldByAnotherProcess(t *testing.T) {
	if _, err := exec.LookPath("flock"); err != nil {
		t.Fatal("flock(1) from util-linux is needed for this test")
	}
	s, _ := NewStore(t.TempDir())
	holder := exec.Command("flock", filepath.Join(s.Dir, "progress.lock"), "sleep", "30")
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = holder.Process.Kill(); _ = holder.Wait() })
	// Wait until the holder has the lock: our own non-blocking try starts failing.
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		f, err := os.OpenFile(filepath.Join(s.Dir, "progress.lock"), os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		free := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
		f.Close()
		if !free {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	_, err := s.Update(func(*Progress) {})
	le, ok := err.(*LockedError)
	if !ok || time.Since(start) < lockWait-time.Second || time.Since(start) > lockWait+2*time.Second {
		t.Fatalf("err %v after %v", err, time.Since(start))
	}
	if !strings.Contains(le.Msg().In(i18n.Chinese), "ist2-boot") {
		t.Errorf("message %s", le.Msg().In(i18n.Chinese))
	}
}

func TestSecondInteractiveCopyIsRefused(t *testing.T) {
	s, _ := NewStore(t.TempDir())
	first, ok, err := s.AcquireInstance()
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if _, ok, _ := s.AcquireInstance(); ok {
		t.Fatal("second copy got the instance lock")
	}
	first.Release()
	again, ok, _ := s.AcquireInstance()
	if !ok {
		t.Fatal("lock not released")
	}
	again.Release()
	_ = os.Remove(filepath.Join(s.Dir, "instance.lock"))
}

// B2: a pass the learner did not ask to check (watch, a run's end) is saved with its time and
// counts as passed first time, without an attempt; a check of a section with nothing in it yet is
// not an attempt.
func TestQuietPassesAreSavedAndEmptyChecksAreNoAttempts(t *testing.T) {
	s, err := NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	empty := []check.SectionResult{{ID: "env", Status: check.Missing, Files: []check.FileResult{{File: "02-env.txt", Status: check.Missing}}}}
	if _, err := s.Update(RecordCheck(empty, t0)); err != nil {
		t.Fatal(err)
	}
	passed := []check.SectionResult{{ID: "env", Status: check.Pass, Files: []check.FileResult{{File: "02-env.txt", Status: check.Pass}}}}
	p, err := s.Update(RecordQuiet(passed, t0.Add(time.Minute)))
	if err != nil {
		t.Fatal(err)
	}
	e := p.Sections["env"]
	if e.Status != check.Pass || e.Attempts != 0 || !e.Passed.Equal(t0.Add(time.Minute)) || !e.FirstTime || !e.FirstCheck.Equal(t0) {
		t.Errorf("env %+v", e)
	}
}

// B11: the review puts unfinished sections before those passed only with help (a jumps there).
func TestReviewPutsUnfinishedFirst(t *testing.T) {
	p := &Progress{Sections: map[string]*SectionProgress{"args": {HintsUsed: 2, Attempts: 1}}}
	r := MakeReview([]string{"args", "env"}, verdicts(map[string]check.Status{"args": check.Pass, "env": check.Missing}), p)
	if r.Sections[0].ID != "env" || r.Sections[1].ID != "args" || !r.Sections[1].Again {
		t.Errorf("order: %+v", r.Sections)
	}
}

// The review names the earlier rounds too (report shows more than the current round).
func TestReviewNamesEarlierRounds(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	p := &Progress{Sections: map[string]*SectionProgress{"args": {Passed: t0}}}
	NewRound(t0.Add(time.Hour))(p)
	r := MakeReview([]string{"args", "env"}, nil, p)
	if len(r.Earlier) != 1 || r.Earlier[0].Passed != 1 || r.Earlier[0].Total != 2 {
		t.Errorf("earlier rounds: %+v", r.Earlier)
	}
}

// D10: however many new labs, progress.json stays readable: the rounds kept are bounded (the older
// counted), and nothing is written that its reader would refuse.
func TestRoundsAreBounded(t *testing.T) {
	s, err := NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	ids := []string{"args", "env", "mesh", "bootstrap", "typo", "ready", "identity", "report"}
	for i := 0; i < 3*maxRounds; i++ {
		results := make([]check.SectionResult, 0, len(ids))
		for _, id := range ids {
			results = append(results, check.SectionResult{ID: id, Status: check.Pass})
		}
		if _, err := s.Update(RecordCheck(results, t0)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Update(NewRound(t0.Add(time.Duration(i) * time.Minute))); err != nil {
			t.Fatal(err)
		}
	}
	p, err := s.Load()
	if err != nil || s.Warning.Key != "" {
		t.Fatalf("%v %v", err, s.Warning)
	}
	if len(p.Rounds) != maxRounds || p.OlderRounds != 2*maxRounds {
		t.Errorf("%d rounds kept, %d older counted", len(p.Rounds), p.OlderRounds)
	}
	if _, err := s.Update(func(p *Progress) { p.LastSection = strings.Repeat("x", maxProgress) }); !errors.Is(err, steps.ErrTooBig) {
		t.Errorf("an oversized write: %v", err)
	}
	if p, _ := s.Load(); p == nil || len(p.Rounds) != maxRounds {
		t.Error("the oversized write replaced the file")
	}
}

// D22: the drill counts saturate instead of wrapping, and a record edited out of shape restarts.
func TestDrillCountsDoNotWrap(t *testing.T) {
	d := DrillRecord{Done: math.MaxInt, Right: math.MaxInt - 1}
	d.Count(true)
	if d.Done != math.MaxInt || d.Right < 0 {
		t.Errorf("%+v", d)
	}
	bad := DrillRecord{Done: -5, Right: 9}
	bad.Count(true)
	if bad.Done != 1 || bad.Right != 1 {
		t.Errorf("%+v", bad)
	}
}

// D22: a temp file a killed write left is removed when the store is opened again.
func TestStaleTempFilesAreRemoved(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".progress.json.tmp-123")
	os.WriteFile(stale, []byte("{"), 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	if _, err := NewStore(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("the stale temp file is still there")
	}
}

// H2: failures seen from an editor (watch) or a run's end count as failures: the section is not
// passed first time, and after two it is among those to look at again; the same file judged twice
// is one failure.
func TestFailuresSeenAnyWayAreKept(t *testing.T) {
	s, err := NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	failed := func(text string) []check.SectionResult {
		return []check.SectionResult{{ID: "env", Status: check.Fail, Files: []check.FileResult{{File: "02-env.txt", Status: check.Fail, Produced: text}}}}
	}
	for i, text := range []string{"POD_NAMESPACE=default", "POD_NAMESPACE=default", "SERVICE_ACCOUNT missing"} {
		if _, err := s.Update(RecordQuiet(failed(text), t0.Add(time.Duration(i)*time.Second))); err != nil {
			t.Fatal(err)
		}
	}
	passed := []check.SectionResult{{ID: "env", Status: check.Pass, Files: []check.FileResult{{File: "02-env.txt", Status: check.Pass}}}}
	p, err := s.Update(RecordQuiet(passed, t0.Add(time.Minute)))
	if err != nil {
		t.Fatal(err)
	}
	e := p.Sections["env"]
	if e.FirstTime || e.Failures != 2 || e.Attempts != 0 {
		t.Errorf("env %+v", e)
	}
	r := MakeReview([]string{"args", "env"}, verdicts(map[string]check.Status{"args": check.Pass, "env": check.Pass}), p)
	for _, row := range r.Sections {
		if row.ID == "env" && (!row.Again || row.FirstTime) {
			t.Errorf("review %+v", row)
		}
	}
}

// D4: new-lab refuses by itself to replace fixtures that are not the sandbox's own (a --fixtures
// dir, lab mode's): nothing there is touched.
func TestNewLabLeavesOthersFixturesAlone(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, os.Getenv("PATH"))
	mine := t.TempDir()
	steptest.WriteFile(t, filepath.Join(mine, "inject-target.yaml"), "kind: Deployment\n")
	s, err := NewStore(env.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []steps.Env{{Mode: steps.SandboxMode, DataDir: env.DataDir, Fixtures: mine, WorkDir: env.WorkDir},
		{Mode: steps.LabMode, DataDir: env.DataDir, Fixtures: filepath.Join(env.DataDir, "fixtures"), WorkDir: env.WorkDir}} {
		if _, _, err := NewLab(l, &e, s, 1, time.Now()); !errors.Is(err, ErrNotOurFixtures) {
			t.Errorf("%s %s: %v", e.Mode, e.Fixtures, err)
		}
	}
	if got := steptest.ReadFile(t, filepath.Join(mine, "inject-target.yaml")); got != "kind: Deployment\n" {
		t.Errorf("the learner's fixtures changed: %q", got)
	}
}

// verdicts makes section results of the given states, with no files.
func verdicts(states map[string]check.Status) map[string]check.SectionResult {
	results := map[string]check.SectionResult{}
	for id, st := range states {
		results[id] = check.SectionResult{ID: id, Status: st}
	}
	return results
}

// A section with one file passed and another missing is partly done, not "not started" (ja r18
// M4, zh r18 L6); one with no file yet is not started.
func TestAStepWithAFilePassedIsPartlyDone(t *testing.T) {
	results := map[string]check.SectionResult{
		"args": {ID: "args", Status: check.Missing, Files: []check.FileResult{{Status: check.Pass}, {Status: check.Missing}}},
		"env":  {ID: "env", Status: check.Missing, Files: []check.FileResult{{Status: check.Missing}}},
	}
	r := MakeReview([]string{"args", "env"}, results, nil)
	keys := map[string]string{}
	for _, row := range r.Sections {
		keys[row.ID] = row.StepKey()
	}
	if keys["args"] != check.PartlyKey || keys["env"] != check.Missing.StepKey() {
		t.Errorf("state words: %v", keys)
	}
	if results["args"].StepKey() != check.PartlyKey {
		t.Errorf("section result: %s", results["args"].StepKey())
	}
}

package progress

import (
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/steptest"
)

// A FIFO as progress.json is put aside like a corrupt file, and fresh progress starts: the
// tutorial does not hang before its first frame.
func TestAFIFOAsProgressIsPutAside(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "progress.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := NewStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := s.Load(); done <- err }()
	select {
	case err := <-done:
		if err != nil || s.Warning.Key != "progress.corrupt" {
			t.Errorf("err %v, warning %q", err, s.Warning.Key)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("loading progress waits on the FIFO")
	}
	aside, _ := filepath.Glob(filepath.Join(dir, "progress.json.corrupt-*"))
	if fi, err := os.Lstat(filepath.Join(dir, "progress.json")); len(aside) != 1 || (err == nil && fi.Mode()&os.ModeNamedPipe != 0) {
		t.Errorf("aside %v, progress.json still a FIFO: %v", aside, err)
	}
}

// Corrupt progress files put aside in the same second are all kept, none over another.
func TestCorruptFilesPutAsideNeverOverwriteEachOther(t *testing.T) {
	dir := t.TempDir()
	s, err := NewStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := os.WriteFile(filepath.Join(dir, "progress.json"), []byte("{broken "+string(rune('a'+i))), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Load(); err != nil {
			t.Fatal(err)
		}
	}
	aside, _ := filepath.Glob(filepath.Join(dir, "progress.json.corrupt-*"))
	if len(aside) != 3 {
		t.Errorf("%d kept aside, want 3: %v", len(aside), aside)
	}
	// And when the clock gives the very same name, the next free one is taken.
	name := filepath.Join(dir, "x")
	os.WriteFile(name, nil, 0o644)
	if got := unusedName(name); got != name+"-2" {
		t.Errorf("unusedName: %s", got)
	}
}

// The attempts counter stops at its largest value instead of wrapping negative (which the next
// start would take for a corrupt file), and one check of a section named twice is one attempt.
func TestAttemptsSaturateAndCountOncePerCheck(t *testing.T) {
	p := &Progress{Version: progressVersion, Sections: map[string]*SectionProgress{"args": {Attempts: math.MaxInt}}}
	now := time.Now()
	RecordCheck([]check.SectionResult{{ID: "args", Status: check.Fail}}, now)(p)
	if p.Sections["args"].Attempts != math.MaxInt || !p.valid() {
		t.Errorf("attempts %d, valid %v", p.Sections["args"].Attempts, p.valid())
	}
	RecordCheck([]check.SectionResult{{ID: "env"}, {ID: "env"}, {ID: "env"}}, now)(p)
	if p.Sections["env"].Attempts != 1 {
		t.Errorf("env checked once counts %d attempts", p.Sections["env"].Attempts)
	}
}

// reset takes the progress lock before it moves anything: when another copy holds it, reset
// fails and every file is where it was (it used to move the files, then fail to clear progress).
func TestResetTakesTheLockFirst(t *testing.T) {
	if _, err := exec.LookPath("flock"); err != nil {
		t.Fatal("flock(1) from util-linux is needed for this test")
	}
	env := steptest.Env(t, "")
	steptest.CopyAnswers(t, env)
	s, _ := NewStore(env.StateDir)
	holder := exec.Command("flock", filepath.Join(s.Dir, "progress.lock"), "sleep", "30")
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = holder.Process.Kill(); _ = holder.Wait() })
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		f, _ := os.OpenFile(filepath.Join(s.Dir, "progress.lock"), os.O_CREATE|os.O_RDWR, 0o644)
		free := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
		f.Close()
		if !free {
			break
		}
	}
	_, err := Reset(steptest.Lesson(t), env, s, []string{"args"})
	if _, locked := err.(*LockedError); !locked {
		t.Fatalf("err %v", err)
	}
	if _, err := os.Stat(env.Path("inject.yaml")); err != nil {
		t.Errorf("inject.yaml moved although progress was locked: %v", err)
	}
}

// D12: two new labs at once do not mix: the second is refused while the first holds the lock, and
// the fixtures dir always holds one whole lab, its marker naming the seed its files were made from.
func TestNewLabIsOneAtATimeAndWhole(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, "/usr/bin:/bin")
	env.Fixtures = filepath.Join(env.DataDir, "fixtures")
	store, err := NewStore(env.StateDir)
	if err != nil {
		t.Fatal(err)
	}
	held, _ := os.OpenFile(filepath.Join(store.Dir, "newlab.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	syscall.Flock(int(held.Fd()), syscall.LOCK_EX)
	if _, _, err := NewLab(l, env, store, 7, time.Now()); !errors.Is(err, ErrNewLabRunning) {
		t.Errorf("while another runs: %v", err)
	}
	held.Close()
	// What a new-lab killed mid-way left (hostile L14) goes with the next; a link so named stays.
	killed := filepath.Join(env.DataDir, ".fixtures-new-123.old")
	os.MkdirAll(filepath.Join(killed, "sub"), 0o755)
	planted := filepath.Join(env.DataDir, ".fixtures-new-link")
	os.Symlink(t.TempDir(), planted)
	// The practice page's copy belongs to the old lab: it goes to the backup with the rest (ja r11).
	if err := os.MkdirAll(env.WorkDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(env.Path("practice.yaml"), []byte("node: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, seed := range []uint64{7, 11} {
		v, _, err := NewLab(l, env, store, seed, time.Now())
		if _, gone := os.Stat(env.Path("practice.yaml")); gone == nil {
			t.Errorf("seed %d: the old lab's practice.yaml stayed", seed)
		}
		if err != nil {
			t.Fatal(err)
		}
		marker, _ := os.ReadFile(filepath.Join(env.Fixtures, steps.NewLabMarker))
		target, _ := os.ReadFile(filepath.Join(env.Fixtures, "inject-target.yaml"))
		if !strings.Contains(string(marker), fmt.Sprint(seed)) || !strings.Contains(string(target), "name: "+v.Name) {
			t.Errorf("seed %d: marker %q, target of another lab", seed, marker)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(env.DataDir, ".fixtures-new-*")); len(left) != 1 || left[0] != planted {
		t.Errorf("left: %v", left)
	}
}

// Hostile L7: progress.json as a link is put aside (the link, not its target) so saves work
// again; lock files are not created through a dangling link; a progress the reader took, however
// large, is saved again.
func TestProgressThatCanAlwaysBeSavedAgain(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "synced.json")
	os.WriteFile(target, []byte(`{"version": 1, "sections": {}}`), 0o644)
	os.Symlink(target, filepath.Join(dir, "progress.json"))
	lockTarget := filepath.Join(t.TempDir(), "created-by-lock")
	os.Symlink(lockTarget, filepath.Join(dir, "instance.lock"))
	s, err := NewStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(func(p *Progress) { p.Lang = "zh" }); err != nil {
		t.Fatalf("a save after a linked progress.json: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != `{"version": 1, "sections": {}}` {
		t.Errorf("the link's target was changed: %q", b)
	}
	if s.Warning.Key != "progress.corrupt" {
		t.Errorf("warning %q", s.Warning.Key)
	}
	if _, _, err := s.AcquireInstance(); err == nil {
		t.Error("the instance lock was taken through a dangling link")
	}
	if _, err := os.Lstat(lockTarget); err == nil {
		t.Error("a lock created its link's target outside the state dir")
	}

	big := filepath.Join(t.TempDir(), "big")
	os.MkdirAll(big, 0o755)
	s, _ = NewStore(big)
	if _, err := s.Update(func(p *Progress) {
		for i := range 2500 { // ~1.3 MB indented, ~0.8 MB compact
			p.Rounds = append(p.Rounds, Round{Ended: time.Unix(int64(i), 0), Sections: map[string]*SectionProgress{
				"args": {Attempts: 2, HintsUsed: 1}, "env": {Attempts: 1}}})
		}
	}); err != nil {
		t.Fatalf("a large progress could not be saved: %v", err)
	}
	if _, err := s.Update(func(p *Progress) { p.Lang = "ja" }); err != nil {
		t.Errorf("a large progress, saved once, cannot be saved again: %v", err)
	}
}

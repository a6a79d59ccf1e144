package steps_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ist2-boot/steps"
	"ist2-boot/steps/steptest"
)

// A program reachable from two PATH entries that are one directory (/bin and /usr/bin on Debian)
// is asked its version once: a refused tool (Debian's yq, a Python program) used to be asked twice
// at every start.
func TestAToolIsAskedOnceThroughTwoPaths(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "asked.log")
	steptest.WriteFile(t, filepath.Join(real, "yq"), "#!/bin/sh\necho asked >> "+log+"\necho 'yq 0.0.1 (a jq wrapper)'\n")
	if err := os.Chmod(filepath.Join(real, "yq"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := steptest.Env(t, real+string(os.PathListSeparator)+link)
	spec, _ := steptest.Lesson(t).Tool("yq")
	got := steps.FindTools(env, []steps.ToolSpec{spec})
	if got.Get("yq").Found {
		t.Fatalf("a yq that is not mikefarah's was taken: %+v", got)
	}
	if n := strings.Count(steptest.ReadFile(t, log), "asked"); n != 1 {
		t.Errorf("asked %d times", n)
	}
}

// A program's answer to its version command is kept by (path after symlinks, size, mtime): the
// next start does not ask again; an upgraded program (another size or mtime) is asked; a corrupt
// cache is only a cache.
func TestAToolIsAskedOnceEver(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "asked.log")
	yq := filepath.Join(dir, "yq")
	script := "#!/bin/sh\necho asked >> " + log + "\necho 'yq (https://github.com/mikefarah/yq/) version v4.0.0'\n"
	steptest.WriteFile(t, yq, script)
	if err := os.Chmod(yq, 0o755); err != nil {
		t.Fatal(err)
	}
	env := steptest.Env(t, dir)
	spec, _ := steptest.Lesson(t).Tool("yq")
	asked := func() int { return strings.Count(steptest.ReadFile(t, log), "asked") }
	for range 3 {
		if !steps.FindTools(env, []steps.ToolSpec{spec}).Get("yq").Found {
			t.Fatal("yq not found")
		}
		steps.LocateTools(env, []steps.ToolSpec{spec})
	}
	if n := asked(); n != 1 {
		t.Errorf("asked %d times over six look-ups", n)
	}
	steptest.WriteFile(t, yq, script+"# upgraded\n")
	if v := steps.FindTools(env, []steps.ToolSpec{spec}).Get("yq").Version; asked() != 2 || !strings.Contains(v, "mikefarah") {
		t.Errorf("a changed program was not asked again (asked %d, version %q)", asked(), v)
	}
	entries, _ := filepath.Glob(filepath.Join(env.StateDir, "*"))
	if len(entries) != 1 {
		t.Fatalf("state dir holds %v, want the cache alone (no temp files left)", entries)
	}
	steptest.WriteFile(t, entries[0], "{not json")
	if !steps.FindTools(env, []steps.ToolSpec{spec}).Get("yq").Found || asked() != 3 {
		t.Errorf("a corrupt cache: asked %d", asked())
	}
}

// Without a state dir the answers are kept in memory only: nothing is written where the program
// happens to run (a test once left tool-versions.json in the package directory).
func TestNoStateDirWritesNothingHere(t *testing.T) {
	dir := t.TempDir()
	yq := filepath.Join(dir, "yq")
	steptest.WriteFile(t, yq, "#!/bin/sh\necho 'yq (https://github.com/mikefarah/yq/) version v4.0.0'\n")
	if err := os.Chmod(yq, 0o755); err != nil {
		t.Fatal(err)
	}
	env := steptest.Env(t, dir)
	env.StateDir = ""
	t.Chdir(t.TempDir())
	spec, _ := steptest.Lesson(t).Tool("yq")
	if !steps.FindTools(env, []steps.ToolSpec{spec}).Get("yq").Found {
		t.Fatal("yq not found")
	}
	if left, _ := filepath.Glob("*"); len(left) != 0 {
		t.Errorf("wrote %v in the current directory", left)
	}
}

// D22: a version command ended by a signal (Ctrl-C reached it, or it was killed) said nothing; that
// silence was kept as its answer, and every later start showed an empty version column.
func TestAVersionCommandEndedBySignalIsAskedAgain(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "asked.log")
	killed := filepath.Join(dir, "killed-once")
	yq := filepath.Join(dir, "yq")
	steptest.WriteFile(t, yq, "#!/bin/sh\necho asked >> "+log+"\n"+
		"if [ ! -e "+killed+" ]; then : > "+killed+"; kill -INT $$; kill -KILL $$; fi\n"+
		"echo 'yq (https://github.com/mikefarah/yq/) version v4.0.0'\n")
	if err := os.Chmod(yq, 0o755); err != nil {
		t.Fatal(err)
	}
	env := steptest.Env(t, dir)
	spec, _ := steptest.Lesson(t).Tool("yq")
	first := steps.FindTools(env, []steps.ToolSpec{spec}).Get("yq")
	if first.Found {
		t.Fatalf("a program that said nothing was taken: %+v", first)
	}
	second := steps.FindTools(env, []steps.ToolSpec{spec}).Get("yq")
	if !second.Found || !strings.Contains(second.Version, "mikefarah") {
		t.Errorf("after a version command ended by a signal, the next look-up gave %+v", second)
	}
	if n := strings.Count(steptest.ReadFile(t, log), "asked"); n != 2 {
		t.Errorf("asked %d times, want 2 (the signalled answer is not kept)", n)
	}
}

// Locating the tools (the tutorial's start, a setup a signal stopped) asks no version, but shows
// one asked before (hostile L15: an interrupted setup's table had no versions).
func TestLocatingShowsAVersionAskedBefore(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "asked.log")
	steptest.WriteFile(t, filepath.Join(dir, "jq"), "#!/bin/sh\necho asked >> "+log+"\necho jq-9.9\n")
	if err := os.Chmod(filepath.Join(dir, "jq"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := steptest.Env(t, dir)
	spec, _ := steptest.Lesson(t).Tool("jq")
	if got := steps.LocateTools(env, []steps.ToolSpec{spec}).Get("jq"); !got.Found || got.Version != "" {
		t.Fatalf("before any asking: %+v", got)
	}
	if got := steps.FindTools(env, []steps.ToolSpec{spec}).Get("jq"); got.Version != "jq-9.9" {
		t.Fatalf("asked: %+v", got)
	}
	if got := steps.LocateTools(env, []steps.ToolSpec{spec}).Get("jq"); got.Version != "jq-9.9" {
		t.Errorf("located after: %+v", got)
	}
	if n := strings.Count(steptest.ReadFile(t, log), "asked"); n != 1 {
		t.Errorf("asked %d times", n)
	}
}

// Package steptest holds what the engine's sub-packages share in their tests: the shipped lesson,
// a sandbox environment on the default fixtures, the right answers, the Envoy test double, and a
// PATH without chosen tools. Only tests import it; the program never does. (The steps package's
// own tests keep their copies: a package's tests cannot import what imports that package.)
package steptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"ist2-boot/content"
	"ist2-boot/steps"
)

// Root is the repository's root directory, found from this file's own place.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Lesson is the shipped lesson.
func Lesson(t testing.TB) *steps.Lesson {
	t.Helper()
	l, err := steps.LoadLesson(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// Env is a sandbox-shaped environment on a temp work dir with the default fixtures, whose PATH
// is path.
func Env(t testing.TB, path string) *steps.Env {
	t.Helper()
	fixtures := filepath.Join(Root(), "assets", "fixtures")
	dir := t.TempDir()
	env := &steps.Env{
		Mode: steps.SandboxMode, WorkDir: filepath.Join(dir, "work"), Fixtures: fixtures,
		Mesh:    filepath.Join(fixtures, "mesh-config.yaml"),
		DataDir: filepath.Join(dir, "data"), StateDir: filepath.Join(dir, "state"),
		ToolsDir: filepath.Join(dir, "data", "bin"),
		Getenv: func(k string) string {
			if k == "PATH" {
				return path
			}
			return os.Getenv(k)
		},
	}
	if err := os.MkdirAll(env.WorkDir, 0o755); err != nil {
		t.Fatal(err)
	}
	return env
}

// AnswersDir holds a complete set of right answers for the default fixtures.
func AnswersDir() string { return filepath.Join(Root(), "steps", "testdata", "answers") }

// CopyAnswers puts every right answer into the work dir.
func CopyAnswers(t testing.TB, env *steps.Env) {
	t.Helper()
	entries, err := os.ReadDir(AnswersDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		WriteFile(t, env.Path(e.Name()), ReadFile(t, filepath.Join(AnswersDir(), e.Name())))
	}
}

// WriteFile writes text to path or fails the test.
func WriteFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ReadFile reads path or fails the test.
func ReadFile(t testing.TB, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

var (
	fakeEnvoyOnce sync.Once
	fakeEnvoyDir  string
	fakeEnvoyErr  error
)

// FakeEnvoyPath builds the Envoy test double (steps/testdata/fakeenvoy) as "envoy" in a temp dir
// once, and returns that dir.
func FakeEnvoyPath(t testing.TB) string {
	t.Helper()
	fakeEnvoyOnce.Do(func() {
		fakeEnvoyDir, fakeEnvoyErr = os.MkdirTemp("", "ist2-boot-fakeenvoy-")
		if fakeEnvoyErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(fakeEnvoyDir, "envoy"), "./steps/testdata/fakeenvoy")
		cmd.Dir = Root()
		if out, err := cmd.CombinedOutput(); err != nil {
			fakeEnvoyErr = &buildError{string(out)}
		}
	})
	if fakeEnvoyErr != nil {
		t.Fatal(fakeEnvoyErr)
	}
	return fakeEnvoyDir
}

type buildError struct{ out string }

func (e *buildError) Error() string { return "building the Envoy test double: " + e.out }

// PathWithout is $PATH without any directory that holds one of the named programs, so a test
// controls which tools exist.
func PathWithout(names ...string) string {
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		hide := false
		for _, n := range names {
			if steps.IsExecutable(filepath.Join(d, n)) {
				hide = true
			}
		}
		if !hide {
			keep = append(keep, d)
		}
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// Alive: the process runs (not gone, not a zombie waiting for a parent).
func Alive(pid int) bool {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

// Testdata is a file or directory of steps/testdata (the test doubles and the answers).
func Testdata(name string) string { return filepath.Join(Root(), "steps", "testdata", name) }

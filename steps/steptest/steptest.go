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

// NoNetwork is a base URL nothing answers at (the discard port, refused at once): tests that run
// setup never reach the internet for Envoy; the ones about downloads serve it from httptest.
const NoNetwork = "http://127.0.0.1:9"

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
			switch k {
			case "PATH":
				return path
			case "IST2_BOOT_ENVOY_URL":
				return NoNetwork
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

// builds are the programs built for tests in this process: package dir → its result.
var (
	buildsMu sync.Mutex
	builds   = map[string]*built{}
)

type built struct {
	once sync.Once
	path string
	err  error
}

// Build builds the program in pkg (a directory relative to the repository root, e.g. "." or
// "./steps/testdata/fakeenvoy") once per test process, as name in a temp dir of its own, and
// returns its path. A package's TestMain may call RemoveBuilds when its tests are done.
func Build(t testing.TB, pkg, name string) string {
	t.Helper()
	buildsMu.Lock()
	b := builds[pkg]
	if b == nil {
		b = &built{}
		builds[pkg] = b
	}
	buildsMu.Unlock()
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "ist2-boot-build-")
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(dir, name)
		cmd := exec.Command("go", "build", "-o", b.path, pkg)
		cmd.Dir = Root()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = &buildError{pkg, string(out)}
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// Main runs a package's tests, then removes what Build made for them: a package that builds a
// program for its tests says `func TestMain(m *testing.M) { steptest.Main(m) }`.
func Main(m *testing.M) {
	code := m.Run()
	RemoveBuilds()
	os.Exit(code)
}

// RemoveBuilds deletes what Build made in this process.
func RemoveBuilds() {
	buildsMu.Lock()
	defer buildsMu.Unlock()
	for pkg, b := range builds {
		if b.path != "" {
			os.RemoveAll(filepath.Dir(b.path))
		}
		delete(builds, pkg)
	}
}

// FakeEnvoyPath builds the Envoy test double (steps/testdata/fakeenvoy) as "envoy" once, and
// returns its dir.
func FakeEnvoyPath(t testing.TB) string {
	t.Helper()
	return filepath.Dir(Build(t, "./steps/testdata/fakeenvoy", "envoy"))
}

type buildError struct{ pkg, out string }

func (e *buildError) Error() string { return "go build " + e.pkg + ": " + e.out }

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

// CopyFile copies a file (a test's fixture into its sandbox).
func CopyFile(t testing.TB, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

package steps

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"ist2-boot/content"
)

// testLesson is the shipped lesson.
func testLesson(t testing.TB) *Lesson {
	t.Helper()
	l, err := LoadLesson(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// answersDir holds a complete set of right answers for the default fixtures: the text files as the
// lab's reference commands wrote them, 04-validate.txt and 05-typo.txt as Envoy prints them.
const answersDir = "testdata/answers"

// testEnv is a sandbox-shaped Env on a temp work dir with the default fixtures, whose PATH is path.
func testEnv(t testing.TB, path string) *Env {
	t.Helper()
	fixtures, err := filepath.Abs("../assets/fixtures")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	env := &Env{
		Mode: SandboxMode, WorkDir: filepath.Join(dir, "work"), Fixtures: fixtures,
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

// copyAnswers puts every right answer into the work dir.
func copyAnswers(t testing.TB, env *Env) {
	t.Helper()
	entries, err := os.ReadDir(answersDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		raw, err := os.ReadFile(filepath.Join(answersDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, env.Path(e.Name()), string(raw))
	}
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t testing.TB, path string) string {
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

// fakeEnvoyPath builds the Envoy test double (testdata/fakeenvoy) as "envoy" in a temp dir once.
func fakeEnvoyPath(t testing.TB) string {
	t.Helper()
	fakeEnvoyOnce.Do(func() {
		fakeEnvoyDir, fakeEnvoyErr = os.MkdirTemp("", "ist2-boot-fakeenvoy-")
		if fakeEnvoyErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(fakeEnvoyDir, "envoy"), "./testdata/fakeenvoy").CombinedOutput()
		if err != nil {
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

// pathWithout is $PATH without any directory that holds one of the named programs, so a test
// controls which tools exist.
func pathWithout(names ...string) string {
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		hide := false
		for _, n := range names {
			if IsExecutable(filepath.Join(d, n)) {
				hide = true
			}
		}
		if !hide {
			keep = append(keep, d)
		}
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

package setup

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/run"
	"ist2-boot/steps/steptest"
)

// setupEnv is a sandbox whose PATH holds only the test doubles given and the system's own
// directories (bash, sed…); the tools dir starts empty.
func setupEnv(t *testing.T, doubles ...string) (*steps.Env, *steps.Lesson) {
	t.Helper()
	env := steptest.Env(t, "")
	var dirs []string
	for _, d := range doubles {
		abs, err := filepath.Abs(d)
		if err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, abs)
	}
	path := strings.Join(append(dirs, "/usr/bin", "/bin"), string(os.PathListSeparator))
	env.Getenv = func(k string) string {
		switch k {
		case "PATH":
			return path
		case "IST2_BOOT_ENVOY_URL":
			return steptest.NoNetwork
		}
		return os.Getenv(k)
	}
	return env, steptest.Lesson(t)
}

type events []SetupEvent

func (e *events) add(ev SetupEvent) { *e = append(*e, ev) }

func (e events) of(tool string, kind SetupKind) *SetupEvent {
	for i := range e {
		if e[i].Tool == tool && e[i].Kind == kind {
			return &e[i]
		}
	}
	return nil
}

func TestSetupInstallsWithGoAndIsIdempotent(t *testing.T) {
	env, l := setupEnv(t, steptest.Testdata("fakego"))
	log := filepath.Join(t.TempDir(), "go.log")
	t.Setenv("FAKE_GO_LOG", log)
	var got events
	tools, _ := (&Installer{Lesson: l, Env: env}).Setup(context.Background(), got.add)
	for _, name := range []string{"istioctl", "yq"} {
		if !tools.Get(name).Found || tools.Get(name).Path != filepath.Join(env.ToolsDir, name) {
			t.Errorf("%s: %+v", name, tools.Get(name))
		}
		if got.of(name, SetupStart) == nil || got.of(name, SetupLine) == nil || got.of(name, SetupDone) == nil {
			t.Errorf("%s: no start, build line or done: %+v", name, got)
		}
	}
	calls := steptest.ReadFile(t, log)
	for _, spec := range l.Tools {
		if spec.Install != nil && spec.Name != "jq" && !strings.Contains(calls, "install -v "+spec.Install.Module) {
			t.Errorf("go not asked for %s:\n%s", spec.Install.Module, calls)
		}
	}
	if !strings.Contains(calls, "GOBIN="+env.ToolsDir+"/.install-") {
		t.Errorf("not built in a temp dir of the tools dir:\n%s", calls)
	}
	// Envoy: the release binary cannot be reached here (steptest.NoNetwork), and there is no
	// container runtime: both said, with the next steps.
	var said []string
	for _, e := range got {
		if e.Tool == "envoy" && e.Kind == SetupFail {
			said = append(said, e.Msg.Key)
		}
	}
	if strings.Join(said, " ") != "setup.download_failed" || !strings.Contains(got.of("envoy", SetupFail).Msg.In(i18n.Japanese), "--from") {
		t.Errorf("envoy offline without docker: %v", said)
	}
	// Again: nothing to do, go not called, quick.
	start := time.Now()
	var again events
	(&Installer{Lesson: l, Env: env}).Setup(context.Background(), again.add)
	if steptest.ReadFile(t, log) != calls || again.of("istioctl", SetupSkip) == nil || time.Since(start) > 3*time.Second {
		t.Errorf("second run did work: %v, %+v", time.Since(start), again)
	}
}

func TestSetupInstallsGojqAsJqOnlyWithoutJq(t *testing.T) {
	env, l := setupEnv(t, steptest.Testdata("fakego"))
	t.Setenv("FAKE_GO_LOG", filepath.Join(t.TempDir(), "go.log"))
	// A lesson whose only tool is a jq nobody has installed.
	spec, _ := l.Tool("jq")
	spec.Name = "jq-for-test"
	l.Tools = []steps.ToolSpec{spec}
	var got events
	tools, err := (&Installer{Lesson: l, Env: env}).Setup(context.Background(), got.add)
	if err != nil || !tools.Get("jq-for-test").Found || !strings.Contains(steptest.ReadFile(t, filepath.Join(env.ToolsDir, "jq-for-test")), "gojq") {
		t.Fatalf("gojq as jq: %v %+v", err, tools)
	}
}

func TestInterruptedInstallLeavesNothing(t *testing.T) {
	env, l := setupEnv(t, steptest.Testdata("fakego"))
	t.Setenv("FAKE_GO_LOG", filepath.Join(t.TempDir(), "go.log"))
	t.Setenv("FAKE_GO_SLEEP", "30")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	var got events
	_, err := (&Installer{Lesson: l, Env: env}).Setup(ctx, got.add)
	if err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("err %v after %v", err, time.Since(start))
	}
	entries, _ := os.ReadDir(env.ToolsDir)
	if len(entries) != 0 {
		t.Errorf("left in the tools dir: %v", entries)
	}
	if ev := got.of("istioctl", SetupFail); ev == nil || ev.Msg.Key != "setup.interrupted" {
		t.Errorf("%+v", got)
	}
}

func TestSetupWithoutGoSaysWhatToInstall(t *testing.T) {
	env, l := setupEnv(t)
	if _, err := exec.LookPath("/usr/bin/go"); err == nil {
		t.Fatal("this test needs a machine without /usr/bin/go")
	}
	var got events
	(&Installer{Lesson: l, Env: env}).Setup(context.Background(), got.add)
	ev := got.of("istioctl", SetupFail)
	if ev == nil || ev.Msg.Key != "setup.no_go" || !strings.Contains(ev.Msg.In(i18n.Japanese), "Go 1.26") {
		t.Fatalf("%+v", got)
	}
}

func TestSetupFailedBuild(t *testing.T) {
	env, l := setupEnv(t, steptest.Testdata("fakego"))
	t.Setenv("FAKE_GO_LOG", filepath.Join(t.TempDir(), "go.log"))
	t.Setenv("FAKE_GO_FAIL", "1")
	var got events
	_, err := (&Installer{Lesson: l, Env: env}).Setup(context.Background(), got.add)
	if err == nil || got.of("istioctl", SetupFail) == nil {
		t.Fatalf("%v %+v", err, got)
	}
	if entries, _ := os.ReadDir(env.ToolsDir); len(entries) != 0 {
		t.Errorf("left: %v", entries)
	}
}

// The envoy wrapper runs the pinned image with the work dir at the same path and the host
// network; validate mode answers through it; a TERM to it (the lab's stop by pid) stops the
// container.
func TestEnvoyWrapper(t *testing.T) {
	env, l := setupEnv(t, steptest.Testdata("fakego"), steptest.Testdata("fakedocker"))
	t.Setenv("FAKE_GO_LOG", filepath.Join(t.TempDir(), "go.log"))
	dockerLog := filepath.Join(t.TempDir(), "docker.log")
	t.Setenv("FAKE_DOCKER_LOG", dockerLog)
	spec, _ := l.Tool("envoy")
	asked := ""
	var got events
	tools, _ := (&Installer{Lesson: l, Env: env, Envoy: func(runtime, image string) bool { asked = runtime + " " + image; return true }}).Setup(context.Background(), got.add)
	if asked != "docker "+spec.Container || !tools.Get("envoy").Found || got.of("envoy", SetupDone) == nil {
		t.Fatalf("asked %q, %+v, %+v", asked, tools.Get("envoy"), got)
	}
	wrapper := filepath.Join(env.ToolsDir, "envoy")
	cmdEnv := env.CommandEnv(tools, l.Params, steps.ResolveFixtures(env))
	bootstrap := env.Path("bootstrap.yaml")
	steptest.WriteFile(t, bootstrap, "admin: {}\n")

	validate := exec.Command(wrapper, "--mode", "validate", "-c", bootstrap)
	validate.Dir, validate.Env = env.WorkDir, cmdEnv
	out, err := validate.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "configuration '"+bootstrap+"' OK" {
		t.Fatalf("validate through the wrapper: %v %s", err, out)
	}
	dockerRun := ""
	for _, l := range strings.Split(strings.TrimSpace(steptest.ReadFile(t, dockerLog)), "\n") {
		if strings.HasPrefix(l, "run ") {
			dockerRun = l
			break
		}
	}
	want := "run --rm --name ist2-boot-envoy-"
	if !strings.HasPrefix(dockerRun, want) || !strings.Contains(dockerRun, "--network host -v "+env.WorkDir+":"+env.WorkDir+" -w "+env.WorkDir+" "+spec.Container+" envoy --mode validate -c "+bootstrap) {
		t.Errorf("docker argv: %s", dockerRun)
	}

	// Section 6's way: detached, pid recorded, stopped by pid.
	start := exec.Command("setsid", "sh", "-c", `"$0" -c "$1" --log-level warn > envoy.log 2>&1 < /dev/null & echo $! > envoy.pid`, wrapper, bootstrap)
	start.Dir, start.Env = env.WorkDir, cmdEnv
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("start: %v %s", err, out)
	}
	pidFile := env.Path("envoy.pid")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(steptest.ReadFile(t, dockerLog), "envoy -c "+bootstrap) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if err := run.RecordEnvoy(pidFile); err != nil { // as the runner does after section 6
		t.Fatal(err)
	}
	pid, ours := run.RunningEnvoy(pidFile)
	if !ours {
		t.Fatalf("the wrapper's pid %d is not recognised as our Envoy", pid)
	}
	if _, stopped := run.StopEnvoy(pidFile); !stopped {
		t.Fatal("not stopped")
	}
	name := "ist2-boot-envoy-" + strconv.Itoa(pid)
	if !strings.Contains(steptest.ReadFile(t, dockerLog), "stop -t 5 "+name) {
		t.Errorf("the container was not stopped:\n%s", steptest.ReadFile(t, dockerLog))
	}
	if steptest.Alive(pid) {
		t.Error("the wrapper still runs")
	}
	version := exec.Command(wrapper, "--version")
	if out, err := version.Output(); err != nil || !strings.Contains(string(out), spec.Container) {
		t.Errorf("--version: %v %s", err, out)
	}
}

// The real Go toolchain builds the pinned yq into the tools dir, and the result is mikefarah's.
func TestSetupRealYq(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("go is needed to test setup with the real toolchain")
	}
	env, l := setupEnv(t, filepath.Dir(goBin))
	spec, _ := l.Tool("yq")
	l.Tools = []steps.ToolSpec{spec}
	var got events
	tools, err := (&Installer{Lesson: l, Env: env}).Setup(context.Background(), got.add)
	yq := tools.Get("yq")
	if err != nil || !yq.Found || yq.Path != filepath.Join(env.ToolsDir, "yq") || !strings.Contains(yq.Version, "v4.54.3") {
		t.Fatalf("%v %+v %+v", err, yq, got)
	}
}

package setup

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"ist2-boot/steps"
	"ist2-boot/steps/steptest"
)

// standIn is a tiny program served in place of Envoy's release binary (never shipped): it answers
// --version as Envoy 1.39.0 does.
const standIn = "#!/bin/sh\necho 'envoy  version: 8eea3285d6bdb89f8ea34632cfe7ce1608a8f374/1.39.0/Clean/RELEASE/BoringSSL'\n"

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// envoyOnly is the lesson with Envoy alone, its amd64 pin moved to the stand-in's digest (the
// real binary cannot be served here), and an environment whose mirror variable points at url.
func envoyOnly(t *testing.T, url string, doubles ...string) (*steps.Env, *steps.Lesson, steps.ToolSpec) {
	t.Helper()
	env, l := setupEnv(t, doubles...)
	getenv := env.Getenv
	env.Getenv = func(k string) string {
		if k == "IST2_BOOT_ENVOY_URL" {
			return url
		}
		return getenv(k)
	}
	spec, _ := l.Tool("envoy")
	rel := *spec.Release
	rel.Assets = map[string]steps.ReleaseAsset{
		"amd64": {Name: rel.Assets["amd64"].Name, SHA256: digest(standIn)},
		"arm64": {Name: rel.Assets["arm64"].Name, SHA256: digest("the arm64 build")},
	}
	spec.Release = &rel
	l.Tools = []steps.ToolSpec{spec}
	return env, l, spec
}

// server serves body at the release path for amd64, counting requests and noting Range headers.
type server struct {
	*httptest.Server
	requests atomic.Int32
	ranges   atomic.Int32
}

func serve(t *testing.T, handler func(w http.ResponseWriter, r *http.Request)) *server {
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		if r.Header.Get("Range") != "" {
			s.ranges.Add(1)
		}
		if r.URL.Path != "/v1.39.0/envoy-1.39.0-linux-x86_64" {
			http.NotFound(w, r)
			return
		}
		handler(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func serveBytes(body string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "envoy", time.Time{}, strings.NewReader(body))
	}
}

func linux(env *steps.Env, l *steps.Lesson) *Installer {
	return &Installer{Lesson: l, Env: env, OS: "linux", Arch: "amd64"}
}

// The release binary is downloaded, checked, put in the tools dir and asked its version, with
// progress on the way; a second setup changes nothing and asks the server nothing.
func TestEnvoyReleaseIsDownloadedOnce(t *testing.T) {
	srv := serve(t, serveBytes(standIn))
	env, l, _ := envoyOnly(t, srv.URL)
	var got events
	tools, err := linux(env, l).Setup(context.Background(), got.add)
	envoy := tools.Get("envoy")
	if err != nil || !envoy.Found || envoy.Path != filepath.Join(env.ToolsDir, "envoy") || envoy.Origin != steps.FromRelease {
		t.Fatalf("%v %+v %+v", err, envoy, got)
	}
	done := got.of("envoy", SetupDone)
	if done == nil || done.Msg.Key != "setup.envoy_installed" || !strings.Contains(done.Msg.Args["version"], "1.39.0") {
		t.Errorf("done: %+v", done)
	}
	if p := got.of("envoy", SetupProgress); p == nil || p.Unit != Bytes {
		t.Errorf("no download progress: %+v", got)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(env.ToolsDir, ".*")); len(leftovers) > 0 {
		t.Errorf("left in the tools dir: %v", leftovers)
	}
	asked := srv.requests.Load()
	var again events
	linux(env, l).Setup(context.Background(), again.add)
	if srv.requests.Load() != asked || again.of("envoy", SetupSkip) == nil {
		t.Errorf("second setup: %d more requests, %+v", srv.requests.Load()-asked, again)
	}
}

// A file that is not the pinned build is deleted and reported, never made executable or run.
func TestEnvoyDownloadWithTheWrongDigestIsDeleted(t *testing.T) {
	srv := serve(t, serveBytes("#!/bin/sh\necho pwned > \"$HOME/pwned\"\n"))
	env, l, spec := envoyOnly(t, srv.URL)
	var got events
	tools, err := linux(env, l).Setup(context.Background(), got.add)
	fail := got.of("envoy", SetupFail)
	if err != nil || tools.Get("envoy").Found || fail == nil || fail.Msg.Key != "setup.checksum_mismatch" || fail.Msg.Args["want"] != spec.Release.Assets["amd64"].SHA256 {
		t.Fatalf("%v %+v %+v", err, tools.Get("envoy"), got)
	}
	if entries, _ := os.ReadDir(env.ToolsDir); len(entries) != 0 {
		t.Errorf("left in the tools dir: %v", entries)
	}
}

// A missing file (404) is said with the URL and the next steps; nothing is left.
func TestEnvoyDownloadNotFound(t *testing.T) {
	srv := serve(t, serveBytes(standIn))
	env, l, _ := envoyOnly(t, srv.URL+"/no/such/mirror")
	var got events
	linux(env, l).Setup(context.Background(), got.add)
	fail := got.of("envoy", SetupFail)
	if fail == nil || fail.Msg.Key != "setup.download_failed" || !strings.Contains(fail.Msg.Args["error"], "404") || !strings.Contains(fail.Msg.Args["url"], "/no/such/mirror/v1.39.0/") {
		t.Fatalf("%+v", got)
	}
	if srv.requests.Load() != 1 {
		t.Errorf("a 404 was asked %d times", srv.requests.Load())
	}
	if entries, _ := os.ReadDir(env.ToolsDir); len(entries) != 0 {
		t.Errorf("left in the tools dir: %v", entries)
	}
}

// A connection closed mid-body is resumed from where it broke (a Range request), and the file
// assembled is the pinned one.
func TestEnvoyDownloadResumesAfterABrokenConnection(t *testing.T) {
	var first atomic.Bool
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if !first.Swap(true) { // the first answer promises the whole file and sends half
			w.Header().Set("Content-Length", strconv.Itoa(len(standIn)))
			w.WriteHeader(http.StatusOK)
			w.Write([]byte(standIn[:len(standIn)/2]))
			w.(http.Flusher).Flush()
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
			return
		}
		serveBytes(standIn)(w, r)
	})
	env, l, _ := envoyOnly(t, srv.URL)
	var got events
	tools, err := linux(env, l).Setup(context.Background(), got.add)
	if err != nil || !tools.Get("envoy").Found || srv.ranges.Load() != 1 {
		t.Fatalf("%v %+v, %d range requests, %+v", err, tools.Get("envoy"), srv.ranges.Load(), got)
	}
}

// A part file an interrupted setup left is resumed by the next one, not fetched again.
func TestEnvoyDownloadResumesAnInterruptedSetup(t *testing.T) {
	srv := serve(t, serveBytes(standIn))
	env, l, _ := envoyOnly(t, srv.URL)
	part := filepath.Join(env.ToolsDir, ".envoy-1.39.0-linux-x86_64.part")
	if err := os.MkdirAll(env.ToolsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	steptest.WriteFile(t, part, standIn[:10])
	tools, err := linux(env, l).Setup(context.Background(), func(SetupEvent) {})
	if err != nil || !tools.Get("envoy").Found || srv.ranges.Load() != 1 {
		t.Fatalf("%v %+v, %d range requests", err, tools.Get("envoy"), srv.ranges.Load())
	}
}

// A slow download shows its progress as it goes: bytes growing to the total.
func TestEnvoyDownloadReportsProgress(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(standIn)))
		for i := 0; i < len(standIn); i += 20 {
			w.Write([]byte(standIn[i:min(i+20, len(standIn))]))
			w.(http.Flusher).Flush()
			time.Sleep(150 * time.Millisecond)
		}
	})
	env, l, _ := envoyOnly(t, srv.URL)
	var got events
	if _, err := linux(env, l).Setup(context.Background(), got.add); err != nil {
		t.Fatal(err)
	}
	var seen []int64
	for _, e := range got {
		if e.Kind == SetupProgress {
			if e.Total != int64(len(standIn)) {
				t.Errorf("total %d, want %d", e.Total, len(standIn))
			}
			seen = append(seen, e.Done)
		}
	}
	if len(seen) < 3 || seen[len(seen)-1] != int64(len(standIn)) {
		t.Errorf("progress: %v", seen)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] < seen[i-1] {
			t.Errorf("progress went back: %v", seen)
		}
	}
}

// On a machine with no official build (another architecture, or macOS) nothing is downloaded:
// the learner is told what there is (Homebrew on macOS).
func TestEnvoyNoReleaseForThisMachine(t *testing.T) {
	srv := serve(t, serveBytes(standIn))
	for _, tc := range []struct{ os, arch, key string }{
		{"linux", "riscv64", "setup.no_release_build"},
		{"darwin", "arm64", "setup.envoy_brew"},
	} {
		env, l, _ := envoyOnly(t, srv.URL)
		var got events
		(&Installer{Lesson: l, Env: env, OS: tc.os, Arch: tc.arch}).Setup(context.Background(), got.add)
		if skip := got.of("envoy", SetupSkip); skip == nil || skip.Msg.Key != tc.key {
			t.Errorf("%s/%s: %+v", tc.os, tc.arch, got)
		}
	}
	if srv.requests.Load() != 0 {
		t.Errorf("%d requests", srv.requests.Load())
	}
}

// --from installs a file the learner fetched elsewhere if it is the pinned build for this
// machine, and says its version; another file is refused and left where it was.
func TestEnvoyFromAFile(t *testing.T) {
	env, l, spec := envoyOnly(t, steptest.NoNetwork)
	good := filepath.Join(t.TempDir(), "envoy-1.39.0-linux-x86_64")
	steptest.WriteFile(t, good, standIn)
	var got events
	if err := linux(env, l).From(context.Background(), "envoy", good, got.add); err != nil {
		t.Fatalf("%v %+v", err, got)
	}
	if done := got.of("envoy", SetupDone); done == nil || !strings.Contains(done.Msg.Args["version"], "1.39.0") {
		t.Errorf("%+v", got)
	}
	if fi, err := os.Stat(filepath.Join(env.ToolsDir, "envoy")); err != nil || fi.Mode()&0o111 == 0 {
		t.Errorf("not installed executable: %v", err)
	}
	if _, err := os.Stat(good); err != nil {
		t.Errorf("the learner's file was moved: %v", err)
	}

	for _, tc := range []struct{ name, body, key string }{
		{"other", "not envoy at all", "setup.checksum_mismatch_given"},
		{"arm64", "the arm64 build", "setup.wrong_arch"},
	} {
		env, l, _ := envoyOnly(t, steptest.NoNetwork)
		bad := filepath.Join(t.TempDir(), tc.name)
		steptest.WriteFile(t, bad, tc.body)
		var got events
		err := linux(env, l).From(context.Background(), "envoy", bad, got.add)
		fail := got.of("envoy", SetupFail)
		if err == nil || fail == nil || fail.Msg.Key != tc.key {
			t.Errorf("%s: %v %+v", tc.name, err, got)
		}
		if _, err := os.Stat(bad); err != nil {
			t.Errorf("%s: the learner's file was deleted", tc.name)
		}
		if _, err := os.Stat(filepath.Join(env.ToolsDir, "envoy")); err == nil {
			t.Errorf("%s: installed", tc.name)
		}
	}
	_ = spec
}

// Where the download cannot be had, a container runtime is offered only if its daemon answers.
func TestEnvoyWrapperOnlyWithADaemon(t *testing.T) {
	t.Setenv("FAKE_DOCKER_LOG", filepath.Join(t.TempDir(), "docker.log"))
	for _, daemon := range []bool{true, false} {
		if daemon {
			t.Setenv("FAKE_DOCKER_NO_DAEMON", "")
		} else {
			t.Setenv("FAKE_DOCKER_NO_DAEMON", "1")
		}
		env, l, _ := envoyOnly(t, steptest.NoNetwork, steptest.Testdata("fakedocker"))
		asked := false
		var got events
		tools, _ := (&Installer{Lesson: l, Env: env, OS: "linux", Arch: "amd64", Envoy: func(string, string) bool { asked = true; return true }}).Setup(context.Background(), got.add)
		if daemon && (!asked || tools.Get("envoy").Origin != steps.FromWrapper) {
			t.Errorf("with a daemon: asked %v, %+v, %+v", asked, tools.Get("envoy"), got)
		}
		if !daemon {
			var keys []string
			for _, e := range got {
				if e.Kind == SetupFail {
					keys = append(keys, e.Msg.Key)
				}
			}
			if asked || tools.Get("envoy").Found || strings.Join(keys, " ") != "setup.download_failed setup.no_daemon" {
				t.Errorf("without a daemon: asked %v, %v, %+v", asked, keys, got)
			}
		}
	}
}

// A go install shows packages compiled out of those its build plan lists.
func TestGoInstallReportsPackages(t *testing.T) {
	env, l := setupEnv(t, steptest.Testdata("fakego"))
	t.Setenv("FAKE_GO_LOG", filepath.Join(t.TempDir(), "go.log"))
	t.Setenv("FAKE_GO_PACKAGES", "5")
	spec, _ := l.Tool("yq")
	l.Tools = []steps.ToolSpec{spec}
	var got events
	if _, err := (&Installer{Lesson: l, Env: env}).Setup(context.Background(), got.add); err != nil {
		t.Fatal(err)
	}
	var done []int64
	for _, e := range got {
		if e.Kind == SetupProgress && e.Unit == Packages && e.Total == 5 {
			done = append(done, e.Done)
		}
	}
	if len(done) != 5 || done[0] != 1 || done[4] != 5 {
		t.Errorf("packages: %v (%+v)", done, got)
	}
}

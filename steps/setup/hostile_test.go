package setup

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"ist2-boot/steps"
)

// D3: setup --from never deletes the learner's file, wherever its path points (a path through the
// tools dir and .. included): only the part file a download made is ours to delete.
func TestFromNeverDeletesTheLearnersFile(t *testing.T) {
	env, l, _ := envoyOnly(t, "http://127.0.0.1:1")
	os.MkdirAll(env.ToolsDir, 0o755)
	victim := filepath.Join(filepath.Dir(env.ToolsDir), "bootstrap.yaml")
	os.WriteFile(victim, []byte("not envoy"), 0o644)
	via := filepath.Join(env.ToolsDir, "..", "bootstrap.yaml")
	var got events
	if err := linux(env, l).From(context.Background(), "envoy", via, got.add); err == nil {
		t.Fatal("a wrong file was accepted")
	}
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("the learner's file is gone: %v", err)
	}
}

// D4: a part file planted as a link is not followed: nothing outside the tools dir is written or
// made executable, no envoy is installed, and the reason is said.
func TestAPlantedPartLinkIsNotFollowed(t *testing.T) {
	srv := serve(t, serveBytes(standIn))
	env, l, _ := envoyOnly(t, srv.URL)
	os.MkdirAll(env.ToolsDir, 0o755)
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("keep"), 0o600)
	os.Symlink(victim, filepath.Join(env.ToolsDir, ".envoy-1.39.0-linux-x86_64.part"))
	var got events
	linux(env, l).Setup(context.Background(), got.add)
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Error("written through the planted link")
	}
	if fi, _ := os.Stat(victim); fi.Mode().Perm() != 0o600 {
		t.Errorf("the link's target was chmodded: %v", fi.Mode())
	}
	if _, err := os.Lstat(filepath.Join(env.ToolsDir, "envoy")); err == nil {
		t.Error("an envoy was installed")
	}
	if f := got.of("envoy", SetupFail); f == nil || !strings.Contains(f.Msg.Args["error"], "not a regular file") {
		t.Errorf("the reason is not said: %+v", got)
	}
}

// D5: an endless body is cut at the pinned size; the part file never grows past it.
func TestADownloadIsCutAtThePinnedSize(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		chunk := []byte(strings.Repeat("x", 64<<10))
		for i := 0; i < 1000; i++ { // 64 MB, far over the pin
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	env, l := pinnedTo(t, srv.URL, 1<<20)
	var got events
	linux(env, l).Setup(context.Background(), got.add)
	if f := got.of("envoy", SetupFail); f == nil || f.Msg.Args["error"] != errTooBig.Error() {
		t.Errorf("no refusal of the size: %+v", got)
	}
	if fi, err := os.Stat(filepath.Join(env.ToolsDir, ".envoy-1.39.0-linux-x86_64.part")); err == nil && fi.Size() > 1<<20 {
		t.Errorf("part file %d bytes, over the pin", fi.Size())
	}
}

// D13: two setups at once do not share the part file: the second says another is downloading.
func TestTwoSetupsDoNotShareThePartFile(t *testing.T) {
	release := make(chan struct{})
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(standIn)))
		w.Write([]byte(standIn[:10]))
		w.(http.Flusher).Flush()
		<-release
		w.Write([]byte(standIn[10:]))
	})
	env, l, _ := envoyOnly(t, srv.URL)
	var wg sync.WaitGroup
	var first events
	wg.Go(func() { linux(env, l).Setup(context.Background(), first.add) })
	deadline := time.Now().Add(5 * time.Second)
	for first.of("envoy", SetupProgress) == nil && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	var second events
	linux(env, l).Setup(context.Background(), second.add)
	close(release)
	wg.Wait()
	if f := second.of("envoy", SetupFail); f == nil || f.Msg.Key != "setup.busy" {
		t.Errorf("the second setup: %+v", second)
	}
	if d := first.of("envoy", SetupDone); d == nil {
		t.Errorf("the first setup did not finish: %+v", first)
	}
}

// D14: a server that trickles is given up on, with a reason, instead of waited for for ever.
func TestASlowDownloadIsGivenUp(t *testing.T) {
	defer func(w time.Duration, b int64) { rateWindow, minBytesPerWindow = w, b }(rateWindow, minBytesPerWindow)
	rateWindow, minBytesPerWindow = 200*time.Millisecond, 1<<10
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100000")
		for i := 0; i < 100; i++ {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			time.Sleep(50 * time.Millisecond)
		}
	})
	env, l, _ := envoyOnly(t, srv.URL)
	var got events
	start := time.Now()
	linux(env, l).Setup(context.Background(), got.add)
	if f := got.of("envoy", SetupFail); f == nil || f.Msg.Args["error"] != errTooSlow.Error() || time.Since(start) > 3*time.Second {
		t.Errorf("not given up on, with its reason, in time (%v): %+v", time.Since(start), got)
	}
}

// D15: a 206 for another range than asked is not retried the same way: the file is fetched again
// from its start, and installed.
func TestABadPartialAnswerIsRetriedWithoutRange(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Range") != "" {
			w.Header().Set("Content-Range", fmt.Sprintf("bytes 0-%d/%d", len(standIn)-1, len(standIn)))
			w.WriteHeader(http.StatusPartialContent)
			w.Write([]byte(standIn))
			return
		}
		w.Write([]byte(standIn))
	})
	env, l, _ := envoyOnly(t, srv.URL)
	os.MkdirAll(env.ToolsDir, 0o755)
	os.WriteFile(filepath.Join(env.ToolsDir, ".envoy-1.39.0-linux-x86_64.part"), []byte(standIn[:5]), 0o644)
	var got events
	tools, err := linux(env, l).Setup(context.Background(), got.add)
	if err != nil || !tools.Get("envoy").Found {
		t.Errorf("%v %+v", err, got)
	}
}

// D22: a mirror's password is not printed; its query stays after the path.
func TestMirrorURLs(t *testing.T) {
	env, l, spec := envoyOnly(t, "https://user:secret@mirror.example/envoy?token=x#frag")
	_ = l
	url := ReleaseURL(env, spec.Release, "amd64")
	if !strings.HasPrefix(url, "https://user:secret@mirror.example/envoy/v1.39.0/envoy-1.39.0-linux-x86_64?token=x") {
		t.Errorf("url %s", url)
	}
	if shown := shownURL(url); strings.Contains(shown, "secret") {
		t.Errorf("shown %s", shown)
	}
}

// D14: a server that never sends its headers is asked once, not four times over, and the reason
// is said; D22: checking a --from file reports its progress.
func TestAServerWithoutHeadersIsAskedOnce(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { time.Sleep(2 * time.Second) })
	env, l, _ := envoyOnly(t, srv.URL)
	in := linux(env, l)
	in.Client = &http.Client{Transport: &http.Transport{ResponseHeaderTimeout: 200 * time.Millisecond}}
	var got events
	start := time.Now()
	in.Setup(context.Background(), got.add)
	if n := srv.requests.Load(); n != 1 || time.Since(start) > 3*time.Second {
		t.Errorf("%d requests in %v", n, time.Since(start))
	}
	if f := got.of("envoy", SetupFail); f == nil {
		t.Errorf("no reason said: %+v", got)
	}
	file := filepath.Join(t.TempDir(), "envoy")
	os.WriteFile(file, []byte(standIn), 0o755)
	var from events
	linux(env, l).From(context.Background(), "envoy", file, from.add)
	if from.of("envoy", SetupProgress) == nil {
		t.Errorf("no progress while the file was checked: %+v", from)
	}
}

// Hostile L3: a part file hard-linked to another file is refused, not written through.
func TestAHardLinkedPartIsNotWrittenThrough(t *testing.T) {
	srv := serve(t, serveBytes(standIn))
	env, l, _ := envoyOnly(t, srv.URL)
	os.MkdirAll(env.ToolsDir, 0o755)
	victim := filepath.Join(env.ToolsDir, "..", "victim")
	os.WriteFile(victim, []byte("keep"), 0o600)
	if err := os.Link(victim, filepath.Join(env.ToolsDir, ".envoy-1.39.0-linux-x86_64.part")); err != nil {
		t.Skip("no hard links here:", err)
	}
	var got events
	linux(env, l).Setup(context.Background(), got.add)
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("written through the hard link: %q", b)
	}
	if f := got.of("envoy", SetupFail); f == nil || !strings.Contains(f.Msg.Args["error"], "hard-linked") {
		t.Errorf("the reason is not said: %+v", got)
	}
}

// Hostile L4: a server that sends more than the pinned size leaves no part to resume, and one that
// goes silent is not asked again four times.
func TestOversizeLeavesNoPartAndAStallIsNotRetried(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(strings.Repeat("x", 2<<20)))
	})
	env, l := pinnedTo(t, srv.URL, 1<<20)
	var got events
	linux(env, l).Setup(context.Background(), got.add)
	if f := got.of("envoy", SetupFail); f == nil || f.Msg.Args["error"] != errTooBig.Error() {
		t.Errorf("no refusal of the size: %+v", got)
	}
	if _, err := os.Lstat(filepath.Join(env.ToolsDir, ".envoy-1.39.0-linux-x86_64.part")); err == nil {
		t.Error("the oversized part is kept for a resume")
	}

	old := stallTimeout
	stallTimeout = 300 * time.Millisecond
	defer func() { stallTimeout = old }()
	var mu sync.Mutex
	asked := 0
	stalling := serve(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked++
		mu.Unlock()
		w.Header().Set("Content-Length", fmt.Sprint(len(standIn)))
		w.Write([]byte(standIn[:10]))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	env, l, _ = envoyOnly(t, stalling.URL)
	got = events{}
	linux(env, l).Setup(context.Background(), got.add)
	mu.Lock()
	defer mu.Unlock()
	if f := got.of("envoy", SetupFail); f == nil || !strings.Contains(f.Msg.Args["error"], errStalled.Error()) || asked != 1 {
		t.Errorf("asked %d times; %+v", asked, got)
	}
}

// Hostile L5: a setup that starts while another builds leaves the other's build dir alone; one an
// interrupted setup left hours ago goes.
func TestASetupKeepsAnotherSetupsBuildDir(t *testing.T) {
	dir := t.TempDir()
	live, left := filepath.Join(dir, ".install-1"), filepath.Join(dir, ".install-2")
	os.MkdirAll(live, 0o755)
	os.MkdirAll(left, 0o755)
	old := time.Now().Add(-3 * time.Hour)
	os.Chtimes(left, old, old)
	removeStale(dir)
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a live build dir was removed: %v", err)
	}
	if _, err := os.Stat(left); err == nil {
		t.Error("a build dir left hours ago stays")
	}
}

// pinnedTo is envoyOnly with the release's pinned size set to size.
func pinnedTo(t *testing.T, url string, size int64) (*steps.Env, *steps.Lesson) {
	t.Helper()
	env, l, spec := envoyOnly(t, url)
	a := spec.Release.Assets["amd64"]
	a.Size = size
	spec.Release.Assets["amd64"] = a
	l.Tools[0] = spec
	return env, l
}

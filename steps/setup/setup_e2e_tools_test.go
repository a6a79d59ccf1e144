//go:build labtools

package setup

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/run"
	"ist2-boot/steps/steptest"
)

// A fresh machine with the lab's other tools and no Envoy: setup downloads Envoy (the test double,
// served by a local server standing for the release, its pin moved to the double's digest), then
// every section's reference commands run and check passes all eight. The real release cannot be
// downloaded here; this is the same path with a stand-in file.
func TestSetupThenEverySectionPasses(t *testing.T) {
	double := filepath.Join(steptest.FakeEnvoyPath(t), "envoy")
	body, err := os.ReadFile(double)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1.39.0/envoy-1.39.0-linux-x86_64" {
			http.NotFound(w, r)
			return
		}
		w.Write(body)
	}))
	defer srv.Close()

	l := steptest.Lesson(t)
	env := steptest.Env(t, "")
	path := env.ToolsDir + string(os.PathListSeparator) + steptest.PathWithout("envoy")
	env.Getenv = func(k string) string {
		switch k {
		case "PATH":
			return path
		case "IST2_BOOT_ENVOY_URL":
			return srv.URL
		}
		return os.Getenv(k)
	}
	for i, spec := range l.Tools {
		if spec.Release != nil {
			rel := *spec.Release
			rel.Assets = map[string]steps.ReleaseAsset{"amd64": {Name: rel.Assets["amd64"].Name, SHA256: digest(string(body))}}
			l.Tools[i].Release = &rel
		}
	}
	var log []string
	tools, err := (&Installer{Lesson: l, Env: env, OS: "linux", Arch: "amd64"}).Setup(context.Background(), func(e SetupEvent) {
		log = append(log, e.Tool+": "+e.Msg.In(i18n.Korean)+e.Text)
	})
	if err != nil || tools.Get("envoy").Path != filepath.Join(env.ToolsDir, "envoy") || tools.Get("envoy").Origin != steps.FromRelease {
		t.Fatalf("setup: %v %+v\n%s", err, tools.Get("envoy"), strings.Join(log, "\n"))
	}
	for _, name := range []string{"istioctl", "yq", "jq", "curl"} {
		if !tools.Get(name).Found {
			t.Fatalf("%s not found: install it (scripts/test.sh does)", name)
		}
	}
	r := &run.Runner{Lesson: l, Env: env, Tools: tools}
	pidFile := env.Path("envoy.pid")
	t.Cleanup(func() { run.StopEnvoy(pidFile) })
	for _, id := range l.SectionIDs() {
		var out []string
		if res := r.RunSection(context.Background(), id, func(x run.Line) { out = append(out, x.Text+x.Msg.In(i18n.Korean)) }); !res.OK() {
			t.Fatalf("run %s: %+v\n%s", id, res, strings.Join(out, "\n"))
		}
	}
	results, err := check.Check(l, env, nil)
	if err != nil {
		t.Fatal(err)
	}
	passed := 0
	for _, s := range results {
		if s.Status == check.Pass {
			passed++
		} else {
			t.Errorf("%s: %s %+v", s.ID, s.Status, s.Files)
		}
	}
	if passed != 8 {
		t.Errorf("%d of %d sections pass", passed, len(results))
	}
}

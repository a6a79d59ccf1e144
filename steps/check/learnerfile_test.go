package check

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
)

func TestReadLearnerFile(t *testing.T) {
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(filepath.Join(work, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(dir, "outside.txt")
	steptest.WriteFile(t, outside, "role=sidecar\n")
	steptest.WriteFile(t, filepath.Join(work, "sub", "real.txt"), "role=sidecar\r\n")
	steptest.WriteFile(t, filepath.Join(work, "big.txt"), strings.Repeat("a=b\n", MaxLearnerFile/4+1))
	steptest.WriteFile(t, filepath.Join(work, "latin1.txt"), "role=caf\xe9\n")
	steptest.WriteFile(t, filepath.Join(work, "nul.txt"), "role=\x00\n")
	steptest.WriteFile(t, filepath.Join(work, "blank.txt"), " \n\t\n")
	if err := syscall.Mkfifo(filepath.Join(work, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"inside": "sub/real.txt", "escape": outside, "dotdot": "../outside.txt", "dangling": "nowhere.txt"} {
		if err := os.Symlink(target, filepath.Join(work, name)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, reason, text string
		absent             bool
	}{
		{name: "sub/real.txt", text: "role=sidecar\n"},
		{name: "inside", text: "role=sidecar\n"},
		{name: "escape", reason: "reason.link_outside"},
		{name: "dotdot", reason: "reason.link_outside"},
		{name: "dangling", reason: "reason.dangling_link"},
		{name: "big.txt", reason: "reason.too_big"},
		{name: "latin1.txt", reason: "reason.not_utf8"},
		{name: "nul.txt", reason: "reason.binary"},
		{name: "blank.txt", reason: "reason.empty"},
		{name: "sub", reason: "reason.is_dir"},
		{name: "fifo", reason: "reason.not_regular"},
		{name: "none.txt", absent: true},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.name, "/", "_"), func(t *testing.T) {
			text, err := readLearnerFile(work, tt.name)
			var p *fileProblem
			switch {
			case tt.absent:
				if !errors.Is(err, errAbsent) {
					t.Fatalf("err %v, want absent", err)
				}
			case tt.reason != "":
				if !errors.As(err, &p) || p.msg.Key != tt.reason {
					t.Fatalf("err %v, want %s", err, tt.reason)
				}
			default:
				if err != nil || text != tt.text {
					t.Fatalf("got %q, %v; want %q", text, err, tt.text)
				}
			}
		})
	}
}

func TestOversizedAnswerIsAReasonNotAPanic(t *testing.T) {
	l := steptest.Lesson(t)
	env := steptest.Env(t, steptest.PathWithout("envoy"))
	steptest.CopyAnswers(t, env)
	steptest.WriteFile(t, env.Path("bootstrap.yaml"), strings.Repeat("# padding\n", MaxLearnerFile/10+1))
	r := fileResult(t, l, env, "bootstrap.yaml")
	if r.Status != Fail || r.Reason.Key != "reason.too_big" {
		t.Fatalf("%s %s", r.Status, r.Reason.Key)
	}
	if !strings.Contains(r.Reason.In(i18n.Chinese), "1 MiB") {
		t.Errorf("reason: %s", r.Reason.In(i18n.Chinese))
	}
}

func TestKVLooseTest(t *testing.T) {
	want := []kv{{Key: "rc", Want: "non-zero", OK: func(s string) bool { return s != "0" && s != "" }}}
	if r := judgeKV("x.txt", "rc=1\n", want); r.Status != Pass {
		t.Errorf("rc=1: %s %s", r.Status, r.Reason.Key)
	}
	r := judgeKV("x.txt", "rc=0\n\nrc=2\n", want)
	if r.Status != Fail || r.Reason.Key != "reason.wrong_value" || r.Reason.Args["line"] != "1" {
		t.Errorf("rc=0: %s %v", r.Status, r.Reason)
	}
}

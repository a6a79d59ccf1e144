package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"ist2-boot/steps/i18n"
	"ist2-boot/steps/setup"

	"ist2-boot/steps/steptest"
)

// sandbox is a fresh machine for the CLI: its own XDG dirs and a PATH the test chooses.
type sandbox struct {
	t    *testing.T
	vars map[string]string
	work string
}

func newSandbox(t *testing.T, path string) *sandbox {
	dir := t.TempDir()
	sb := &sandbox{t: t, vars: map[string]string{
		"HOME": dir, "XDG_DATA_HOME": filepath.Join(dir, "data"), "XDG_STATE_HOME": filepath.Join(dir, "state"), "PATH": path,
		"IST2_BOOT_ENVOY_URL": steptest.NoNetwork, // no test reaches the internet for Envoy
	}}
	sb.work = filepath.Join(dir, "data", "ist2-boot", "work")

	return sb
}

func onPath(path, name string) bool {
	for _, d := range filepath.SplitList(path) {
		if fi, err := os.Stat(filepath.Join(d, name)); err == nil && fi.Mode()&0o111 != 0 {
			return true
		}
	}
	return false
}

// main runs the CLI in this sandbox and returns exit code, stdout and stderr.
func (sb *sandbox) main(stdin string, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Main(args, IO{In: strings.NewReader(stdin), Out: &out, Err: &errb,
		Getenv: func(k string) string { return sb.vars[k] }, LabMarker: filepath.Join(sb.vars["HOME"], "no-lab")})
	return code, out.String(), errb.String()
}

func (sb *sandbox) must(want int, args ...string) string {
	sb.t.Helper()
	code, out, errs := sb.main("", args...)
	if code != want {
		sb.t.Fatalf("ist2-boot %s: exit %d, want %d\n%s\n%s", strings.Join(args, " "), code, want, out, errs)
	}
	return out
}

// pathWithout drops the directories holding any of names from $PATH.
func pathWithout(names ...string) string {
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		hide := false
		for _, n := range names {
			if onPath(d, n) {
				hide = true
			}
		}
		if !hide {
			keep = append(keep, d)
		}
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

func TestMain(m *testing.M) { steptest.Main(m) } // the built programs are removed after

var kana = regexp.MustCompile(`[\p{Hiragana}\p{Katakana}]`)

func TestUsageErrorsAndHelp(t *testing.T) {
	sb := newSandbox(t, pathWithout("envoy"))
	for _, args := range [][]string{{"check", "nope"}, {"run"}, {"run", "all", "env"}, {"frobnicate"}, {"check", "--lang", "fr"}, {"reset"}, {"reset", "--all", "args"}, {"doctor", "extra"}, {"check", "--bogus"}} {
		if code, _, _ := sb.main("", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	for _, args := range [][]string{{"check", "--help"}, {"run", "-h"}, {"help"}, {"reset", "--help"}} {
		code, out, errs := sb.main("", args...)
		if code != 0 || !strings.Contains(out+errs, i18n.T(i18n.Korean, "usage.usage", nil)) {
			t.Errorf("%v: exit %d: %s%s", args, code, out, errs)
		}
	}
}

func TestCorruptProgressWarnsAndChecksAnyway(t *testing.T) {
	sb := newSandbox(t, pathWithout("envoy"))
	state := filepath.Join(sb.vars["XDG_STATE_HOME"], "ist2-boot")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(state, "progress.json"), []byte("{garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := sb.main("", "check", "args", "--lang", "ko")
	if code != 1 || !strings.Contains(errs, "손상") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if aside, _ := filepath.Glob(filepath.Join(state, "progress.json.corrupt-*")); len(aside) != 1 {
		t.Errorf("corrupt file not kept aside: %v", aside)
	}
}

func TestShowPages(t *testing.T) {
	sb := newSandbox(t, pathWithout("envoy"))
	for _, lang := range []string{"ko", "zh", "ja"} {
		out := sb.must(0, "show", "bootstrap", "--lang", lang, "--hints", "3")
		if !strings.Contains(out, sb.work+"/bootstrap.yaml") || !strings.Contains(out, "```sh") || strings.Count(out, "\n1. ") != 1 || !strings.Contains(out, "\n3. ") {
			t.Errorf("%s:\n%s", lang, out)
		}
		if out := sb.must(0, "show", "glossary", "--lang", lang); strings.Count(out, "\n- ") < 30 || strings.Count(out, "\n- `") < 15 {
			t.Errorf("%s glossary:\n%s", lang, out)
		}
	}
	rendered := 0
	code, _, _ := func() (int, string, string) {
		var out, errb bytes.Buffer
		c := Main([]string{"show", "intro", "--width", "50"}, IO{In: strings.NewReader(""), Out: &out, Err: &errb,
			Getenv: func(k string) string { return sb.vars[k] }, LabMarker: filepath.Join(sb.vars["HOME"], "no-lab"),
			Render: func(md string, width int) (string, error) { rendered = width; return md, nil }})
		return c, out.String(), errb.String()
	}()
	if code != 0 || rendered != 50 {
		t.Errorf("render hook: exit %d width %d", code, rendered)
	}
	if code, _, _ := sb.main("", "show", "nope"); code != 2 {
		t.Errorf("unknown page: exit %d", code)
	}
}

func TestTutorialNeedsATerminalAndOneCopy(t *testing.T) {
	sb := newSandbox(t, pathWithout("envoy"))
	sio := func(out *bytes.Buffer) IO {
		return IO{In: strings.NewReader(""), Out: out, Err: out, Getenv: func(k string) string { return sb.vars[k] },
			LabMarker: filepath.Join(sb.vars["HOME"], "no-lab")}
	}
	var out bytes.Buffer
	if tut, code := OpenTutorial([]string{"--lang", "ja"}, sio(&out), false); tut != nil || code != 2 || !strings.Contains(out.String(), "ist2-boot check") || !kana.MatchString(out.String()) {
		t.Fatalf("no terminal: %v %d %q", tut, code, out.String())
	}
	first, code := OpenTutorial(nil, sio(&out), true)
	if first == nil || code != 0 {
		t.Fatalf("first copy: %d %s", code, out.String())
	}
	out.Reset()
	if second, code := OpenTutorial([]string{"--lang", "zh"}, sio(&out), true); second != nil || code != 2 || !strings.Contains(out.String(), "另一个") {
		t.Fatalf("second copy: %v %d %q", second, code, out.String())
	}
	first.Release()
	again, _ := OpenTutorial(nil, sio(&out), true)
	if again == nil {
		t.Fatal("not startable after the first copy quit")
	}
	again.Release()
	if tut, code := OpenTutorial([]string{"--help"}, sio(&out), true); tut != nil || code != 0 {
		t.Errorf("--help: %v %d", tut, code)
	}
}

func TestValidateCommand(t *testing.T) {
	sb := newSandbox(t, pathWithout("envoy"))
	ok := "../../steps/testdata/answers/bootstrap.yaml"
	if out := sb.must(0, "validate", ok); out != "configuration '"+ok+"' OK\n" {
		t.Errorf("valid: %q", out)
	}
	if out := sb.must(1, "validate", "../../steps/testdata/answers/boot-typo.yaml"); !strings.Contains(out, ":18:23: dynamic_resources.ads_config.grpc_services[0].envoy_grpc.cluster_name: Unknown gRPC client cluster 'istiod-xds'") {
		t.Errorf("typo: %q", out)
	}
	raw, _ := os.ReadFile(ok)
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte(strings.Replace(string(raw), "http2_protocol_options", "http2_protocol_option", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := sb.must(1, "validate", bad); !strings.Contains(out, "http2_protocol_option: Protobuf message") || !strings.Contains(out, bad+":36:11:") {
		t.Errorf("misspelled: %q", out)
	}
	// Envoy's words stay Envoy's; the validator's own hint is in the learner's language (issue 32).
	for _, lang := range i18n.Langs {
		hint := strings.TrimPrefix(i18n.M("validate.problem_hint", "place", "", "problem", "", "hint", "http2_protocol_options").In(lang), " ")
		if out := sb.must(1, "validate", "--lang", string(lang), bad); !strings.Contains(out, hint) || strings.Contains(out, "did you mean") {
			t.Errorf("%s hint: %q", lang, out)
		}
	}
	// A file that cannot be read is the file's problem, like one that does not validate: exit 1.
	if code, _, errs := sb.main("", "validate", "/nonexistent.yaml"); code != 1 || !strings.Contains(errs, "/nonexistent.yaml") {
		t.Errorf("missing file: exit %d %s", code, errs)
	}
}

// setup --from refuses a file that is not the pinned Envoy build, says why, and installs nothing.
func TestSetupFromAFileThatIsNotEnvoy(t *testing.T) {
	sb := newSandbox(t, "/usr/bin:/bin")
	file := filepath.Join(t.TempDir(), "envoy")
	if err := os.WriteFile(file, []byte("#!/bin/sh\necho not envoy\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, _ := sb.main("", "setup", "--from", file, "--lang", "ja")
	if code == 0 || !strings.Contains(out, "sha256") || !strings.Contains(out, file) {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(sb.vars["XDG_DATA_HOME"], "ist2-boot", "bin", "envoy")); err == nil {
		t.Error("installed")
	}
}

// Progress written to a log (not a terminal) is a line at each tenth, not one per event.
func TestSetupProgressInALog(t *testing.T) {
	var b strings.Builder
	p := &progressPrinter{w: &b, lang: i18n.Japanese}
	for done := int64(0); done <= 1000; done += 7 {
		p.show(setup.SetupEvent{Tool: "envoy", Kind: setup.SetupProgress, Done: done, Total: 1000})
	}
	p.show(setup.SetupEvent{Tool: "envoy", Kind: setup.SetupProgress, Done: 1000, Total: 1000})
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 11 || !strings.Contains(lines[10], "100%") || !strings.Contains(lines[10], "█") {
		t.Errorf("%d lines:\n%s", len(lines), b.String())
	}
}

// run takes several sections as check does: in the lesson's order, each once.
func TestRunSeveralSections(t *testing.T) {
	sb := newSandbox(t, "/usr/bin:/bin") // no istioctl: each section says so and the next runs
	_, out, _ := sb.main("", "run", "env", "args", "env")
	a, e := strings.Index(out, "(args) ·"), strings.Index(out, "(env) ·")
	if a < 0 || e < a || strings.Count(out, "(env) ·") != 1 {
		t.Errorf("run env args env:\n%s", out)
	}
}

// D11: a corrupt progress file is put aside and said so by any command, not only check and reset.
func TestEveryCommandSaysProgressWasPutAside(t *testing.T) {
	for _, args := range [][]string{{"doctor"}, {"report"}, {"show", "intro"}} {
		sb := newSandbox(t, "/usr/bin:/bin")
		state := filepath.Join(sb.vars["XDG_STATE_HOME"], "ist2-boot")
		os.MkdirAll(state, 0o755)
		os.WriteFile(filepath.Join(state, "progress.json"), []byte("{not json"), 0o644)
		_, _, errs := sb.main("", append(args, "--lang", "ja")...)
		if !strings.Contains(errs, "progress.json.corrupt-") {
			t.Errorf("%v said nothing of the put-aside file: %q", args, errs)
		}
	}
}

// D22: a negative --seed is a usage error, not silently a random one.
func TestNegativeSeedIsRefused(t *testing.T) {
	sb := newSandbox(t, "/usr/bin:/bin")
	for _, args := range [][]string{{"drill", "--seed", "-5", "--json"}, {"new-lab", "--seed", "-2", "--yes"}} {
		if code, _, errs := sb.main("", args...); code != 2 || !strings.Contains(errs, "--seed") {
			t.Errorf("%v: exit %d %q", args, code, errs)
		}
	}
}

// H2: a check in another work dir counts there, never in the default lab's record.
func TestCheckElsewhereKeepsItsOwnRecord(t *testing.T) {
	sb := newSandbox(t, os.Getenv("PATH"))
	other := t.TempDir()
	steptest.CopyFile(t, filepath.Join(steptest.AnswersDir(), "08-report.md"), filepath.Join(other, "08-report.md"))
	sb.main("", "check", "--workdir", other, "report")
	state := filepath.Join(sb.vars["XDG_STATE_HOME"], "ist2-boot")
	if raw, err := os.ReadFile(filepath.Join(state, "progress.json")); err == nil && strings.Contains(string(raw), `"report"`) {
		t.Errorf("the default lab's record has the other work dir's check:\n%s", raw)
	}
	found, _ := filepath.Glob(filepath.Join(state, "workdirs", "*", "progress.json"))
	if len(found) != 1 {
		t.Fatalf("no record of its own for the other work dir: %v", found)
	}
	if raw, _ := os.ReadFile(found[0]); !strings.Contains(string(raw), `"report"`) {
		t.Errorf("its own record lacks the check:\n%s", raw)
	}
}

// D2: when the tools dir cannot be made, setup says so and fails; it never reports success.
func TestSetupFailsWithoutItsToolsDir(t *testing.T) {
	sb := newSandbox(t, os.Getenv("PATH"))
	data := filepath.Join(sb.vars["XDG_DATA_HOME"], "ist2-boot")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "bin"), []byte("x"), 0o644); err != nil { // a file where the dir goes
		t.Fatal(err)
	}
	code, _, errs := sb.main("", "setup", "--yes")
	if code == 0 || !strings.Contains(errs, "bin") {
		t.Errorf("setup: exit %d, %q", code, errs)
	}
}

// D3: run's usage names what --timeout takes, a duration.
func TestRunUsageNamesADuration(t *testing.T) {
	sb := newSandbox(t, os.Getenv("PATH"))
	_, _, errs := sb.main("", "run", "args", "--timeout", "120")
	if !strings.Contains(errs, "--timeout DURATION") {
		t.Errorf("%s", errs)
	}
}

// The hostile report's L10: the tutorial refuses a negative --timeout, as run does.
func TestTutorialRefusesANegativeTimeout(t *testing.T) {
	sb := newSandbox(t, os.Getenv("PATH"))
	var out, errb bytes.Buffer
	sio := IO{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(k string) string { return sb.vars[k] }, LabMarker: filepath.Join(sb.vars["HOME"], "no-lab")}
	tut, code := OpenTutorial([]string{"--timeout", "-5s"}, sio, true)
	if tut != nil {
		tut.Release()
	}
	if code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
}

// Hostile L11: doctor diagnoses even where the work dir cannot be made (here its parent is a
// file): that is said first, and the tools are still looked at.
func TestDoctorDiagnosesWhatCannotBeMade(t *testing.T) {
	sb := newSandbox(t, "/usr/bin:/bin")
	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(blocker, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	sb.vars["XDG_DATA_HOME"] = blocker
	code, out, errs := sb.main("", "doctor", "--lang", "ja")
	if code != exitUsage || !strings.Contains(errs, "work dir") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "bash") && !strings.Contains(out, "curl") && !strings.Contains(out, "jq") {
		t.Errorf("no tools looked at:\n%s", out)
	}
}

// A yes/no question takes no space after a full-width question mark in Chinese, and one in
// Japanese and Korean (zh r22 L14, ja r23 L4).
func TestTheYesNoQuestionSetsLikeItsLanguage(t *testing.T) {
	for lang, want := range map[string]string{"zh": "吗？[y/N]", "ja": "？ [y/N]", "ko": "? [y/N]"} {
		sb := newSandbox(t, "/usr/bin:/bin")
		if _, out, _ := sb.main("n\n", "reset", "--all", "--lang", lang); !strings.Contains(strings.ReplaceAll(out, "\n", ""), want) {
			t.Errorf("%s: no %q in\n%s", lang, want, out)
		}
	}
}

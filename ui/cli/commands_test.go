package cli

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"ist2-boot/steps/i18n"
	"ist2-boot/ui/render"
)

// bashComplete is what the completion script offers after `ist2-boot WORDS…` in a real bash.
func bashComplete(t *testing.T, bash, script string, words ...string) string {
	t.Helper()
	prog := script + `COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ist2_boot; echo "${COMPREPLY[*]}"`
	out, err := exec.Command(bash, append([]string{"-c", prog, "bash", "ist2-boot"}, words...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// The usage text names every command of the table, and each command's --help its usage line.
func TestUsageAndHelpComeFromTheTable(t *testing.T) {
	sb := newSandbox(t, os.Getenv("PATH"))
	_, out, _ := sb.main("", "--help")
	for _, c := range commandTable() {
		squash := func(s string) string { return strings.Join(strings.Fields(s), " ") } // wrapped at the width
		if !strings.Contains(out, "ist2-boot "+c.name+" "+c.synopsis) || !strings.Contains(squash(out), squash(render.Unmarked(i18n.T(i18n.Korean, "usage."+c.name, nil)))) {
			t.Errorf("usage lacks %s:\n%s", c.name, out)
		}
		code, _, errs := sb.main("", c.name, "--help")
		if code != exitOK || !strings.Contains(errs, i18n.M("usage.line", "synopsis", "ist2-boot "+c.name+" "+c.synopsis).In(i18n.Korean)) {
			t.Errorf("%s --help: %d %q", c.name, code, errs)
		}
	}
}

// The bash completion, sourced in a real bash, completes command names, a command's own flags
// (read from the flag set it declares), and the words its first argument takes.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is needed")
	}
	sb := newSandbox(t, os.Getenv("PATH"))
	code, script, _ := sb.main("", "completion", "bash")
	if code != exitOK {
		t.Fatalf("completion bash: %d", code)
	}
	complete := func(words ...string) string { return bashComplete(t, bash, script, words...) }
	for _, c := range []struct {
		words []string
		want  string
	}{
		{[]string{"dr"}, "drill"},
		{[]string{"drill", "--s"}, "--seed"},
		{[]string{"report", "-"}, "-o"},
		{[]string{"--workdir", "/tmp", "run", "boot"}, "bootstrap"},
		{[]string{"show", "gl"}, "glossary"},
		{[]string{"check", "--json", "ide"}, "identity"},
		{[]string{"--ti"}, "--timeout"},
	} {
		if got := complete(c.words...); got != c.want && !strings.Contains(" "+got+" ", " "+c.want+" ") {
			t.Errorf("%v: %q, want %q", c.words, got, c.want)
		}
	}
	if got := complete("validate", "--j"); got != "" {
		t.Errorf("validate has no --json, completed %q", got)
	}
	if got := complete("report", "m"); got != "" {
		t.Errorf("report takes no argument (md is --format's value), completed %q", got)
	}
}

// An unknown shell is a usage error.
func TestCompletionRefusesOtherShells(t *testing.T) {
	sb := newSandbox(t, os.Getenv("PATH"))
	if code, _, _ := sb.main("", "completion", "fish"); code != exitUsage {
		t.Errorf("completion fish: %d", code)
	}
}

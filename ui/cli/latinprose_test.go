package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
)

// Issue 32, "native in every line": no sentence of ours is English in Korean, Chinese or Japanese
// output (steptest.LatinProse finds what is left of English prose).

// The scanner finds English prose, and only prose.
func TestLatinProseScanner(t *testing.T) {
	allowed := map[string]bool{"Envoy": true, "check": true}
	for _, c := range []struct {
		text string
		want int
	}{
		{"usage: ist2-boot check [--json] [SECTION…]\n  judge the produced files (exit 0 all pass, 1 not)", 1},
		{"  --fixtures DIR    fixtures dir", 0},                            // two words
		{"  --workdir DIR     work dir (default: lab or sandbox path)", 1}, // prose
		{"Envoy 会在第一个问题处停下。此外还有：", 0},                                      // Chinese
		{"x.yaml:3:3: node.bogus: Protobuf message (type a.B) has unknown fields（是不是想写 STRICT_DNS？）", 0},
		{"x.yaml:1:1: YAML 语法错误（本校验器的说法）：did not find expected node content", 0},
		{"Envoy would stop at the first; also:", 1},
		{"「did not find expected node content」をご覧ください。", 0},
		{"```\nrun these commands now\n```\n`envoy --mode validate -c FILE`로 검증합니다", 0},
		{"check Envoy check Envoy check", 0},
		{"ist2-boot: 실행 환경 문제: unknown language (use ko, zh, ja)", 1},
	} {
		if got := steptest.LatinProse(c.text, allowed); len(got) != c.want {
			t.Errorf("%q: found %q, want %d runs", c.text, got, c.want)
		}
	}
}

// Every command's --help, and the usage, are in the learner's language: no English prose of ours
// remains in ko, zh or ja.
func TestHelpIsInTheLearnersLanguage(t *testing.T) {
	sb := newSandbox(t, os.Getenv("PATH"))
	for _, lang := range i18n.Langs {
		allowed := cliAllowedWords(t, lang)
		runs := [][]string{{"--help"}, {"help"}, {"frobnicate"}, {"--bogus"}}
		for _, c := range commandTable() {
			runs = append(runs, []string{c.name, "--help"})
		}
		for _, args := range runs {
			_, out, errs := sb.main("", append(args, "--lang", string(lang))...)
			if prose := steptest.LatinProse(out+errs, allowed); len(prose) > 0 {
				t.Errorf("%s %v: English prose %q in\n%s%s", lang, args, prose, out, errs)
			}
		}
	}
}

// The commands' own output, and their usage errors, say nothing of ours in English either.
func TestCommandOutputIsInTheLearnersLanguage(t *testing.T) {
	sb := newSandbox(t, pathWithout("envoy"))
	broken := filepath.Join(t.TempDir(), "broken.yaml")
	if err := os.WriteFile(broken, []byte("admin: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	twice, err := os.ReadFile(filepath.Join("testdata", "two-problems.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	twoProblems := filepath.Join(t.TempDir(), "two.yaml")
	if err := os.WriteFile(twoProblems, twice, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, lang := range i18n.Langs {
		allowed := cliAllowedWords(t, lang)
		for _, args := range [][]string{
			{"check"}, {"doctor"}, {"validate", broken}, {"validate", twoProblems}, {"report"}, {"show", "intro"},
			{"check", "--bogus"}, {"run", "--timeout", "x", "args"}, {"run", "args", "--timeout"}, {"show", "nosuch"},
			{"report", "-o", filepath.Join(t.TempDir(), "no", "such", "dir", "x")}, {"report", "--format", "xml"},
			{"validate"}, {"drill", "--seed", "many"}, {"--frob"}, {"frobnicate"},
		} {
			_, out, errs := sb.main("", append(args, "--lang", string(lang))...)
			if prose := steptest.LatinProse(out+errs, allowed); len(prose) > 0 {
				t.Errorf("%s %v: English prose %q in\n%s%s", lang, args, prose, out, errs)
			}
		}
	}
}

// Every flag a command declares is described in the catalog, in every language: its own words
// (usage.<command>.<flag>) or the shared ones (usage.flag.<flag>); a flag without them would show
// its key in --help.
func TestEveryFlagIsDescribed(t *testing.T) {
	for _, c := range append(commandTable(), command{name: "", run: tutorialFlags}) {
		var declared []string
		sio := IO{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}
		sio.declared = func(fs *flag.FlagSet) { fs.VisitAll(func(f *flag.Flag) { declared = append(declared, f.Name) }) }
		c.run([]string{"-h"}, sio)
		if len(declared) == 0 {
			t.Errorf("%q declares no flags", c.name)
		}
		for _, name := range declared {
			for _, lang := range i18n.Langs {
				if d := flagDescription(c.name, name, lang); strings.HasPrefix(d, "usage.") || d == "" {
					t.Errorf("%q --%s has no description in %s", c.name, name, lang)
				}
			}
		}
	}
}

// cliAllowedWords are the words a command line's text may keep: AllowedWords and the command
// and section names.
func cliAllowedWords(t *testing.T, lang i18n.Lang) map[string]bool {
	t.Helper()
	var extra []string
	for _, c := range commandTable() {
		extra = append(extra, c.name)
	}
	return steptest.AllowedWords(t, lang, append(extra, lessonSections()...)...)
}

// Every text of ours in each language — the catalog, the lesson's titles, hints, notes and
// messages, the glossary, the pages — holds no English prose: what the tutorial, show and the
// commands print is made of these (what Envoy and kubectl print stays quoted in code spans).
func TestLessonTextsAreInTheirLanguage(t *testing.T) {
	root := filepath.Join("..", "..", "content")
	for _, lang := range i18n.Langs {
		allowed := cliAllowedWords(t, lang)
		texts := map[string]string{}
		for _, file := range []string{"strings.yaml", "lesson.yaml", "glossary.yaml"} {
			data, err := os.ReadFile(filepath.Join(root, file))
			if err != nil {
				t.Fatal(err)
			}
			var doc any
			if err := yaml.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			collectLang(doc, string(lang), file, texts)
		}
		pages, err := filepath.Glob(filepath.Join(root, string(lang), "*.md"))
		if err != nil || len(pages) == 0 {
			t.Fatalf("no pages for %s: %v", lang, err)
		}
		for _, p := range pages {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			texts[p] = string(data)
		}
		for where, text := range texts {
			if runs := steptest.LatinProse(text, allowed); len(runs) > 0 {
				t.Errorf("%s %s: English prose %q", lang, where, runs)
			}
		}
	}
}

// collectLang gathers, under where, every string doc holds for key lang (a map's "ko", "zh" or
// "ja"), at any depth.
func collectLang(doc any, lang, where string, into map[string]string) {
	switch v := doc.(type) {
	case map[string]any:
		for k, c := range v {
			if s, ok := c.(string); ok && k == lang {
				into[where] = s
				continue
			}
			collectLang(c, lang, where+"."+k, into)
		}
	case []any:
		for i, c := range v {
			collectLang(c, lang, fmt.Sprintf("%s[%d]", where, i), into)
		}
	}
}

package cli

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"ist2-boot/steps/i18n"
)

// Issue 32, "native in every line": no sentence of ours is English in Korean, Chinese or Japanese
// output. latinProse finds what is left of English prose in a text once everything that may stay
// Latin is taken out: code, flags, names, placeholders, paths and the programs' own messages.

// programNames are the programs, formats and types the texts name as they are written; they are
// names, not prose.
var programNames = []string{"Envoy", "envoy", "Istio", "istiod", "Kubernetes", "protobuf", "kubectl", "istioctl",
	"docker", "podman", "bash", "curl", "jq", "yq", "go", "Homebrew", "brew", "Duration", "DebugString", "ist2-boot"}

// Tokens that are code, never prose: a flag, a path or URL, key=value, an identifier with _ . - @
// $ { } < > | or digits in it, a word in capitals (FILE, SECTION, JSON) or with capitals inside
// (gRPC, typed_config, HttpProtocolOptions).
var codeLike = regexp.MustCompile(`[-/=_.@${}<>|0-9]|^\p{Lu}{2,}|.\p{Lu}`)

// fenced and quoted spans are code blocks, code spans and quotations: what a program prints.
var (
	fenced = regexp.MustCompile("(?s)```.*?```")
	quoted = regexp.MustCompile("`[^`\n]*`|「[^」\n]*」|“[^”\n]*”|\"[^\"\n]*\"")
	// A validator line starts with the place (FILE:LINE:COL: ); what follows it, and any colon in
	// it, up to our own words, is Envoy's (or the YAML parser's) message, quoted as it is.
	located       = regexp.MustCompile(`^\S+:\d+:\d+: `)
	programQuoted = regexp.MustCompile(`(^|: |：)[^\p{Han}\p{Hangul}\p{Hiragana}\p{Katakana}]*`)
)

// latinProse returns each run of three or more English words left in text once code-like tokens,
// quotations, code spans and blocks, and the allowed words (names, command and section names,
// the style sheet's terms) are taken out. Allowed and code tokens are neither words nor breaks:
// "run the --json check" is still four words of prose around one flag.
func latinProse(text string, allowed map[string]bool) []string {
	text = fenced.ReplaceAllString(text, " ")
	var runs []string
	for _, line := range strings.Split(text, "\n") {
		if located.MatchString(line) {
			line = programQuoted.ReplaceAllString(line, "$1")
		}
		line = quoted.ReplaceAllString(line, " ")
		var run []string
		flush := func() {
			if len(run) >= 3 {
				runs = append(runs, strings.Join(run, " "))
			}
			run = nil
		}
		for _, tok := range strings.Fields(line) {
			word := strings.Trim(tok, "()[],.;:!?'’…（）、。，：；")
			switch {
			case word == "" || codeLike.MatchString(word) || allowed[word] || allowed[strings.ToLower(word)]:
				// neither a word nor a break
			case isLatinWord(word):
				run = append(run, word)
			default: // CJK, a glyph: our sentence goes on in the learner's language
				flush()
			}
		}
		flush()
	}
	return runs
}

// isLatinWord: letters of the Latin alphabet only (an apostrophe inside, as in "Envoy's").
func isLatinWord(w string) bool {
	for _, r := range w {
		if r != '\'' && r != '’' && !(r < unicode.MaxASCII && unicode.IsLetter(r)) {
			return false
		}
	}
	return true
}

// allowedWords are the Latin words that may stand in lang's text: the program names, the
// commands and sections, and the terms content/style/<lang>.md says to use (its tables' second
// column, in backticks).
func allowedWords(t *testing.T, lang i18n.Lang) map[string]bool {
	t.Helper()
	words := map[string]bool{}
	for _, n := range programNames {
		words[n] = true
	}
	for _, c := range commandTable() {
		words[c.name] = true
	}
	for _, s := range lessonSections() {
		words[s] = true
	}
	for _, w := range []string{"intro", "finish", "glossary", "all", "md", "json", "ko", "zh", "ja", "y", "N"} {
		words[w] = true
	}
	sheet, err := os.ReadFile(filepath.Join("..", "..", "content", "style", string(lang)+".md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range strings.Split(string(sheet), "\n") {
		cols := strings.Split(row, "|")
		if !strings.HasPrefix(row, "|") || len(cols) < 4 {
			continue
		}
		for _, span := range regexp.MustCompile("`([^`]*)`").FindAllStringSubmatch(cols[2], -1) {
			for _, w := range strings.Fields(span[1]) {
				if isLatinWord(w) {
					words[w] = true
				}
			}
		}
	}
	return words
}

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
		if got := latinProse(c.text, allowed); len(got) != c.want {
			t.Errorf("%q: found %q, want %d runs", c.text, got, c.want)
		}
	}
}

// Every command's --help, and the usage, are in the learner's language: no English prose of ours
// remains in ko, zh or ja.
func TestHelpIsInTheLearnersLanguage(t *testing.T) {
	sb := newSandbox(t, os.Getenv("PATH"))
	for _, lang := range i18n.Langs {
		allowed := allowedWords(t, lang)
		runs := [][]string{{"--help"}, {"help"}, {"frobnicate"}, {"--bogus"}}
		for _, c := range commandTable() {
			runs = append(runs, []string{c.name, "--help"})
		}
		for _, args := range runs {
			_, out, errs := sb.main("", append(args, "--lang", string(lang))...)
			if prose := latinProse(out+errs, allowed); len(prose) > 0 {
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
		allowed := allowedWords(t, lang)
		for _, args := range [][]string{
			{"check"}, {"doctor"}, {"validate", broken}, {"validate", twoProblems}, {"report"}, {"show", "intro"},
			{"check", "--bogus"}, {"run", "--timeout", "x", "args"}, {"run", "args", "--timeout"}, {"show", "nosuch"},
			{"report", "-o", filepath.Join(t.TempDir(), "no", "such", "dir", "x")}, {"report", "--format", "xml"},
			{"validate"}, {"drill", "--seed", "many"}, {"--frob"}, {"frobnicate"},
		} {
			_, out, errs := sb.main("", append(args, "--lang", string(lang))...)
			if prose := latinProse(out+errs, allowed); len(prose) > 0 {
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

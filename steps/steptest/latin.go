package steptest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"ist2-boot/steps/i18n"
)

// Issue 32, "native in every line": no sentence of ours is English in Korean, Chinese or Japanese
// output. LatinProse finds what is left of English prose in a text once everything that may stay
// Latin is taken out: code, flags, names, placeholders, paths and the programs' own messages.

// programNames are the programs, formats and types the texts name as they are written; they are
// names, not prose.
var programNames = []string{"Envoy", "envoy", "Istio", "istiod", "Kubernetes", "protobuf", "kubectl", "istioctl",
	"docker", "podman", "bash", "curl", "jq", "yq", "go", "Homebrew", "brew", "Duration", "DebugString", "ist2-boot",
	"Aggregated", "Discovery", "Service"} // ADS, spelt out

// Tokens that are code, never prose: a flag, a path or URL, key=value, an identifier with _ . - @
// $ { } < > | or digits in it, a word in capitals (FILE, SECTION, JSON) or with capitals inside
// (gRPC, typed_config, HttpProtocolOptions).
var codeLike = regexp.MustCompile(`[-/=_.@${}<>|0-9]|^\p{Lu}{2,}|.\p{Lu}`)

// fenced and quoted spans are code blocks, code spans and quotations: what a program prints.
var (
	fenced = regexp.MustCompile("(?s)```.*?```")
	quoted = regexp.MustCompile("`[^`\n]*`|「[^」\n]*」|“[^”\n]*”|\"[^\"\n]*\"|'[^'\n]*'")
	// A validator line starts with the place (FILE:LINE:COL: ); what follows it, and any colon in
	// it, up to our own words, is Envoy's (or the YAML parser's) message, quoted as it is.
	located       = regexp.MustCompile(`^\S+:\d+:\d+: `)
	programQuoted = regexp.MustCompile(`(^|: |：)[^\p{Han}\p{Hangul}\p{Hiragana}\p{Katakana}]*`)
)

// LatinProse returns each run of three or more English words left in text once code-like tokens,
// quotations, code spans and blocks, and the allowed words (names, command and section names,
// the style sheet's terms) are taken out. Allowed and code tokens are neither words nor breaks:
// "run the --json check" is still four words of prose around one flag.
func LatinProse(text string, allowed map[string]bool) []string {
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

// AllowedWords are the Latin words that may stand in lang's text: the program names, the
// extra words (a command line's commands and sections), and the terms content/style/<lang>.md says to use (its tables' second
// column, in backticks).
func AllowedWords(t testing.TB, lang i18n.Lang, extra ...string) map[string]bool {
	t.Helper()
	words := map[string]bool{}
	for _, n := range programNames {
		words[n] = true
	}
	for _, w := range extra {
		words[w] = true
	}
	for _, w := range []string{"intro", "finish", "glossary", "all", "md", "json", "ko", "zh", "ja", "y", "N"} {
		words[w] = true
	}
	sheet, err := os.ReadFile(filepath.Join(Root(), "content", "style", string(lang)+".md"))
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

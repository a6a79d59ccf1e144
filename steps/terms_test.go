package steps_test

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"ist2-boot/content"
	"ist2-boot/steps/i18n"
)

// term is one row of a style sheet's term table: the words to use for a concept, and the variants
// a learner must never read.
type term struct {
	concept string
	use     []string
	banned  []string
}

var backticked = regexp.MustCompile("`([^`]+)`")

// termTable reads the table under a style sheet's "## 用語/术语/용어" heading: three columns
// (concept, the words to use, the banned variants), the words in backticks; what is not in
// backticks is a comment for the writer.
func termTable(t *testing.T, lang i18n.Lang) []term {
	t.Helper()
	data := styleSheet(t, lang)
	var terms []term
	inTable := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "## ") {
			inTable = strings.Contains(line, "用語") || strings.Contains(line, "术语") || strings.Contains(line, "용어")
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), "|")
		if !inTable || !strings.HasPrefix(line, "|") || len(cells) != 3 || strings.HasPrefix(strings.TrimSpace(cells[0]), "---") {
			continue
		}
		tm := term{concept: strings.TrimSpace(cells[0])}
		for _, m := range backticked.FindAllStringSubmatch(cells[1], -1) {
			tm.use = append(tm.use, m[1])
		}
		for _, m := range backticked.FindAllStringSubmatch(cells[2], -1) {
			tm.banned = append(tm.banned, m[1])
		}
		if len(tm.use) > 0 {
			terms = append(terms, tm)
		}
	}
	if len(terms) < 8 {
		t.Fatalf("%s: only %d terms in the style sheet's table", lang, len(terms))
	}
	return terms
}

// learnerText is every text in lang a learner can read: the pages, and the lang values of the
// lesson (titles, goals, hints), the glossary and the string catalog (the UI, check reasons,
// drills), each named by where it is.
func learnerText(t *testing.T, lang i18n.Lang) map[string]string {
	t.Helper()
	texts := map[string]string{}
	pages, err := fs.Glob(content.FS, string(lang)+"/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("%s: no pages (%v)", lang, err)
	}
	for _, p := range pages {
		data, _ := fs.ReadFile(content.FS, p)
		texts[p] = string(data)
	}
	for _, file := range []string{"lesson.yaml", "glossary.yaml", "strings.yaml"} {
		data, err := fs.ReadFile(content.FS, file)
		if err != nil {
			t.Fatal(err)
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		collect(&doc, string(lang), file, texts)
	}
	return texts
}

// collect adds the value of every lang key under n, named by file and line.
func collect(n *yaml.Node, lang, file string, texts map[string]string) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k, v := n.Content[i], n.Content[i+1]; k.Value == lang && v.Kind == yaml.ScalarNode {
				texts[fmt.Sprintf("%s:%d", file, v.Line)] = v.Value
			}
		}
	}
	for _, c := range n.Content {
		collect(c, lang, file, texts)
	}
}

var codeSpan = regexp.MustCompile("(?s)```.*?```|`[^`\n]*`")

// withoutCode is text without its code (fenced blocks and code spans): a command's `…` is not
// punctuation, and a field name is not a word to translate.
func withoutCode(text string) string { return codeSpan.ReplaceAllString(text, "") }

// bannedAt finds a banned variant in text that is not part of a word to use there (クラスタ in
// クラスター, … in ……).
func bannedAt(text string, tm term) (string, bool) {
	for i := 0; i < len(text); {
		skipped := false
		for _, u := range tm.use {
			if strings.HasPrefix(text[i:], u) {
				i += len(u)
				skipped = true
				break
			}
		}
		if skipped {
			continue
		}
		for _, b := range tm.banned {
			if strings.HasPrefix(text[i:], b) {
				return b, true
			}
		}
		i++
	}
	return "", false
}

// One word per concept: no text a learner can read carries a variant its language's style sheet
// bans.
func TestStyleSheetTermsAreKept(t *testing.T) {
	for _, lang := range i18n.Langs {
		terms := termTable(t, lang)
		for where, text := range learnerText(t, lang) {
			for _, tm := range terms {
				if b, found := bannedAt(withoutCode(text), tm); found {
					t.Errorf("%s %s: %q (%s: use %s)", lang, where, b, tm.concept, strings.Join(tm.use, ", "))
				}
			}
		}
	}
}

// The test reads what it means to: a banned variant planted in a text is found, and one inside a
// word to use is not.
func TestBannedVariantsAreFound(t *testing.T) {
	tm := term{use: []string{"クラスター", "……"}, banned: []string{"クラスタ", "…"}}
	for text, want := range map[string]bool{"クラスターを": false, "クラスタを": true, "待つ……": false, "待つ…": true} {
		if _, found := bannedAt(text, tm); found != want {
			t.Errorf("%q: found %v", text, found)
		}
	}
}

// A placeholder inside code (`<Pod 名>`) is never cut at its inner space: it holds no breaking
// space (a no-break space keeps it whole and reads the same).
func TestPlaceholdersHoldTogether(t *testing.T) {
	spaced := regexp.MustCompile("`[^`\\n]*<[^>`\\n]* [^>`\\n]*>[^`\\n]*`")
	for _, lang := range i18n.Langs {
		for where, text := range learnerText(t, lang) {
			if m := spaced.FindString(text); m != "" {
				t.Errorf("%s %s: %q has a breaking space inside a placeholder", lang, where, m)
			}
		}
	}
}

// spacedParticle is a Korean particle written apart from the code span, Latin word, number,
// argument or quotation before it ("Envoy 를", "{file} 을(를)").
var spacedParticle = regexp.MustCompile("(?:[A-Za-z0-9_`}'’」]) (이|가|을|를|은|는|에|에서|에는|의|로|으로|와|과|도|만|입니다|이다|인|을\\(를\\)|이\\(가\\)|은\\(는\\)|과\\(와\\)|\\(으\\)로)(?:[\\s.,:;)!?]|$)")

var fencedBlock = regexp.MustCompile("(?s)```.*?```")

// Korean particles are written on to the word before them, code spans included (content/style/ko.md,
// 한글 맞춤법 제41항, as kubernetes.io/ko writes: 「kubelet은」, 「`phase`에」).
func TestKoreanParticlesAreAttached(t *testing.T) {
	for where, text := range learnerText(t, i18n.Korean) {
		prose := fencedBlock.ReplaceAllString(text, "") // a command's text is the shell's, not Korean
		if m := spacedParticle.FindString(prose); m != "" {
			t.Errorf("%s: a particle spaced from its word: %q", where, m)
		}
	}
}

// Chinese and Japanese put no space after their full-width comma or full stop (ja r9 M6: 「では、
// Unix ソケット」): the mark carries its own space. Code blocks are left as they are.
func TestNoSpaceAfterFullWidthMarks(t *testing.T) {
	spaced := regexp.MustCompile(`[、。，；：] [^ ·]`) // " · " parts a question from its keys
	for _, lang := range []i18n.Lang{i18n.Chinese, i18n.Japanese} {
		for where, text := range learnerText(t, lang) {
			inBlock := false
			for _, line := range strings.Split(text, "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "```") {
					inBlock = !inBlock
				}
				if m := spaced.FindString(line); m != "" && !inBlock {
					t.Errorf("%s %s: a space after a full-width mark: %q", lang, where, m)
				}
			}
		}
	}
}

var fieldName = regexp.MustCompile("`+ ?([A-Za-z][A-Za-z ]*[A-Za-z]) ?`+")

// kubectlFields are the kubectl field and column names a style sheet's term table says are
// written as code: the row whose concept names kubectl.
func kubectlFields(t *testing.T, lang i18n.Lang) []string {
	t.Helper()
	data := styleSheet(t, lang)
	for _, line := range strings.Split(string(data), "\n") {
		cells := strings.Split(strings.Trim(line, "| "), "|")
		if len(cells) != 3 || !strings.Contains(cells[0], "kubectl") {
			continue
		}
		var names []string
		for _, m := range fieldName.FindAllStringSubmatch(cells[1], -1) {
			names = append(names, m[1])
		}
		if len(names) >= 4 {
			return names
		}
	}
	t.Fatalf("%s: the style sheet has no row of kubectl field names", lang)
	return nil
}

// kubectl's field and column names are quoted as code in every language (each sheet's row): set
// as words they break at their space and read as prose.
func TestKubectlFieldNamesAreCode(t *testing.T) {
	for _, lang := range i18n.Langs {
		fields := kubectlFields(t, lang)
		for where, text := range learnerText(t, lang) {
			prose := withoutCode(text)
			for _, f := range fields {
				if regexp.MustCompile(`(^|[^\w{./-])` + f + `($|[^\w-])`).MatchString(prose) {
					t.Errorf("%s %s: %q not written as code", lang, where, f)
				}
			}
		}
	}
}

// styleSheet is lang's style sheet, content/style/<lang>.md.
func styleSheet(t *testing.T, lang i18n.Lang) []byte {
	t.Helper()
	data, err := fs.ReadFile(content.FS, "style/"+string(lang)+".md")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

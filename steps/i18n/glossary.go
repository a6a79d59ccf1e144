package i18n

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// Term is one glossary entry: the term as the lab writes it (a field, a command, an English
// name), what a language calls it where the pages use a word of their own (ブートストラップ for
// bootstrap), and its line in each language (glossary.yaml writes them as `term:`, `name:` and one
// key per language).
type Term struct {
	Term string
	Name map[Lang]string
	Text map[Lang]string
}

// UnmarshalYAML reads `term:`, `name:` and a line per language; a key that names no language is
// an error.
func (t *Term) UnmarshalYAML(n *yaml.Node) error {
	var fields map[string]yaml.Node
	if err := n.Decode(&fields); err != nil {
		return err
	}
	t.Name, t.Text = map[Lang]string{}, map[Lang]string{}
	for k, v := range fields {
		switch k {
		case "term":
			t.Term = v.Value
			continue
		case "name":
			var names map[Lang]string
			if err := v.Decode(&names); err != nil {
				return fmt.Errorf("line %d: name: %w", v.Line, err)
			}
			for lang, name := range names {
				if _, err := ParseLang(string(lang)); err != nil {
					return fmt.Errorf("line %d: %w", v.Line, err)
				}
				t.Name[lang] = name
			}
			continue
		}
		lang, err := ParseLang(k)
		if err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		t.Text[lang] = v.Value
	}
	return nil
}

// In is the term's line in lang.
func (t Term) In(lang Lang) string { return t.Text[lang] }

// LoadGlossary reads glossary.yaml: every term once, with a line in each language.
func LoadGlossary(fsys fs.FS) ([]Term, error) {
	raw, err := fs.ReadFile(fsys, "glossary.yaml")
	if err != nil {
		return nil, fmt.Errorf("glossary.yaml: %w", err)
	}
	var terms []Term
	dec := yaml.NewDecoder(strings.NewReader(string(raw)))
	dec.KnownFields(true)
	if err := dec.Decode(&terms); err != nil {
		return nil, fmt.Errorf("glossary.yaml is malformed: %w", err)
	}
	seen := map[string]bool{}
	for _, t := range terms {
		if t.Term == "" || seen[t.Term] {
			return nil, fmt.Errorf("glossary.yaml: term %q is empty or repeated", t.Term)
		}
		seen[t.Term] = true
		for _, lang := range Langs {
			if strings.TrimSpace(t.In(lang)) == "" {
				return nil, fmt.Errorf("glossary.yaml: %s has no %s line", t.Term, lang)
			}
		}
	}
	return terms, nil
}

// GlossaryMarkdown is the glossary as a page in lang: a heading, then each term — by the
// language's own name for it where it has one, the term beside it — and its line.
func GlossaryMarkdown(terms []Term, lang Lang) string {
	var b strings.Builder
	b.WriteString("# " + T(lang, "glossary.title", nil) + "\n\n")
	for _, t := range terms {
		head := t.Term
		if !englishWords.MatchString(t.Term) { // a name, field or command is code; "admin port" is words (zh r17 M5)
			head = "`" + t.Term + "`"
		}
		if name := t.Name[lang]; name != "" && namesEveryPart(name, t.Term) {
			head = name // 「CDS 和 LDS」 already says 「CDS / LDS」: no echo in brackets (zh/ja r12 M)
		} else if name != "" {
			head = T(lang, "glossary.named", map[string]string{"name": name, "term": head})
		}
		b.WriteString("- " + T(lang, "glossary.entry", map[string]string{"head": head, "text": t.In(lang)}) + "\n")
	}
	return b.String()
}

// englishWords is a term that is English words, not code: lower case, spaces between.
var englishWords = regexp.MustCompile(`^[a-z]+( [a-z]+)*$`)

// namesEveryPart: each part of a term written "a / b" is in name as it is, so the term in brackets
// after the name would only repeat it.
func namesEveryPart(name, term string) bool {
	for _, part := range strings.Split(term, " / ") {
		if !strings.Contains(name, strings.TrimSpace(part)) {
			return false
		}
	}
	return true
}

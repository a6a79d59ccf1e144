package steps_test

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"ist2-boot/content"
	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
)

// mdShape is the block structure of a markdown page: what must match across languages.
type mdShape struct {
	Headings   []string // "#", "##" … in order
	Paragraphs int
	ListItems  int
	Code       []string // fenced blocks, info string and body, in order
}

func shapeOf(md string) mdShape {
	var s mdShape
	var code []string
	inCode, prevBlank := false, true
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			if inCode {
				s.Code = append(s.Code, strings.Join(code, "\n"))
				code = nil
			} else {
				code = []string{line}
			}
			inCode = !inCode
			prevBlank = true
			continue
		case inCode:
			// A comment is the learner's language's (a "#: key" mark put into words): the
			// code around it is the same in every language, the comment's place too.
			if t := strings.TrimSpace(line); strings.HasPrefix(t, "# ") && !strings.HasPrefix(t, "# ──") {
				line = line[:strings.Index(line, "#")] + "# …"
			} else if strings.HasPrefix(t, "# ──") { // a step's head lists its tools as the language lists
				line = strings.NewReplacer("、", ", ").Replace(line)
			}
			code = append(code, line)
			continue
		case strings.TrimSpace(line) == "":
			prevBlank = true
			continue
		case strings.HasPrefix(line, "#"):
			s.Headings = append(s.Headings, strings.SplitN(line, " ", 2)[0])
		case strings.HasPrefix(line, "- "):
			s.ListItems++
		case prevBlank:
			s.Paragraphs++
		}
		prevBlank = false
	}
	return s
}

var (
	hangul = regexp.MustCompile(`[\p{Hangul}]`)
	kana   = regexp.MustCompile(`[\p{Hiragana}\p{Katakana}]`)
	han    = regexp.MustCompile(`[\p{Han}]`)
)

func prose(t *testing.T, l *steps.Lesson, id string, lang i18n.Lang) string {
	t.Helper()
	text, err := l.Prose(id, lang, &steps.Env{WorkDir: "/w", Fixtures: "/f", Mesh: "/m.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// Every page exists in every language with the same structure and the very same code.
func TestLanguagesAreAligned(t *testing.T) {
	l := steptest.Lesson(t)
	for _, id := range l.PageIDs() {
		ko := shapeOf(prose(t, l, id, i18n.Korean))
		if len(ko.Headings) == 0 || ko.Paragraphs == 0 {
			t.Errorf("%s: Korean page has no headings or paragraphs", id)
		}
		for _, lang := range []i18n.Lang{i18n.Chinese, i18n.Japanese} {
			other := shapeOf(prose(t, l, id, lang))
			if !slices.Equal(other.Headings, ko.Headings) {
				t.Errorf("%s %s: headings %v, Korean %v", id, lang, other.Headings, ko.Headings)
			}
			if other.Paragraphs != ko.Paragraphs || other.ListItems != ko.ListItems {
				t.Errorf("%s %s: %d paragraphs and %d list items, Korean %d and %d", id, lang, other.Paragraphs, other.ListItems, ko.Paragraphs, ko.ListItems)
			}
			if !slices.Equal(other.Code, ko.Code) {
				t.Errorf("%s %s: code blocks differ from Korean:\n%q\n%q", id, lang, other.Code, ko.Code)
			}
		}
		if _, isSection := l.Section(id); isSection && len(ko.Code) == 0 {
			t.Errorf("%s: no reference commands shown", id)
		}
	}
}

// The prose directories hold the same files, and only files the lesson uses.
func TestSamePagesInEveryLanguage(t *testing.T) {
	l := steptest.Lesson(t)
	used := map[string]bool{}
	for _, id := range l.PageIDs() {
		p, _ := l.Page(id)
		for _, lang := range i18n.Langs {
			used[p.Prose[lang]] = true
		}
	}
	names := make([][]string, len(i18n.Langs))
	for i, lang := range i18n.Langs {
		entries, err := fs.ReadDir(content.FS, string(lang))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			names[i] = append(names[i], e.Name())
			if !used[string(lang)+"/"+e.Name()] {
				t.Errorf("%s/%s is not used by the lesson", lang, e.Name())
			}
		}
	}
	for i := range names {
		if !slices.Equal(names[0], names[i]) {
			t.Errorf("files differ: %s has %v, %s has %v", i18n.Langs[0], names[0], i18n.Langs[i], names[i])
		}
	}
}

// Each language is written in its own script: Korean in Hangul, Japanese with kana on every
// page, Chinese in Han with no Hangul left from the seed.
func TestEachLanguageInItsScript(t *testing.T) {
	l := steptest.Lesson(t)
	check := func(where, lang, text string) {
		switch i18n.Lang(lang) {
		case i18n.Korean:
			if !hangul.MatchString(text) {
				t.Errorf("%s: Korean without Hangul: %q", where, text)
			}
		case i18n.Chinese:
			if hangul.MatchString(text) || kana.MatchString(text) || !han.MatchString(text) {
				t.Errorf("%s: Chinese with Hangul or kana, or without Han: %q", where, text)
			}
		case i18n.Japanese:
			if !kana.MatchString(text) || hangul.MatchString(text) {
				t.Errorf("%s: Japanese without kana or with Hangul: %q", where, text)
			}
		default:
			t.Errorf("%s: no script rule for %s: add one here", where, lang)
		}
	}
	for _, id := range l.PageIDs() {
		for _, lang := range i18n.Langs {
			check(id+" "+string(lang), string(lang), prose(t, l, id, lang))
		}
	}
	for _, s := range l.Sections {
		for i, h := range s.Hints {
			for _, lang := range i18n.Langs {
				check(s.ID+" hint "+string(rune('1'+i)), string(lang), h[lang])
			}
		}
		for _, lang := range []i18n.Lang{i18n.Chinese} {
			check(s.ID+" title", string(lang), s.Title[lang])
		}
	}
	terms, err := i18n.LoadGlossary(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, term := range terms {
		for _, lang := range i18n.Langs {
			check("glossary "+term.Term, string(lang), term.In(lang))
		}
	}
	keys, _ := i18n.CatalogKeys()
	for _, k := range keys {
		for _, lang := range []i18n.Lang{i18n.Chinese} {
			if text := i18n.T(lang, k, nil); hangul.MatchString(text) {
				t.Errorf("string %s %s has Hangul: %s", k, lang, text)
			}
		}
	}
}

func TestHintsAndGlossary(t *testing.T) {
	l := steptest.Lesson(t)
	for _, s := range l.Sections {
		if len(s.Hints) < steps.MinHints {
			t.Errorf("%s: %d hints", s.ID, len(s.Hints))
		}
		// Hints stop short of the answer: none holds a whole reference step.
		for _, lang := range i18n.Langs {
			for _, h := range s.Hints {
				for _, st := range s.Steps {
					if strings.Contains(h[lang], strings.TrimSpace(st.Run)) {
						t.Errorf("%s %s: a hint gives the whole reference step", s.ID, lang)
					}
				}
			}
		}
	}
	terms, err := i18n.LoadGlossary(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	if len(terms) < 20 {
		t.Errorf("%d glossary terms, want about twenty", len(terms))
	}
	for _, want := range []string{"pilot-agent", "bootstrap", "ADS", "xDS", "CDS / LDS", "STRICT_DNS", "/ready", "PRE_INITIALIZING", "projected service account token", "audience"} {
		if !slices.ContainsFunc(terms, func(t i18n.Term) bool { return t.Term == want }) {
			t.Errorf("glossary lacks %s", want)
		}
	}
	for _, lang := range i18n.Langs {
		md := i18n.GlossaryMarkdown(terms, lang)
		// Each term as code (English words as they are: "admin port"), or by a name that says
		// every part of it (「CDS 和 LDS」).
		named := slices.IndexFunc(terms, func(t i18n.Term) bool {
			return !strings.Contains(md, "`"+t.Term+"`") && !strings.Contains(md, "- "+t.Name[lang]+"：") &&
				!(strings.ToLower(t.Term) == t.Term && !strings.ContainsAny(t.Term, "-_./") && strings.Contains(md, t.Term))
		}) < 0
		if strings.Count(md, "\n- ") != len(terms) || !named || !strings.HasPrefix(md, "# ") {
			t.Errorf("%s glossary page:\n%s", lang, md)
		}
	}
}

// Every page has a short title for the page list, in every language, a few words long: the whole
// title was cut to five characters there (issue 32).
func TestEveryPageHasAShortTitle(t *testing.T) {
	l := steptest.Lesson(t)
	for _, id := range l.PageIDs() {
		p, _ := l.Page(id)
		for _, lang := range i18n.Langs {
			short := p.Short[lang]
			if short == "" || cells(short) > maxShortTitle {
				t.Errorf("%s %s: short title %q (at most %d cells)", id, lang, short, maxShortTitle)
			}
		}
	}
}

// maxShortTitle bounds a short title: a few words (ui's test holds them whole in the list at 120 columns).
const maxShortTitle = 20

// cells is a text's width on a terminal: two for Hangul, Han and kana, one for the rest.
func cells(s string) int {
	n := 0
	for _, r := range s {
		n++
		if unicode.In(r, unicode.Hangul, unicode.Han, unicode.Hiragana, unicode.Katakana) {
			n++
		}
	}
	return n
}

// Every model note of a section reaches its file: its commands name each REPORT_NOTE_n the section
// sets, and none it does not (zh r19: a sixth note was written in lesson.yaml, never into
// 08-report.md).
func TestEveryNoteIsWritten(t *testing.T) {
	l := steptest.Lesson(t)
	for _, s := range l.Sections {
		var run strings.Builder
		for _, st := range s.Steps {
			run.WriteString(st.Run)
		}
		for name := range s.NoteVars(i18n.Korean) {
			if !strings.Contains(run.String(), "$"+name+`"`) {
				t.Errorf("%s: %s is set but no command writes it", s.ID, name)
			}
		}
		for _, m := range regexp.MustCompile(`REPORT_NOTE_\d+`).FindAllString(run.String(), -1) {
			if _, ok := s.NoteVars(i18n.Korean)[m]; !ok {
				t.Errorf("%s: a command writes %s, which no note sets", s.ID, m)
			}
		}
	}
}

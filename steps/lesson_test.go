package steps_test

import (
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"ist2-boot/content"
	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
)

// lessonFS is the shipped content with lesson.yaml replaced.
func lessonFS(t *testing.T, edit func(string) string) fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(content.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := fs.ReadFile(content.FS, path)
		m[path] = &fstest.MapFile{Data: raw}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	m["lesson.yaml"].Data = []byte(edit(string(m["lesson.yaml"].Data)))
	return m
}

func TestLessonLoads(t *testing.T) {
	l := steptest.Lesson(t)
	var ids []string
	for _, s := range l.Sections {
		ids = append(ids, s.ID)
		for _, lang := range i18n.Langs {
			if s.Title[lang] == "" {
				t.Errorf("%s: no %s title", s.ID, lang)
			}
		}
	}
	// The lab is these eight sections, in this order (lesson.yaml is where they are defined).
	if want := []string{"args", "env", "mesh", "bootstrap", "typo", "ready", "identity", "report"}; !slices.Equal(ids, want) {
		t.Errorf("sections %v", ids)
	}
	// Every file the lab produces is made by exactly one section and names its check (steps/check
	// has a test that every kind named has a judge).
	for _, f := range []string{"inject.yaml", "01-args.txt", "02-env.txt", "03-mesh.txt", "bootstrap.yaml", "04-validate.txt",
		"boot-typo.yaml", "05-typo.txt", "06-node.json", "06-ready.txt", "07-identity.txt", "08-report.md"} {
		if s, _ := l.ProducerOf(f); s == nil {
			t.Errorf("no section produces %s", f)
		}
		if _, spec := l.ProducerOf(f); spec != nil && spec.Check == "" {
			t.Errorf("%s names no check", f)
		}
	}
	if got := l.NeededBy("istioctl"); !slices.Contains(got, "env") || !slices.Contains(got, "identity") {
		t.Errorf("istioctl needed by %v", got)
	}
}

func TestLessonErrors(t *testing.T) {
	tests := []struct {
		name, want string
		edit       func(string) string
	}{
		{"malformed", "malformed", func(s string) string { return s + "\n  - : [\n" }},
		{"unknown field", "malformed", func(s string) string {
			return strings.Replace(s, "  - id: args\n", "  - id: args\n    colour: red\n", 1)
		}},
		{"missing prose", "ko/01-nope.md: file does not exist", func(s string) string {
			return strings.Replace(s, "prose: {ko: ko/01-args.md", "prose: {ko: ko/01-nope.md", 1)
		}},
		{"section repeated", `section id "env" is empty or repeated`, func(s string) string { return strings.Replace(s, "  - id: mesh\n", "  - id: env\n", 1) }},
		{"undefined tool", "envoyx", func(s string) string {
			return strings.Replace(s, "tools: [envoy, curl, jq]", "tools: [envoyx, curl, jq]", 1)
		}},
		{"no title", "no ja title", func(s string) string { return strings.Replace(s, "ja: はじめに", "", 1) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := steps.LoadLesson(lessonFS(t, tt.edit))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want one naming %q", err, tt.want)
			}
		})
	}
}

func TestProseExpandsActivePathsAndCommands(t *testing.T) {
	l := steptest.Lesson(t)
	env := &steps.Env{WorkDir: "/tmp/w", Fixtures: "/tmp/f", Mesh: "/tmp/m.yaml"}
	for _, lang := range i18n.Langs {
		text, err := l.Prose("args", lang, env)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, "/tmp/w/inject.yaml") || !strings.Contains(text, "/tmp/f/inject-target.yaml") || strings.Contains(text, "{{") {
			t.Errorf("%s prose: %s", lang, text)
		}
		if !strings.Contains(text, "istioctl kube-inject --revision default") || !strings.Contains(text, "# ── 2/2 ── yq") {
			t.Errorf("%s prose lacks the reference commands:\n%s", lang, text)
		}
	}
	if _, err := l.Prose("nope", i18n.Korean, env); err == nil {
		t.Error("unknown page accepted")
	}
	if ids := l.PageIDs(); len(ids) != 10 || ids[0] != "intro" || ids[9] != "finish" {
		t.Errorf("pages %v", ids)
	}
}

func BenchmarkLoadLesson(b *testing.B) {
	for b.Loop() {
		if _, err := steps.LoadLesson(content.FS); err != nil {
			b.Fatal(err)
		}
	}
}

// The commands' own messages are in every language, with as many values in each.
func TestSayMessagesAreInEveryLanguage(t *testing.T) {
	l := steptest.Lesson(t)
	if len(l.Say) == 0 {
		t.Fatal("no say messages")
	}
	for k, text := range l.Say {
		for _, lang := range i18n.Langs {
			if text[lang] == "" || strings.Count(text[lang], "%s") != strings.Count(text[i18n.Korean], "%s") {
				t.Errorf("%s %s: %q", k, lang, text[lang])
			}
		}
	}
}

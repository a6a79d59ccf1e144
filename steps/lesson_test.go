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
		{"practice after no section", `practice practice: after "nowhere" is not a section`, func(s string) string {
			return strings.Replace(s, "    after: ready\n", "    after: nowhere\n", 1)
		}},
		{"practice named as a section", `section id "ready" is empty or repeated`, func(s string) string {
			return strings.Replace(s, "  - id: practice\n", "  - id: ready\n", 1)
		}},
		{"practice without hints", "section practice: 0 hints", func(s string) string {
			at := strings.Index(s, "  - id: practice\n")
			from := at + strings.Index(s[at:], "    hints:\n")
			to := at + strings.Index(s[at:], "    # Before this page runs")
			return s[:from] + s[to:]
		}},
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
		if strings.Contains(text, "{{") {
			t.Errorf("%s prose: %s", lang, text)
		}
		// A task names files by their names in the work dir; the intro gives the paths once
		// (ja r7 M7), the learner's own.
		intro, err := l.Prose("intro", lang, env)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(intro, "/tmp/w") || !strings.Contains(intro, "/tmp/f") || !strings.Contains(intro, "/tmp/m.yaml") || strings.Contains(intro, "{{") {
			t.Errorf("%s intro: %s", lang, intro)
		}
		if !strings.Contains(text, "istioctl kube-inject --revision default") || !strings.Contains(text, "# ── 2/2 ── yq") {
			t.Errorf("%s prose lacks the reference commands:\n%s", lang, text)
		}
	}
	if _, err := l.Prose("nope", i18n.Korean, env); err == nil {
		t.Error("unknown page accepted")
	}
	if ids := l.PageIDs(); len(ids) != 11 || ids[0] != "intro" || ids[10] != "finish" {
		t.Errorf("pages %v", ids)
	}
}

// The practice page follows section 6 in reading order, is run, checked and shown by its id like a
// section, and is none of the eight: no number, not in SectionIDs (so not in counts like 4/8).
func TestPracticeFollowsItsSectionUnnumbered(t *testing.T) {
	l := steptest.Lesson(t)
	want := []string{"intro", "args", "env", "mesh", "bootstrap", "typo", "ready", "practice", "identity", "report", "finish"}
	if ids := l.PageIDs(); !slices.Equal(ids, want) {
		t.Errorf("pages %v, want %v", ids, want)
	}
	if len(l.SectionIDs()) != 8 || slices.Contains(l.SectionIDs(), "practice") || l.Number("practice") != 0 {
		t.Errorf("sections %v, practice numbered %d", l.SectionIDs(), l.Number("practice"))
	}
	s, ok := l.Section("practice")
	if !ok || !l.IsPractice("practice") || l.IsPractice("ready") || len(s.Files) != 3 {
		t.Fatalf("practice: %v %+v", ok, s)
	}
	if p, _ := l.ProducerOf("practice-rejected.txt"); p == nil || p.ID != "practice" {
		t.Errorf("practice-rejected.txt is produced by %v", p)
	}
	if ids := l.PracticeIDs(); !slices.Equal(ids, []string{"practice"}) {
		t.Errorf("practice ids %v", ids)
	}
	env := &steps.Env{WorkDir: "/tmp/w", Fixtures: "/tmp/f", Mesh: "/tmp/m.yaml"}
	text, err := l.Prose("practice", i18n.Korean, env)
	if err != nil || !strings.Contains(text, l.Params["practice_server"]) || !strings.Contains(text, "control-plane") || strings.Contains(text, "{{") {
		t.Errorf("practice page (%v):\n%s", err, text)
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

// The pages judged are the sections and the practice pages, in reading order.
func TestCheckedIDs(t *testing.T) {
	l := steptest.Lesson(t)
	ids := l.CheckedIDs()
	if len(ids) != len(l.SectionIDs())+len(l.PracticeIDs()) {
		t.Fatalf("%v", ids)
	}
	for i, id := range l.PracticeIDs() {
		at := slices.Index(ids, id)
		if at < 1 || ids[at-1] != l.Practice[i].After {
			t.Errorf("%s at %d in %v, want after %s", id, at, ids, l.Practice[i].After)
		}
	}
}

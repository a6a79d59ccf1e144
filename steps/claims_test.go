package steps_test

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"ist2-boot/content"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
)

// everyMarkdown is every piece of the lesson that is rendered as markdown, by name: each page in
// each language (with its commands), each hint, and the glossary.
func everyMarkdown(t *testing.T) map[string]string {
	t.Helper()
	l := steptest.Lesson(t)
	terms, err := i18n.LoadGlossary(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{}
	for _, lang := range i18n.Langs {
		for _, id := range l.PageIDs() {
			docs[id+"/"+string(lang)] = prose(t, l, id, lang)
		}
		for _, s := range l.Sections {
			for i, h := range s.Hints {
				docs[fmt.Sprintf("%s/hint%d/%s", s.ID, i+1, lang)] = h[lang]
			}
		}
		docs["glossary/"+string(lang)] = i18n.GlossaryMarkdown(terms, lang)
	}
	return docs
}

// Nothing renders as strikethrough: GitHub markdown (what glamour parses) strikes text between
// tildes, which node ids like sidecar~IP~name~domain are full of. Parsed as glamour parses it.
func TestNothingRendersAsStrikethrough(t *testing.T) {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	for name, doc := range everyMarkdown(t) {
		root := md.Parser().Parse(text.NewReader([]byte(doc)))
		_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if entering && n.Kind() == extast.KindStrikethrough {
				t.Errorf("%s: strikethrough at %q", name, strings.TrimSpace(inlineText(n, []byte(doc))))
			}
			return ast.WalkContinue, nil
		})
	}
}

// Every `kubectl logs` the lesson shows names the proxy's container: injection makes the app the
// default container, so without -c the learner reads the app's log.
func TestEveryKubectlLogsNamesTheProxy(t *testing.T) {
	command := regexp.MustCompile("kubectl logs[^`\"'\n）)]*")
	seen := 0
	err := fs.WalkDir(content.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := fs.ReadFile(content.FS, path)
		if err != nil {
			return err
		}
		for _, c := range command.FindAllString(string(raw), -1) {
			seen++
			if !strings.Contains(c, "-c istio-proxy") {
				t.Errorf("%s: %q does not name -c istio-proxy", path, c)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen == 0 {
		t.Error("no kubectl logs found: the pattern no longer matches the lesson")
	}
}

// Section 1's own text (not only its commands) names --revision default: without it this istioctl
// waits for a cluster, and a learner who follows the text would hang.
func TestSectionOneTextNamesRevisionDefault(t *testing.T) {
	l := steptest.Lesson(t)
	s, _ := l.Section("args")
	for _, lang := range i18n.Langs {
		raw, err := fs.ReadFile(content.FS, s.Prose[lang])
		if err != nil {
			t.Fatal(err)
		}
		task, _, _ := strings.Cut(string(raw), "{{COMMANDS}}")
		if !strings.Contains(task, "--revision default") {
			t.Errorf("%s: section 1's text does not name --revision default", s.Prose[lang])
		}
		if !strings.Contains(s.Hints[0][lang], "--revision default") {
			t.Errorf("%s: the first hint of section 1 does not name --revision default", lang)
		}
	}
}

// Two voices: "error initializing configuration" is what `envoy --mode validate` prints, so every
// paragraph (or hint) that quotes it also names validate mode; what a pod shows is the serve-mode
// line. The rejection section shows the serve-mode signature and both pod forms, in every language.
func TestValidateModeWordsStayWithValidateMode(t *testing.T) {
	validateWords := regexp.MustCompile(`--mode validate|검증 모드|校验模式|検証モード`)
	for name, doc := range everyMarkdown(t) {
		for _, para := range strings.Split(doc, "\n\n") {
			if strings.Contains(para, "error initializing configuration") && !validateWords.MatchString(para) {
				t.Errorf("%s: validate mode's words without saying so:\n%s", name, para)
			}
		}
	}
	l := steptest.Lesson(t)
	for _, lang := range i18n.Langs {
		typo, ready := prose(t, l, "typo", lang), prose(t, l, "ready", lang)
		for _, want := range []string{"` initializing config 'goo.gle/debugproto", "  etc/istio/proxy/envoy-rev.json'",
			"\terror\tEnvoy exited with error: exit status 1", "Init:CrashLoopBackOff", "CrashLoopBackOff   5 (21s ago)"} {
			if !strings.Contains(typo, want) {
				t.Errorf("typo/%s lacks %q", lang, want)
			}
		}
		for _, want := range []string{"Init:1/2", "Running", "Envoy proxy is NOT ready: config not received from XDS server"} {
			if !strings.Contains(ready, want) {
				t.Errorf("ready/%s lacks %q", lang, want)
			}
		}
	}
}

// inlineText is the text of an inline node's children.
func inlineText(n ast.Node, src []byte) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b.Write(t.Segment.Value(src))
		} else {
			b.WriteString(inlineText(c, src))
		}
	}
	return b.String()
}

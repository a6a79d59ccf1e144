package render

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"ist2-boot/content"
	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/steps/steptest"

	xansi "github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

var typesetWidths = []int{40, 60, 80, 120}

// Every page (with all its hints), the glossary, the finish page's review and the drill page at
// each stage, in the three languages at four widths, in the plain and a colour style, set as a
// typesetter would: every line fits, none breaks a kinsoku rule, no inline code span is cut, none
// ends while the next Chinese or Japanese character would still fit, no Korean particle is alone.
func TestPagesAreTypeset(t *testing.T) {
	for _, env := range []*steps.Env{labEnv, sandboxEnv, nearLineEnv} { // fixed paths: the same pages everywhere
		typesetPages(t, env)
	}
}

// sandboxEnv has the sandbox's longer paths, as a learner without the lab pod sees them.
var sandboxEnv = &steps.Env{WorkDir: "/root/.local/share/ist2-boot/work", Fixtures: "/root/.local/share/ist2-boot/fixtures", Mesh: "/root/.local/share/ist2-boot/fixtures/mesh-config.yaml"}

// nearLineEnv is the ko review's H2 case: an XDG_DATA_HOME of 21 characters, which makes a file's
// path in the work dir nearly a 60-column line wide (the particle after it went alone).
var nearLineEnv = &steps.Env{WorkDir: "/tmp/abcdefghijklmnopqrstu/ist2-boot/work", Fixtures: "/tmp/abcdefghijklmnopqrstu/ist2-boot/fixtures", Mesh: "/tmp/abcdefghijklmnopqrstu/ist2-boot/fixtures/mesh-config.yaml"}

func typesetPages(t *testing.T, env *steps.Env) {
	lesson := steptest.Lesson(t)
	terms, err := i18n.LoadGlossary(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range i18n.Langs {
		pages := map[string]string{"glossary": i18n.GlossaryMarkdown(terms, lang)}
		for _, id := range lesson.PageIDs() {
			md, err := lesson.Prose(id, lang, env)
			if err != nil {
				t.Fatal(err)
			}
			if sec, ok := lesson.Section(id); ok && len(sec.Hints) > 0 {
				md += "\n\n## " + i18n.T(lang, "hints.title", nil) + "\n\n"
				for i, h := range sec.Hints {
					md += fmt.Sprintf("%d. %s\n", i+1, h[lang])
				}
			}
			pages[id] = md
		}
		for id, md := range surfacePages(t, lesson, lang) {
			pages[id] = md
		}
		for id, md := range pages {
			for _, width := range typesetWidths {
				for _, style := range []Style{Plain, Dark} {
					out, err := RenderMarkdown(md, width, style)
					if err != nil {
						t.Fatal(err)
					}
					g, _ := geometryFor(style, width-glamourMargin)
					where := fmt.Sprintf("%s %s %s width %d style %d", env.WorkDir, lang, id, width, style)
					for _, p := range pageProblems(xansi.Strip(out), md, width, g.margin+g.limit, codeSpans(md), g.codePad) {
						t.Errorf("%s: %s", where, p)
					}
				}
			}
		}
	}
}

// The output pane's and the diff view's messages, and the status bar's popup: every string of the
// catalog, wrapped as the pane wraps them (a hanging indent of four) and as the popup does, set by
// the same rules.
func TestMessagesAreTypeset(t *testing.T) {
	keys, err := i18n.CatalogKeys()
	if err != nil {
		t.Fatal(err)
	}
	placeholder := regexp.MustCompile(`\{[a-z_]+\}`)
	for _, lang := range i18n.Langs {
		for _, key := range keys {
			msg := placeholder.ReplaceAllString(i18n.T(lang, key, nil), "/root/.local/share/ist2-boot/work/04-validate.txt")
			for _, width := range typesetWidths {
				for _, para := range strings.Split(msg, "\n") { // each paragraph set (and balanced) alone
					lines := WrapLines("    "+para, width, 4)
					for _, p := range pageProblems(strings.Join(lines, "\n"), para, width, width, nil, 0) {
						t.Errorf("%s %s width %d: %s", lang, key, width, p)
					}
					// The status bar's popup: the message in a box across the screen (two cells of
					// border and margin each side).
					popup := WrapLines(para, width-4, 0)
					for _, p := range pageProblems(strings.Join(popup, "\n"), para, width-4, width-4, nil, 0) {
						t.Errorf("%s %s popup at %d: %s", lang, key, width, p)
					}
				}
			}
		}
	}
}

// typesetProblems lists what a typesetter would not let pass in rendered text: lines wider than
// width; lines starting with what kinsoku keeps from a line's start, or ending with what it keeps
// from a line's end; code spans (that fit on a line) cut across lines; a line that ends while
// the next line's first Chinese or Japanese character (with the marks kinsoku keeps with it)
// would have fitted within full cells; a Korean particle alone at a line's start.
func typesetProblems(out, source string, width, full int, spans []string, codePad int) []string {
	return typeset(out, source, width, full, spans, codePad, false)
}

// pageProblems is typesetProblems for a rendered page, whose blocks are balanced: no block ends
// with a character or two alone.
func pageProblems(out, source string, width, full int, spans []string, codePad int) []string {
	return typeset(out, source, width, full, spans, codePad, true)
}

func typeset(out, source string, width, full int, spans []string, codePad int, balancing bool) []string {
	flow := func(s string) string { return strings.Join(strings.Fields(strings.ReplaceAll(s, "\u00a0", " ")), " ") }
	headings := headingTexts(source)
	joined := []rune(asciiSpace.ReplaceAllString(strings.ReplaceAll(source, "`", ""), " ")) // no-break spaces kept
	source = flow(strings.ReplaceAll(source, "`", ""))
	var problems []string
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	inCode := false
	balanced := balancedBlocks(lines)
	for i, l := range lines {
		// A block's last line is never a character or two alone (with its mark): a block that
		// would end so is set again, each line a little shorter (balanced[i]: its lines may end
		// early by that much).
		if balancing && runt(lines, i) {
			problems = append(problems, fmt.Sprintf("line %d ends a block with %q alone", i+1, strings.Trim(l, " \u00a0")))
		}
		if w := xansi.StringWidth(l); w > width {
			problems = append(problems, fmt.Sprintf("line %d is %d cells: %q", i+1, w, l))
		}
		body := strings.TrimSpace(strings.Trim(l, " \u00a0"))
		if strings.HasPrefix(l, "    ") && !strings.HasPrefix(strings.TrimLeft(l, " "), "•") && looksLikeCode(body) {
			inCode = true
		} else if body == "" {
			inCode = false
		}
		if body == "" || inCode {
			continue
		}
		// ASCII punctuation may start a line after a break at a space (":15021", ".spec").
		if first, _ := firstRune(body); strings.ContainsRune(noStart, first) && first > unicode.MaxASCII && i > 0 && strings.TrimSpace(lines[i-1]) != "" {
			problems = append(problems, fmt.Sprintf("line %d starts with %q: %q", i+1, first, l))
		}
		// A code span longer than a line (a message quoted whole) is cut at its spaces: a line may
		// end inside it with an ASCII bracket, as the quoted text has it.
		inLongSpan := i+1 < len(lines) && splitsLongSpan(body, strings.Trim(lines[i+1], " \u00a0"), spans, width)
		if last := lastRune(body); strings.ContainsRune(noEnd, last) && !(last <= unicode.MaxASCII && inLongSpan) {
			problems = append(problems, fmt.Sprintf("line %d ends with %q: %q", i+1, last, l))
		}
		if i+1 >= len(lines) {
			continue
		}
		next := strings.Trim(lines[i+1], " \u00a0")
		if next == "" || startsItem(next) {
			continue
		}
		if isCJK(next) && !splitsLongSpan(body, next, spans, width) {
			need := max(leadingCluster(next), labelWithNumber(next), joinedWidth(joined, next), heldFact(source, next), kanaNeed(body, next), colonLabelNeed(body, next))
			for _, s := range spans {
				if strings.HasPrefix(next, s) {
					need = max(need, xansi.StringWidth(s)+codePad)
				}
			}
			unpad := func(s string) string { return strings.TrimSpace(strings.ReplaceAll(s, "\u00a0", "")) }
			if tail, head := lastRunes(unpad(body), 2), firstRunes(unpad(next), 2); strings.Contains(source, tail+" "+head) {
				need++ // the break took a space (Latin text, code and CJK are spaced in this lesson)
			}
			room := full
			if strings.HasPrefix(body, "#") || strings.HasPrefix(l, "   ") && !strings.HasPrefix(l, "    ") {
				room-- // a heading (in colour styles: the one-cell indent) keeps a cell for its padding
			}
			if balanced[i] {
				room -= 3 * shortLast // balancing the block shortened its lines
			}
			if endsTitle(headings, body) {
				// a hard break: the line ends where it is written to
			} else if inHeading(headings, body, next) {
				// A heading breaks between phrases (keepPhrases): early, but never inside a word.
				if !phraseBreak(lastRune(body), next) && !onePhrase(unmark(body)) {
					problems = append(problems, fmt.Sprintf("heading line %d breaks inside a phrase: %q / %q", i+1, l, lines[i+1]))
				}
			} else if xansi.StringWidth(strings.TrimRight(l, " "))+need <= room {
				problems = append(problems, fmt.Sprintf("line %d ends early (%d cells, the next %d would fit in %d): %q / %q", i+1, xansi.StringWidth(strings.TrimRight(l, " ")), need, room, l, lines[i+1]))
			}
		}
		for _, p := range particles {
			if strings.HasPrefix(next, p+" ") || next == p || strings.HasPrefix(next, p+",") || strings.HasPrefix(next, p+".") {
				// Allowed only where the word before could not have taken it along.
				kept := xansi.StringWidth(strings.TrimRight(l, " ")) + 1 + xansi.StringWidth(p)
				if !isHangul(lastWord(body)) && kept <= full {
					problems = append(problems, fmt.Sprintf("line %d starts with the particle %q alone: %q", i+2, p, lines[i+1]))
				}
			}
		}
	}
	problems = append(problems, cutSpans(lines, spans, width, wideWords(source, spans, full, codePad))...)
	return problems
}

// cutSpans: a code span that fits on a line appears whole on one line as often as it appears in
// the text with its line breaks taken out.
func cutSpans(lines []string, spans []string, width int, inWideWord map[string]bool) []string {
	var problems []string
	var prose []string // code blocks are judged by how they paste, not here
	for _, l := range lines {
		if !strings.HasPrefix(l, "    ") {
			prose = append(prose, l)
		}
	}
	lines = prose
	var joined strings.Builder
	for _, l := range lines {
		joined.WriteString(strings.Trim(l, " \u00a0"))
	}
	seen := map[string]bool{}
	for _, s := range spans {
		if seen[s] || xansi.StringWidth(s) > width-12 || strings.TrimSpace(s) == "" || insideLongSpan(s, spans, width) || inWideWord[s] {
			continue
		}
		seen[s] = true
		whole := 0
		for _, l := range lines {
			whole += strings.Count(l, s)
		}
		if all := strings.Count(joined.String(), s); whole < all {
			problems = append(problems, fmt.Sprintf("code span %q cut across lines (%d of %d whole)", s, whole, all))
		}
	}
	return problems
}

// wideWords are the code spans that stand in a Korean word (어절) wider than a line — a particle
// written on to them (「`valueFrom.fieldRef.fieldPath`)은」): the span is cut at its dots
// rather than the particle left alone at a line's start (the breaker's longParticleWords).
const listIndent = 4

func wideWords(source string, spans []string, width, codePad int) map[string]bool {
	wide := map[string]bool{}
	for _, s := range spans {
		word := regexp.MustCompile(`\S*` + regexp.QuoteMeta(s) + `\S*`)
		for _, w := range word.FindAllString(source, -1) {
			if !strings.ContainsFunc(w, func(r rune) bool { return unicode.Is(unicode.Hangul, r) }) {
				continue
			}
			// width is the text's full measure: a list item's is its indent less.
			if xansi.StringWidth(w)+2*codePad > width-listIndent {
				wide[s] = true
			}
		}
	}
	return wide
}

// insideLongSpan: s is part of a code span longer than a line, which is cut, and s with it.
func insideLongSpan(s string, spans []string, width int) bool {
	for _, long := range spans {
		if long != s && xansi.StringWidth(long) > width-12 && strings.Contains(long, s) {
			return true
		}
	}
	return false
}

// splitsLongSpan: the break between two lines is inside a code span longer than a line: the end
// of the one and the start of the other meet inside it (at a space it was cut at, or not).
func splitsLongSpan(before, after string, spans []string, width int) bool {
	tail, head := lastRunes(strings.TrimRight(before, " \u00a0"), 6), firstRunes(strings.TrimLeft(after, " \u00a0"), 6)
	for _, s := range spans {
		if xansi.StringWidth(s) > width-12 && (strings.Contains(s, tail+" "+head) || strings.Contains(s, tail+head)) {
			return true
		}
	}
	return false
}

// codeSpans are the texts of md's inline code spans.
func codeSpans(md string) []string {
	src := []byte(md)
	var spans []string
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if c, ok := n.(*ast.CodeSpan); ok && entering {
			var b strings.Builder
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if txt, ok := t.(*ast.Text); ok {
					b.Write(txt.Segment.Value(src))
				}
			}
			spans = append(spans, b.String())
		}
		return ast.WalkContinue, nil
	})
	return spans
}

// leadingCluster is the width of what starts a line and could not have been parted: its first
// character, the marks kinsoku keeps with it (what may not start a line, what follows what may
// not end one), and a run of Latin letters, digits and signs.
func leadingCluster(s string) int {
	w, prev, end := 0, rune(0), len(s)
	for i, r := range s {
		ascii := func(c rune) bool { return c > ' ' && c <= unicode.MaxASCII }
		mei := (prev == '每' || prev == '毎') && unicode.Is(unicode.Han, r) || // 「每一步」 is one word
			prev == '第' && strings.ContainsRune("一二三四五六七八九十百两", r) // 「第三类」 too
		if i > 0 && !strings.ContainsRune(noStart, r) && !strings.ContainsRune(noEnd, prev) && !(ascii(prev) && ascii(r)) && !mei {
			end = i
			break
		}
		w += xansi.StringWidth(string(r))
		prev = r
	}
	if strings.HasPrefix(s[end:], " ·") {
		w += 2 // a separator never starts a line: the word before it goes with it
	}
	return w
}

var numbered = regexp.MustCompile(`^\d+\. `)

func startsItem(s string) bool {
	return strings.HasPrefix(s, "•") || strings.HasPrefix(s, "#") || numbered.MatchString(s)
}

func looksLikeCode(s string) bool {
	for _, r := range s {
		if r > unicode.MaxASCII {
			return false
		}
	}
	return s != ""
}

func lastRunes(s string, n int) string {
	r := []rune(s)
	return string(r[max(len(r)-n, 0):])
}

func firstRunes(s string, n int) string {
	r := []rune(s)
	return string(r[:min(n, len(r))])
}

func lastWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

// B11: in the tutorial's review a section not passed has no "passed first time" answer (none,
// in words: zh r14 L26), and nothing is cut to a cell: every title shows whole.
func TestReviewListSaysNoneForNotPassed(t *testing.T) {
	l := steptest.Lesson(t)
	r := progress.MakeReview(l.SectionIDs(), map[string]check.SectionResult{}, nil)
	for _, lang := range i18n.Langs {
		md := ReviewList(r, l, lang)
		dash := whole(i18n.T(lang, "review.fact", map[string]string{"label": i18n.T(lang, "review.first_time", nil), "value": i18n.T(lang, "review.none", nil)}))
		if strings.Contains(md, i18n.T(lang, "review.no", nil)) || !strings.Contains(md, dash) {
			t.Errorf("%s:\n%s", lang, md)
		}
		for _, s := range l.Sections {
			if !strings.Contains(md, s.Title[lang]) {
				t.Errorf("%s: title %q missing", lang, s.Title[lang])
			}
		}
	}
}

// heldFact is the width of the fact the next line starts with when the source holds its
// characters together with word joiners (the review list's 「通过用时：1 分 0 秒」): one cluster.
func heldFact(source, next string) int {
	fact, _, sep := strings.Cut(next, " ·")
	if len([]rune(fact)) < 2 || !strings.Contains(source, strings.ReplaceAll(whole(fact), "\u00a0", " ")) {
		return 0
	}
	w := xansi.StringWidth(fact) + 1 // and the space the break took before it
	if sep {
		w += 2 // and the separator after it
	}
	return w
}

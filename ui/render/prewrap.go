package render

import (
	"regexp"
	"slices"
	"strings"

	xansi "github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// nbsp starts a list item's later lines, under its text: glamour sets them back under the
// bullet, and leading spaces would be taken for Markdown indentation.
const nbsp = "\u00a0"

// edit replaces md[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// prewrap breaks the paragraphs, list items and headings of md where Wrap would break them at
// glamour's widths (g), so that glamour, which breaks only at spaces and hyphens, sets them as
// given: paragraphs and items with "\n" (rendered with preserved newlines); headings of level 1
// and 2 written as setext headings, whose text may hold newlines; deeper ones — one line of
// Markdown — with a space at each break and no-break spaces elsewhere (glamour also breaks after
// hyphens there, which this cannot stop). A
// block with Markdown this does not model (links, HTML, nesting) is left to glamour.
func prewrap(md string, g geometry) string {
	src := []byte(md)
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src))
	var edits []edit
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindParagraph, ast.KindTextBlock:
			r, hang, ok := blockRoom(n, g)
			if ok {
				if e, ok := breakBlock(n, src, g.codePad, r, hang, false, true, false); ok {
					edits = append(edits, e)
				}
			}
			return ast.WalkSkipChildren, nil
		case ast.KindHeading:
			level := n.(*ast.Heading).Level
			// A heading breaks between phrases, and its later lines stand under its text, not
			// under its "# " mark (zh B11).
			r := g.heading[level]
			if e, ok := breakBlock(n, src, g.codePad, r, max(-r.shift, 0), level > 2, level <= 2, true); ok {
				if level <= 2 {
					e = setext(e, src, level)
				}
				edits = append(edits, e)
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	slices.SortFunc(edits, func(a, b edit) int { return b.start - a.start })
	for _, e := range edits {
		md = md[:e.start] + e.text + md[e.end:]
	}
	return md
}

// blockRoom is the room a paragraph or a list item's text has, and the hanging indent its later
// lines take to stay under the text; false for blocks inside quotes or nested lists.
func blockRoom(n ast.Node, g geometry) (room, int, bool) {
	depth, item := 0, ast.Node(nil)
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case ast.KindBlockquote:
			return room{}, 0, false
		case ast.KindListItem:
			depth, item = depth+1, p
		}
	}
	if depth == 0 {
		return g.para, 0, true
	}
	if depth > 1 || n.PreviousSibling() != nil {
		return room{}, 0, false
	}
	r := g.item
	if list, ok := item.Parent().(*ast.List); ok && list.IsOrdered() {
		// The probe's marker is "1."; item 10 on has a wider one.
		number := list.Start
		for c := list.FirstChild(); c != nil && c != item; c = c.NextSibling() {
			number++
		}
		if number > 9 {
			return room{}, 0, false
		}
		r = g.numbered
	}
	if r.shift > 0 || r.first <= 0 {
		return room{}, 0, false
	}
	return r, -r.shift, true
}

// breakBlock sets one block's inline text into lines; balance keeps its last line from being a
// character or two alone; phrased breaks between phrases where one fits (keepPhrases).
func breakBlock(n ast.Node, src []byte, codePad int, r room, hang int, spaced, balance, phrased bool) (edit, bool) {
	lines := n.Lines()
	if lines.Len() == 0 || r.first <= 0 || r.rest-hang <= 0 {
		return edit{}, false
	}
	start, end := lines.At(0).Start, lines.At(lines.Len()-1).Stop
	us, ok := inlineUnits(n, src, start, end, codePad)
	if !ok {
		return edit{}, false
	}
	width := 0
	for _, u := range us {
		width += u.w
	}
	if width <= r.first && lines.Len() == 1 {
		return edit{}, false // fits: nothing to do
	}
	tiers := breakTiers(us)
	longParticleWords(us, tiers, r.rest-hang)
	if phrased {
		keepPhrases(us, tiers)
	} else if title := slices.IndexFunc(us, func(u unit) bool { return u.hard }); title > 0 {
		// A block's first line ended by a hard break is its title (a review item's): set as a
		// heading is, between phrases.
		keepPhrases(us[:title], tiers[:title])
	}
	for i := range us {
		if !spaced && startsBlock(us[i:]) {
			tiers[i] = tierNone // a line starting "- " or "# " would become another block
		}
	}
	set := fill(us, tiers, r.first, r.rest-hang, hangRoom)
	if balance {
		set = balanced(us, tiers, set, r)
	}
	var b strings.Builder
	for k, l := range set {
		line := us[l[0]:l[1]]
		if k > 0 {
			if spaced {
				b.WriteString(" ")
			} else {
				b.WriteString("\n" + strings.Repeat(nbsp, hang))
			}
		}
		if spaced {
			line = slices.Clone(line)
			for i := range line {
				if line[i].space && i < len(line)-1 {
					line[i].text = nbsp // glamour must not break here
				}
			}
		}
		b.WriteString(emit(line))
	}
	return edit{start: start, end: end, text: b.String()}, true
}

// shortLast is the widest last line of a block a typesetter would rather not leave alone
// ("目的⏎です。"); runtLast the widest one it never leaves alone where a break allows ("情⏎况",
// "ま⏎す。").
const (
	shortLast = 6
	runtLast  = 4
)

// balanced keeps a block's last line from being a character or two alone: the line before it
// breaks at its last line-breaking opportunity that gives the last line more,
// if the two still fit; the lines before are as they were.
func balanced(us []unit, tiers []tier, lines [][2]int, r room) [][2]int {
	n := len(lines)
	if n < 2 || width(us[lines[n-1][0]:lines[n-1][1]]) > shortLast {
		return lines
	}
	prev, end := lines[n-2], lines[n-1][1]
	for _, u := range us[prev[1]:lines[n-1][0]] {
		if u.hard {
			return lines // the last line was begun by a hard break: it is as short as it is written
		}
	}
	limit := r.rest
	if n == 2 {
		limit = r.first
	}
	// A last line longer than shortLast if a break gives one, else longer than runtLast; a break
	// between phrases first, inside a phrase (a heading of Han characters alone) else.
	for _, least := range []int{shortLast, runtLast} {
		if width(us[lines[n-1][0]:end]) > least {
			break
		}
		for t := tierBreak; t <= tierPhrase; t++ {
			for j := prev[1] - 1; j > prev[0]; j-- {
				rest := skipSpaces(us, j)
				if tiers[j] != t || width(us[rest:end]) > r.rest || width(us[prev[0]:j]) > limit {
					continue
				}
				if width(us[rest:end]) > least {
					out := slices.Clone(lines)
					out[n-2], out[n-1] = [2]int{prev[0], j}, [2]int{rest, end}
					return out
				}
			}
		}
	}
	return lines
}

// setext turns the edit of an ATX heading's text ("## text") into a setext heading over the
// whole line ("line\nline\n---"), whose text may hold the line breaks; a setext heading's edit
// is already right.
func setext(e edit, src []byte, level int) edit {
	lineStart := strings.LastIndexByte(string(src[:e.start]), '\n') + 1
	if !strings.HasPrefix(string(src[lineStart:]), "#") {
		return e
	}
	lineEnd := len(src)
	if nl := strings.IndexByte(string(src[e.end:]), '\n'); nl >= 0 {
		lineEnd = e.end + nl
	}
	underline := "==="
	if level == 2 {
		underline = "---"
	}
	return edit{start: lineStart, end: lineEnd, text: e.text + "\n" + underline}
}

// inlineUnits makes the units of a block's inline content from its source, src[start:end]:
// text graphemes, code spans (one word, padded as glamour pads them; their backticks ride on
// their first and last units), soft line breaks as spaces, hard ones as breaks. Anything else:
// not modelled.
func inlineUnits(n ast.Node, src []byte, start, end, codePad int) ([]unit, bool) {
	var us []unit
	pos := start
	pending := ""
	var inlineUnit func(c ast.Node) bool
	addText := func(s string, code bool) {
		state := -1
		for len(s) > 0 {
			var g string
			g, s, _, state = uniseg.FirstGraphemeClusterInString(s, state)
			us = append(us, unit{pre: pending, text: g, w: xansi.StringWidth(g), space: (g == " " || g == "\u3000") && !code, code: code})
			pending = ""
		}
	}
	var walk func(n ast.Node) bool //lint:ignore S1021 declared first: the closure calls itself
	walk = func(n ast.Node) bool {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if !inlineUnit(c) {
				return false
			}
		}
		return true
	}
	inlineUnit = func(c ast.Node) bool {
		switch c := c.(type) {
		case *ast.Text:
			seg := c.Segment
			if seg.Start < pos {
				return false
			}
			pending += string(src[pos:seg.Start])
			addText(string(seg.Value(src)), false)
			pos = seg.Stop
			if c.HardLineBreak() {
				// The line ends here: the backslash or spaces, the newline and the next line's
				// indentation are set as a break (with the block's hanging indent).
				next := pos
				for next < end && strings.ContainsRune("\\ \t", rune(src[next])) {
					next++
				}
				if next < end && src[next] == '\r' {
					next++
				}
				if next < end && src[next] == '\n' {
					next++
				}
				for next < end && strings.ContainsRune(" \t", rune(src[next])) {
					next++
				}
				us = append(us, unit{pre: pending, hard: true, space: true})
				pending, pos = "", next
			} else if c.SoftLineBreak() {
				// The newline (and the next line's indentation) becomes one space.
				next := pos
				for next < end && strings.ContainsRune("\r\n \t", rune(src[next])) {
					next++
				}
				us = append(us, unit{pre: pending, text: " ", w: 1, space: true})
				pending, pos = "", next
			}
		case *ast.CodeSpan:
			open, close, ok := codeSpanBounds(c, src, pos, end)
			if !ok {
				return false
			}
			first := len(us)
			pending += string(src[pos:open[1]])
			addText(string(src[open[1]:close[0]]), true)
			if len(us) == first {
				return false
			}
			us[first].w += codePad / 2
			us[len(us)-1].w += codePad - codePad/2
			us[len(us)-1].post += string(src[close[0]:close[1]])
			pos = close[1]
		case *ast.AutoLink:
			// A bare URL (GFM's linkify) is set as the text it is: one word, cut at a slash.
			seg := c.URL(src)
			at := strings.Index(string(src[pos:end]), string(seg))
			if at < 0 {
				return false
			}
			pending += string(src[pos : pos+at])
			addText(string(seg), false)
			pos += at + len(seg)
		case *ast.Emphasis:
			// Its markers (** or _) are zero-width bytes before and after its text.
			return walk(c)
		default:
			return false
		}
		return true
	}
	if !walk(n) {
		return nil, false
	}
	if len(us) == 0 {
		return nil, false
	}
	us[len(us)-1].post += pending + string(src[pos:end])
	return us, true
}

// codeSpanBounds finds a code span's delimiters in the source: [start, end) of the opening run of
// backticks (with the one space CommonMark strips) and of the closing one.
func codeSpanBounds(c *ast.CodeSpan, src []byte, pos, end int) (open, close [2]int, ok bool) {
	var segs []text.Segment
	for t := c.FirstChild(); t != nil; t = t.NextSibling() {
		txt, isText := t.(*ast.Text)
		if !isText {
			return open, close, false
		}
		segs = append(segs, txt.Segment)
	}
	if len(segs) == 0 {
		return open, close, false
	}
	cs, ce := segs[0].Start, segs[len(segs)-1].Stop
	for i := 1; i < len(segs); i++ {
		if segs[i].Start != segs[i-1].Stop {
			return open, close, false // a span over several lines
		}
	}
	o := cs
	for o > pos && src[o-1] == '`' {
		o--
	}
	if o == cs && cs > pos && src[cs-1] == ' ' { // "`` `x` ``": one space stripped
		o = cs - 1
		for o > pos && src[o-1] == '`' {
			o--
		}
	}
	ticks := strings.Count(string(src[o:cs]), "`")
	e := ce
	if e < end && src[e] == ' ' && strings.HasSuffix(string(src[o:cs]), " ") {
		e++
	}
	if e+ticks > end || strings.Count(string(src[e:e+ticks]), "`") != ticks || ticks == 0 {
		return open, close, false
	}
	return [2]int{o, cs}, [2]int{ce, e + ticks}, true
}

// blockStart matches what at the start of a line would begin another block.
var blockStart = regexp.MustCompile("^(#{1,6}(\\s|$)|[-+*](\\s|$)|>|=+\\s*$|(-\\s*){3,}$|(_\\s*){3,}$|(\\*\\s*){3,}$|\\d{1,9}[.)](\\s|$)|```|~~~)")

func startsBlock(us []unit) bool {
	var s strings.Builder
	for _, u := range us {
		s.WriteString(u.pre + u.text)
		if s.Len() > 12 {
			break
		}
	}
	return blockStart.MatchString(s.String())
}

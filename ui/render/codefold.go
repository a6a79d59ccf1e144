package render

import (
	"regexp"
	"strings"
	"unicode"

	xansi "github.com/charmbracelet/x/ansi"
)

// foldCodeBlocks folds the long lines of fenced code blocks before glamour sees them: glamour
// would wrap them flush left, where they no longer read as the command they continue. Shell
// blocks fold so that what is pasted still runs as written; others at spaces.
func foldCodeBlocks(md string, width int) string {
	var out []string
	var fence string // the open fence's info string; "" outside code
	inCode, table := false, false
	sh := shellState{}
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "```") {
			inCode, fence, sh = !inCode, strings.TrimSpace(strings.TrimPrefix(l, "```")), shellState{}
			table = false
			out = append(out, l)
			continue
		}
		// A table runs from its header to a blank line or the next command (a drill shows
		// several commands' output in one block: only the table is clipped).
		table = inCode && (isPodTable(l) || table && strings.TrimSpace(l) != "" && !strings.HasPrefix(strings.TrimSpace(l), "$ "))
		switch {
		case !inCode:
			out = append(out, l)
		case fence == "sh" || fence == "bash" || fence == "shell":
			out = append(out, sh.fold(l, width)...)
		case table:
			out = append(out, clip(expandTabs(l), width))
		case fence == "markdown" && !strings.Contains(l, "`"):
			// A learner's notes are prose: set by the page's breaker (kinsoku, a number with
			// its counter: ja r11 M5), continued under the text after the bullet.
			out = append(out, WrapLines(l, width, bulletHang(l))...)
		default:
			out = append(out, foldWords(expandTabs(l), width)...)
		}
	}
	return strings.Join(out, "\n")
}

// podTableHead is how `kubectl get pod` starts its table: a row folded there would no longer line
// up with its header, so such a table is clipped at the width instead (ja r11 M4); its last
// column (AGE) is the one lost, and the text never uses it.
var podTableHead = regexp.MustCompile(`^\s*NAME {2,}READY {2,}STATUS {2,}RESTARTS`)

func isPodTable(line string) bool { return podTableHead.MatchString(line) }

// clip cuts a line wider than width cells, marking the cut with "…".
func clip(line string, width int) string {
	if xansi.StringWidth(line) <= width {
		return line
	}
	return strings.TrimRight(line[:cellBoundary(line, width-1)], " ") + "…"
}

// expandTabs sets a line's tabs as a terminal shows them, to the next multiple of eight cells (a
// log line of pilot-agent's is tab-separated): a tab's width is not one cell, and a fold that
// counted it as one would let the line overflow its pane.
func expandTabs(line string) string {
	if !strings.Contains(line, "\t") {
		return line
	}
	var b strings.Builder
	col := 0
	for _, r := range line {
		if r == '\t' {
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col += xansi.StringWidth(string(r))
	}
	return b.String()
}

// continued ends a folded shell line: a backslash before the newline joins the lines again.
const continued = " \\"

// cutMark starts the rest of a line folded where no fold can be pasted back (inside quotes, or a
// word longer than the line): it shows the line goes on.
const cutMark = "↪ "

// shellState follows a shell script line by line: here-documents whose body is not shell.
type shellState struct {
	heredoc string // the delimiter that ends the current here-document; "" outside one
	// single and double: the line starts inside a quoted string opened on a line before (a yq
	// program over several lines): its spaces are the string's, and a backslash would be too.
	single, double bool
}

// fold folds one line of a shell script at spaces the shell reads as spaces — outside quotes,
// not escaped — ending each piece with " \"; a comment goes on as a comment ("# " again). Where
// no such space fits, the line is cut and the rest marked with ↪.
func (s *shellState) fold(line string, width int) []string {
	inHeredoc := s.heredoc != ""
	if inHeredoc && strings.TrimSpace(line) == s.heredoc {
		s.heredoc = ""
		return []string{line}
	}
	quoted := s.single || s.double
	if !inHeredoc && !quoted {
		s.startHeredoc(line)
	}
	safe, comment, single, double := shellBreaks(line, inHeredoc, s.single, s.double)
	if !inHeredoc {
		s.single, s.double = single, double
	}
	if xansi.StringWidth(line) <= width {
		return []string{line}
	}
	if c := strings.TrimLeft(line, " "); !inHeredoc && !quoted && strings.HasPrefix(c, "# ") {
		// A comment line is prose (in the learner's language): set by the pages' breaker,
		// each line a comment again.
		lead := line[:len(line)-len(c)] + "# "
		var out []string
		for _, l := range WrapLines(strings.TrimPrefix(c, "# "), max(width-xansi.StringWidth(lead), 8), 0) {
			out = append(out, lead+l)
		}
		return out
	}
	indent := len(line) - len(strings.TrimLeft(line, " "))
	if indent+2 > width/2 {
		indent = 0
	}
	pad := strings.Repeat(" ", indent+2)
	// A here-document's line is the file's, not the shell's: a continuation would hold only in an
	// unquoted one, and a reader copying the YAML would get the backslash (ja T9). It is cut.
	var out []string
	start, prefix := 0, ""
	for start < len(line) {
		rest := line[start:]
		room := width - xansi.StringWidth(prefix)
		if xansi.StringWidth(rest) <= room {
			out = append(out, prefix+rest)
			break
		}
		cut, cutInComment := -1, false
		for i := start + 1; i < len(line); i++ {
			inComment := comment >= 0 && i > comment
			mark := len(continued)
			if inComment {
				mark = 0
			}
			if xansi.StringWidth(line[start:i])+mark > room {
				break
			}
			if inComment && line[i] == ' ' || !inComment && safe[i] {
				cut, cutInComment = i, inComment
			}
		}
		piece, next := "", pad
		switch {
		case cut < 0 && comment >= 0 && start > comment: // a word longer than the line, in a comment
			cut = start + cellBoundary(rest, room)
			piece, next = line[start:cut], pad+"# "
		case cut < 0:
			cut = start + cellBoundary(rest, room)
			if sl := strings.LastIndex(line[start:cut], "/"); sl > 0 {
				cut = start + sl + 1 // a path parts after a slash, not inside a file's name (zh r15 M1)
			} else if p := flagItemEnd(line[start:cut], room); p > 0 {
				cut = start + p // a flag's value parts between its items ("REASON:.reason,⏎MESSAGE:.message": zh r20 M1)
			}
			piece, next = line[start:cut], pad+cutMark
		case cutInComment:
			piece, next = line[start:cut], pad+"# "
		default:
			piece = strings.TrimRight(line[start:cut], " ") + continued
		}
		out = append(out, prefix+piece)
		start, prefix = cut, next
		for next != pad+cutMark && start < len(line) && line[start] == ' ' {
			start++ // the space a fold replaced; a cut keeps everything
		}
	}
	return out
}

// flagItemEnd is where a word cut inside parts best: after its last comma, else after its last
// "=", if that keeps half the room; 0 when neither does.
func flagItemEnd(piece string, room int) int {
	for _, sep := range []string{",", "="} {
		if p := strings.LastIndex(piece, sep); p > 0 && xansi.StringWidth(piece[:p+1]) >= room/2 {
			return p + 1
		}
	}
	return 0
}

// startHeredoc notes a here-document the line opens (<<EOF, <<'EOF', <<"EOF", <<-EOF).
func (s *shellState) startHeredoc(line string) {
	i := strings.Index(line, "<<")
	if i < 0 || strings.HasPrefix(line[i:], "<<<") {
		return
	}
	word := strings.TrimLeft(strings.TrimPrefix(line[i+2:], "-"), " ")
	if end := strings.IndexAny(word, " ;|&)"); end >= 0 {
		word = word[:end]
	}
	s.heredoc = strings.Trim(word, `'"\`)
}

// shellBreaks marks the spaces of a shell line a fold may replace (outside quotes, not escaped,
// not in a comment) and where a comment starts (-1: none), the line starting inside the quotes
// given and ending inside those returned. In a here-document (literal) nothing is safe: a
// backslash there would be the file's.
func shellBreaks(line string, literal, single, double bool) ([]bool, int, bool, bool) {
	safe := make([]bool, len(line)+1)
	if literal {
		return safe, -1, single, double
	}
	var escaped bool
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case escaped:
			escaped = false
		case c == '\\' && !single:
			escaped = true
		case c == '\'' && !double:
			single = !single
		case c == '"' && !single:
			double = !double
		case c == '#' && !single && !double && (i == 0 || line[i-1] == ' '):
			return safe, i, single, double
		case c == ' ' && !single && !double && i > 0 && line[i-1] != ' ':
			safe[i] = true
		}
	}
	return safe, -1, single, double
}

// foldWords folds a plain line at the last space that keeps it within width cells (or, in a
// word longer than that, at width); the pieces after the first are indented two cells past the
// line's own indent and marked ↪: copied, they are one line of the file, not several.
func foldWords(line string, width int) []string {
	indent := len(line) - len(strings.TrimLeft(line, " "))
	if indent+2 > width/2 {
		indent = 0
	}
	pad := strings.Repeat(" ", indent) + cutMark
	var out []string
	prefix, rest := "", line
	for {
		room := width - len(prefix)
		if xansi.StringWidth(rest) <= room {
			return append(out, prefix+rest)
		}
		cut := cellBoundary(rest, room)
		sp := lastOpenSpace(rest[:cut], rest[cut:])
		flagAlone := sp > 0 && isShortFlag(strings.TrimSpace(rest[:sp]))
		if comma := strings.LastIndex(rest[:cut], ","); flagAlone && comma > sp {
			cut = comma + 1 // "-o custom-columns=…,⏎…": a flag is not left alone (zh r25 M1)
		} else if sp > 0 && strings.TrimSpace(rest[:sp]) != "" && !flagAlone {
			cut = sp + 1
		} else if sl := strings.LastIndex(rest[:cut], "/"); sl > 0 && cut < len(rest) {
			cut = sl + 1 // a path longer than the line parts after a slash, not inside a name (zh r7 M14)
		}
		out = append(out, strings.TrimRight(prefix+rest[:cut], " "))
		prefix, rest = pad, strings.TrimLeft(rest[cut:], " ")
	}
}

// cellBoundary is the byte index in s after the runes that fill at most n cells (at least one).
func cellBoundary(s string, n int) int {
	cells := 0
	for i, r := range s {
		w := xansi.StringWidth(string(r))
		if cells+w > n && i > 0 {
			return i
		}
		cells += w
	}
	return len(s)
}

// lastOpenSpace is where a quoted command shown as text parts best: before its last pipe if
// that keeps half the line, else after its last "; " or ": " if that keeps a third (a log line's
// clauses: pilot-agent's counters start their own line, ko r23 M3), else at its last space outside
// quotes ("grep 'NOT⏎ready'" split a pattern: zh r9 M7), else at its last space; -1 when there is
// none. after is the text that follows s: a ": " at s's end is a clause's only if no number
// follows it there ("cds updates:⏎0 successful" parted a counter from its name).
func lastOpenSpace(s, after string) int {
	last, open, prevOpen, pipe, semi, colon := -1, -1, -1, -1, -1, -1
	single, double := false, false
	scan := s
	if strings.HasPrefix(after, " ") { // s ends at a word's end: the space after it is a place too
		scan, after = s+" ", strings.TrimLeft(after, " ")
	}
	for i, r := range scan {
		switch {
		case r == '\'' && !double:
			single = !single
		case r == '"' && !single:
			double = !double
		case r == ' ':
			last = i
			if !single && !double {
				prevOpen, open = open, i
				if strings.HasPrefix(scan[i:], " | ") {
					pipe = i
				}
				switch {
				case i > 0 && scan[i-1] == ';':
					semi = i
				case i > 1 && scan[i-1] == ':' && !unicode.IsDigit(rune(scan[i-2])) && !startsWithDigit(scan[i+1:]+after):
					colon = i
				}
			}
		}
	}
	switch {
	case pipe > 0 && xansi.StringWidth(s[:pipe]) >= xansi.StringWidth(s)/2:
		return pipe
	case semi > 0 && xansi.StringWidth(s[:semi]) >= xansi.StringWidth(s)/3:
		return semi // after "; ", between a log line's clauses (pilot-agent's counters: zh r19 M2)
	case colon > 0 && xansi.StringWidth(s[:colon]) >= xansi.StringWidth(s)/3:
		return colon // after ": " before words, where a message gives its reason (not "updates: 0")
	case open > 0:
		// A short flag goes with its value: "-o⏎custom-columns=…" parted them (ja r23 L6).
		if w := scan[prevOpen+1 : open]; prevOpen > 0 && strings.HasPrefix(w, "-") && len(w) <= 3 {
			return prevOpen
		}
		return open
	}
	return last
}

// bulletHang is how far a list item's text starts: its indent and its marker ("- ", "* ", "1. ").
func bulletHang(line string) int {
	if m := bulletMark.FindString(line); m != "" {
		return xansi.StringWidth(m)
	}
	return 0
}

var bulletMark = regexp.MustCompile(`^\s*([-*+]|\d{1,3}[.)])\s+`)

// startsWithDigit: s begins with a decimal digit.
func startsWithDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

// isShortFlag: a one-letter flag ("-o", "-c") that takes the word after it as its value.
func isShortFlag(w string) bool { return len(w) == 2 && w[0] == '-' && w[1] != '-' }

package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxAnswer bounds what a prompt reads of one line: the rest of a longer line is skipped, so
// megabytes without a newline (or /dev/zero) cannot fill memory.
const maxAnswer = 4096

// maxLine is how far a prompt reads for a line end before it takes the input for something no
// one types (/dev/zero): the input then ends, as at EOF.
const maxLine = 1 << 20

// readAnswer reads one line of at most maxAnswer bytes; ok is false at the end of the input (an
// answer with no newline at the end still counts), and for what is not a typed line: longer than
// maxLine, or not UTF-8 text (/dev/urandom), so such an input answers nothing.
func readAnswer(r *bufio.Reader) (answer string, ok bool) {
	var b strings.Builder
	for read := 0; read < maxLine; read++ {
		c, err := r.ReadByte()
		if err != nil {
			return strings.TrimSpace(b.String()), b.Len() > 0 && err == io.EOF && typed(b.String())
		}
		if c == '\n' {
			return strings.TrimSpace(b.String()), typed(b.String())
		}
		if b.Len() < maxAnswer {
			b.WriteByte(c)
		}
	}
	return "", false
}

// typed: text a keyboard makes — UTF-8 without control characters other than a tab or a CR.
func typed(s string) bool {
	return utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool { return r != '\t' && r != '\r' && unicode.IsControl(r) }) < 0
}

// printable makes text from a learner's file safe to print on a terminal: control characters
// (an escape sequence would retitle or recolour it) are shown as \xNN, tabs and line ends kept.
func printable(s string) string {
	if strings.IndexFunc(s, isControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			fmt.Fprintf(&b, "\\x%02x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool {
	return r != '\n' && r != '\t' && (unicode.IsControl(r) || r == '\u2028' || r == '\u2029')
}

package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"
)

// maxAnswer bounds what a prompt reads of one line: the rest of a longer line is skipped, so
// megabytes without a newline (or /dev/zero) cannot fill memory.
const maxAnswer = 4096

// readAnswer reads one line of at most maxAnswer bytes; ok is false at the end of the input (an
// answer with no newline at the end still counts).
func readAnswer(r *bufio.Reader) (answer string, ok bool) {
	var b strings.Builder
	for {
		c, err := r.ReadByte()
		if err != nil {
			return strings.TrimSpace(b.String()), b.Len() > 0 && err == io.EOF
		}
		if c == '\n' {
			return strings.TrimSpace(b.String()), true
		}
		if b.Len() < maxAnswer {
			b.WriteByte(c)
		}
	}
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

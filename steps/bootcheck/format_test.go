package bootcheck

import (
	"os"
	"strings"
	"testing"
)

// formatLines reads a fixture of format strings: one a line, "#" lines are comments, a written
// "\n" is a newline.
func formatLines(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile("testdata/formats/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		lines = append(lines, strings.ReplaceAll(l, `\n`, "\n"))
	}
	return lines
}

// TestFormatAccepted: formats Envoy takes (its default, Istio's, its docs' examples) are taken.
func TestFormatAccepted(t *testing.T) {
	for _, f := range formatLines(t, "accept.txt") {
		if _, err := (formatParser{}).parse(f); err != nil {
			t.Errorf("%q: refused: %s", f, err.msg)
		}
	}
}

// TestFormatRefused: each refused format gives Envoy's message, as the fixture pairs them.
func TestFormatRefused(t *testing.T) {
	lines := formatLines(t, "refuse.txt")
	if len(lines)%2 != 0 {
		t.Fatal("refuse.txt: a format without its message")
	}
	for i := 0; i < len(lines); i += 2 {
		_, err := (formatParser{}).parse(lines[i])
		switch {
		case err == nil:
			t.Errorf("%q: accepted, want %q", lines[i], lines[i+1])
		case err.msg != lines[i+1]:
			t.Errorf("%q:\n got %q\nwant %q", lines[i], err.msg, lines[i+1])
		}
	}
}

// TestFormatProviders: the stats logger counts the pieces a format makes (stats.cc:20-31):
// plain text between commands is one piece each, "%%" is text, and "" is one empty piece.
func TestFormatProviders(t *testing.T) {
	for _, tc := range []struct {
		format string
		want   int
	}{{"", 1}, {"%DURATION%", 1}, {"%DURATION%%DURATION%", 2}, {"ms %DURATION%", 2}, {"%DURATION% %%", 2}, {"%%", 1}} {
		if n, err := (formatParser{}).parse(tc.format); err != nil || n != tc.want {
			t.Errorf("%q: %d pieces (%v), want %d", tc.format, n, err, tc.want)
		}
	}
}

// TestFormatExtensions: a formatter extension adds its commands; one whose commands cannot be
// listed leaves unknown commands to it; an unknown type is refused by name.
func TestFormatExtensions(t *testing.T) {
	p := formatParser{extra: formatterCommands["envoy.extensions.formatter.req_without_query.v3.ReqWithoutQuery"]}
	if _, err := p.parse("%REQ_WITHOUT_QUERY(:path):10%"); err != nil {
		t.Errorf("REQ_WITHOUT_QUERY with its formatter: %s", err.msg)
	}
	if _, err := p.parse("%REQ_WITHOUT_QUERY(a?b?c)%"); err == nil {
		t.Error("REQ_WITHOUT_QUERY's headers are not checked")
	}
	if _, err := (formatParser{open: true}).parse("%MY_MODULE_COMMAND(x)%"); err != nil {
		t.Errorf("an open parser refuses %s", err.msg)
	}
}

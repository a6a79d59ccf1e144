package bootcheck

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestBoringSSLRules holds the ports of BoringSSL's list parsers to the verdicts BoringSSL's own
// tests give (testdata/boringssl-rules.txt, from ssl/ssl_test.cc at the pinned tag).
func TestBoringSSLRules(t *testing.T) {
	f, err := os.Open("testdata/boringssl-rules.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	judge := map[string]func(string) bool{"cipher": strictCipherListOK, "curves": curvesListOK, "sigalgs": sigalgsListOK}
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.SplitN(line, " ", 3)
		rule, err := strconv.Unquote(fields[2])
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if got := judge[fields[0]](rule); got != (fields[1] == "ok") {
			t.Errorf("%s %q: BoringSSL says %s, the port %v", fields[0], rule, fields[1], got)
		}
		n++
	}
	if n < 80 {
		t.Fatalf("only %d rules read", n)
	}
}

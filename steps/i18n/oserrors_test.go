package i18n

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// System errors a learner meets are said in their words, the system's English kept beside.
func TestSystemErrorsInTheLearnersWords(t *testing.T) {
	_, notThere := os.Open(filepath.Join(t.TempDir(), "nothing"))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, inUse := net.Listen("tcp", l.Addr().String())
	_, noPort := net.Listen("tcp", "foo")
	_, badPort := net.Listen("tcp", "127.0.0.1:99999")
	_, namedPort := net.Listen("tcp", "127.0.0.1:abc")
	_, colons := net.Listen("tcp", "::1:5")
	for name, e := range map[string]error{"not there": notThere, "in use": inUse, "no port": noPort,
		"bad port": badPort, "named port": namedPort, "colons": colons} {
		if e == nil {
			t.Fatalf("%s: no error", name)
		}
		args := ErrorArgs("error", e)
		if len(args) != 4 {
			t.Fatalf("%s: no words for %v", name, e)
		}
		for _, lang := range Langs {
			said := M("reason.unreadable", append([]string{"file", "x"}, args...)...).In(lang)
			if !strings.Contains(said, e.Error()) || strings.Index(said, e.Error()) < strings.Index(said, "x")+3 {
				t.Errorf("%s %s: %q", name, lang, said)
			}
		}
	}
}

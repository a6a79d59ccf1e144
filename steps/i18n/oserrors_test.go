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
	for name, e := range map[string]error{"not there": notThere, "in use": inUse} {
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

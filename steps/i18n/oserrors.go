package i18n

import (
	"errors"
	"io/fs"
	"net"
	"strings"
	"syscall"
)

// osErrorWords are the system errors a learner meets, each with the catalog string that says it
// in their language; the system's English stays beside it as {original}.
var osErrorWords = []struct {
	err error
	key string
}{
	{syscall.EADDRINUSE, "os.addr_in_use"},
	{syscall.ELOOP, "os.link"},
	{syscall.EISDIR, "os.is_dir"},
	{fs.ErrNotExist, "os.not_exist"},
	{fs.ErrPermission, "os.permission"},
}

// ErrorArgs are the message arguments that put err under name in the learner's words where we
// have words for it (the system's English kept as the original), else the error as it is.
func ErrorArgs(name string, err error) []string {
	for _, w := range osErrorWords {
		if errors.Is(err, w.err) {
			return []string{name, Ref(w.key), "original", err.Error()}
		}
	}
	if key := addressErrorKey(err); key != "" {
		return []string{name, Ref(key), "original", err.Error()}
	}
	return []string{name, err.Error()}
}

// addressErrorKey words an address the learner typed that the net package could not take
// (control-plane's --addr: "missing port in address", "invalid port", "unknown port"), else "".
func addressErrorKey(err error) string {
	var addr *net.AddrError
	if errors.As(err, &addr) {
		switch {
		case strings.Contains(addr.Err, "missing port"):
			return "os.addr_no_port"
		case strings.Contains(addr.Err, "port"):
			return "os.addr_bad_port"
		}
		return "os.addr_format"
	}
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.Err == "unknown port" {
		return "os.addr_bad_port"
	}
	return ""
}

package i18n

import (
	"bytes"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"ist2-boot/content"

	"gopkg.in/yaml.v3"
)

// The catalog is content/strings.yaml: one top-level key per string, its value a mapping of the
// languages. A command says a few dozen of its ~300 strings, and parsing the whole file costs more
// than the rest of a `check`: so the file is cut at its top-level keys once (a scan of its lines),
// and an entry is parsed the first time it is said. The tests hold the cut to the whole parse.

// Prepare cuts the catalog ahead (concurrently, while a command does its work); safe to call any
// number of times.
func Prepare() { _, _ = catalogIndex() }

// catalogIndex is each key's lines of strings.yaml, unparsed.
var catalogIndex = sync.OnceValues(func() (map[string][]byte, error) {
	raw, err := fs.ReadFile(content.FS, "strings.yaml")
	if err != nil {
		return nil, fmt.Errorf("strings.yaml: %w", err)
	}
	return cutAtKeys(raw)
})

// cutAtKeys splits a YAML mapping written one key per unindented line into each key's lines. A
// line that is neither indented, a comment nor blank starts a key; anything else belongs to the key
// before it.
func cutAtKeys(raw []byte) (map[string][]byte, error) {
	index := map[string][]byte{}
	key, from := "", 0
	end := func(to int) {
		if key != "" {
			index[key] = raw[from:to]
		}
	}
	for at := 0; at < len(raw); {
		line := raw[at:]
		if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
			line = line[:nl+1]
		}
		if c := line[0]; c != ' ' && c != '\t' && c != '#' && c != '\n' && c != '\r' {
			name, _, ok := bytes.Cut(line, []byte(":"))
			if !ok {
				return nil, fmt.Errorf("strings.yaml: a line at offset %d starts no key: %q", at, line)
			}
			end(at)
			key, from = string(name), at
			if _, twice := index[key]; twice {
				return nil, fmt.Errorf("strings.yaml: %s is written twice", key)
			}
		}
		at += len(line)
	}
	end(len(raw))
	return index, nil
}

// parsed are the entries said so far; at most one per key of the catalog.
var parsed = struct {
	sync.Mutex
	texts map[string]Text
}{texts: map[string]Text{}}

// entry is key's text in every language; nil, with no error, for a key the catalog lacks.
func entry(key string) (Text, error) {
	parsed.Lock()
	defer parsed.Unlock()
	if t, ok := parsed.texts[key]; ok {
		return t, nil
	}
	index, err := catalogIndex()
	if err != nil {
		return nil, err
	}
	chunk, ok := index[key]
	if !ok {
		return nil, nil
	}
	var one map[string]Text
	if err := yaml.Unmarshal(chunk, &one); err != nil {
		return nil, fmt.Errorf("strings.yaml is malformed at %s: %w", key, err)
	}
	parsed.texts[key] = one[key]
	return one[key], nil
}

// CatalogKeys lists every key of strings.yaml (for tests and the tutorial).
func CatalogKeys() ([]string, error) {
	index, err := catalogIndex()
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(index))
	for k := range index {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, nil
}

// loadCatalog parses the whole catalog at once and refuses a string missing in a language: what
// the tests hold the cut entries to.
func loadCatalog(fsys fs.FS) (map[string]Text, error) {
	raw, err := fs.ReadFile(fsys, "strings.yaml")
	if err != nil {
		return nil, fmt.Errorf("strings.yaml: %w", err)
	}
	var c map[string]Text
	if err := yaml.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("strings.yaml is malformed: %w", err)
	}
	var missing []string
	for k, t := range c {
		for _, l := range Langs {
			if strings.TrimSpace(t[l]) == "" {
				missing = append(missing, k+"."+string(l))
			}
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("strings.yaml: missing %s", strings.Join(missing, ", "))
	}
	return c, nil
}

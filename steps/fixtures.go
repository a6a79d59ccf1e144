package steps

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"ist2-boot/steps/i18n"
)

// MaxFixture bounds a fixture or mesh config file: they are tens of KiB.
const MaxFixture = 4 << 20

// maxFixtureScan bounds how many files of a fixtures dir are opened to find the injection files.
const maxFixtureScan = 64

// FixtureRole is a part a file plays in the lab: the manifest to inject, the injection template,
// the Helm values, the mesh config. The lab names only the manifest and the mesh config's path;
// the other two are found in the fixtures dir by what they contain.
type FixtureRole struct {
	Var     string // the variable the reference commands read it from
	Name    string // message key of the part's name
	Default string // its file name in the shipped fixtures
	// is tells the part from the top-level keys of a YAML or JSON file.
	is func(keys map[string]bool) bool
}

// FixtureRoles are the parts, in the order the lab first reads them.
var FixtureRoles = []FixtureRole{
	{Var: "INJECT_TARGET", Name: "fixture.target", Default: "inject-target.yaml",
		is: func(k map[string]bool) bool { return k["apiVersion"] && k["kind"] }},
	{Var: "INJECT_CONFIG", Name: "fixture.inject_config", Default: "inject-config.yaml",
		is: func(k map[string]bool) bool { return k["policy"] && (k["templates"] || k["template"]) }},
	{Var: "INJECT_VALUES", Name: "fixture.inject_values", Default: "inject-values.yaml",
		is: func(k map[string]bool) bool { return k["global"] && (k["sidecarInjectorWebhook"] || k["revision"]) }},
	{Var: "MESH_CONFIG", Name: "fixture.mesh", Default: "mesh-config.yaml",
		is: func(k map[string]bool) bool {
			return !k["global"] && (k["defaultConfig"] || k["rootNamespace"] && k["trustDomain"])
		}},
}

// FixtureStatus is the file found for one part, or why none is usable (Path is then the file
// looked for, or "").
type FixtureStatus struct {
	Role    FixtureRole
	Path    string
	Problem i18n.Msg
}

// ResolveFixtures finds the file for each part: the mesh config at its path, the others by their
// usual name in the fixtures dir; when that file does not exist, the first file of the fixtures
// dir (by name) whose content plays the part.
func ResolveFixtures(env *Env) []FixtureStatus {
	var scanned []scannedFile
	out := make([]FixtureStatus, 0, len(FixtureRoles))
	for _, role := range FixtureRoles {
		want := filepath.Join(env.Fixtures, role.Default)
		if role.Var == "MESH_CONFIG" {
			want = env.Mesh
		}
		keys, problem := topLevelKeys(want)
		if problem.Key == "" && role.is(keys) {
			out = append(out, FixtureStatus{Role: role, Path: want})
			continue
		}
		st := FixtureStatus{Role: role, Path: want, Problem: problem}
		switch {
		case problem.Key == "":
			st.Problem = i18n.M("fixture.plays_another_part", "part", i18n.Ref(role.Name), "file", want)
		case problem.Key == "doctor.file_missing":
			// Only a missing file is looked for elsewhere: one that is there but unusable (or a
			// --mesh given by hand) is said, never silently replaced by another.
			if scanned == nil {
				scanned = scanFixtures(env.Fixtures)
			}
			if i := slices.IndexFunc(scanned, func(f scannedFile) bool { return role.is(f.keys) }); i >= 0 {
				st = FixtureStatus{Role: role, Path: scanned[i].path}
			} else {
				st.Problem = i18n.M("fixture.none", "part", i18n.Ref(role.Name), "file", want, "dir", env.Fixtures)
			}
		}
		out = append(out, st)
	}
	return out
}

type scannedFile struct {
	path string
	keys map[string]bool
}

// scanFixtures reads the top-level keys of the YAML and JSON files of dir, by name.
func scanFixtures(dir string) []scannedFile {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return []scannedFile{}
	}
	out := []scannedFile{}
	for _, e := range entries {
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if ext != ".yaml" && ext != ".yml" && ext != ".json" || !e.Type().IsRegular() {
			continue
		}
		if len(out) == maxFixtureScan {
			break
		}
		path := filepath.Join(dir, e.Name())
		if keys, problem := topLevelKeys(path); problem.Key == "" {
			out = append(out, scannedFile{path: path, keys: keys})
		}
	}
	return out
}

// topLevelKeys reads a YAML or JSON file's first document and returns its top-level keys, or why
// the file cannot be used.
func topLevelKeys(path string) (map[string]bool, i18n.Msg) {
	data, err := ReadRegularFile(path, MaxFixture)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, i18n.M("doctor.file_missing", "file", path)
	case errors.Is(err, ErrNotRegular):
		return nil, NotRegularReason(path, err)
	case err != nil:
		return nil, i18n.M("reason.unreadable", append([]string{"file", path}, i18n.ErrorArgs("error", err)...)...)
	case len(bytes.TrimSpace(data)) == 0:
		return nil, i18n.M("reason.empty", "file", path)
	}
	if keys := quickTopLevelKeys(data); len(keys) > 0 {
		return keys, i18n.Msg{}
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, i18n.M("fixture.not_a_map", "file", path)
	}
	keys := map[string]bool{}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		keys[m.Content[i].Value] = true
	}
	return keys, i18n.Msg{}
}

// UnusableFixture is why a script cannot run: the first fixture part it reads ($VAR or ${VAR})
// that has no usable file; empty if none.
func UnusableFixture(script string, fixtures []FixtureStatus) i18n.Msg {
	for _, f := range fixtures {
		if f.Problem.Key != "" && (strings.Contains(script, "$"+f.Role.Var) || strings.Contains(script, "${"+f.Role.Var+"}")) {
			return f.Problem
		}
	}
	return i18n.Msg{}
}

// FixturePath is the file found for the part read from variable v ("" if there is none).
func FixturePath(fixtures []FixtureStatus, v string) string {
	for _, f := range fixtures {
		if f.Role.Var == v {
			return f.Path
		}
	}
	return ""
}

// quickTopLevelKeys reads the top-level keys without parsing the whole file (the injection
// template is 110 KB of YAML and this runs for every command and check): a JSON object's keys by
// streaming its tokens, a block YAML mapping's from its unindented lines. Nil when neither
// applies; the caller then parses.
func quickTopLevelKeys(data []byte) map[string]bool {
	trimmed := bytes.TrimSpace(data)
	keys := map[string]bool{}
	if len(trimmed) > 0 && trimmed[0] == '{' {
		dec := json.NewDecoder(bytes.NewReader(trimmed))
		depth, wantKey := 0, false
		for {
			tok, err := dec.Token()
			if err != nil {
				return nil
			}
			switch v := tok.(type) {
			case json.Delim:
				if v == '{' || v == '[' {
					depth++
				} else {
					depth--
				}
				wantKey = depth == 1 && v != '['
				if depth == 0 {
					return keys
				}
				continue
			case string:
				if depth == 1 && wantKey {
					keys[v] = true
					wantKey = false
					continue
				}
			}
			wantKey = depth == 1
		}
	}
	for line := range bytes.Lines(data) {
		if k := yamlTopKey(line); k != "" {
			keys[k] = true
		}
	}
	if len(keys) == 0 {
		return nil
	}
	return keys
}

// yamlTopKey is the key a block-style YAML line starts at column 0 ("key:" then a space or the end
// of the line), or "".
func yamlTopKey(line []byte) string {
	isStart := func(c byte) bool { return c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
	if len(line) == 0 || !isStart(line[0]) {
		return ""
	}
	i := 1
	for i < len(line) && (isStart(line[i]) || line[i] >= '0' && line[i] <= '9' || line[i] == '.' || line[i] == '-') {
		i++
	}
	key := line[:i]
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i == len(line) || line[i] != ':' {
		return ""
	}
	if i+1 < len(line) && line[i+1] != ' ' && line[i+1] != '\t' && line[i+1] != '\n' && line[i+1] != '\r' {
		return ""
	}
	return string(key)
}

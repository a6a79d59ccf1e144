package steps

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"

	"ist2-boot/steps/i18n"
)

// MaxFixture bounds a fixture or mesh config file: they are tens of KiB.
const MaxFixture = 4 << 20

// fixtureRef is a file a reference command reads from the fixtures dir: "$FIXTURES/name".
var fixtureRef = regexp.MustCompile(`\$\{?FIXTURES\}?/([A-Za-z0-9._-]+)`)

// FixtureNames are the files the reference commands read from the fixtures dir, in first-use
// order: what a fixtures dir must hold for the lab to run.
func (l *Lesson) FixtureNames() []string {
	var names []string
	for _, s := range l.Sections {
		for _, st := range s.Steps {
			for _, m := range fixtureRef.FindAllStringSubmatch(st.Run, -1) {
				if !slices.Contains(names, m[1]) {
					names = append(names, m[1])
				}
			}
		}
	}
	return names
}

// FixtureStatus is one file the lab reads before any learner file: a fixture or the mesh config.
// Problem is empty when the file is there and usable.
type FixtureStatus struct {
	Path    string
	Problem i18n.Msg
}

// CheckFixtures looks at every file the lab needs from the fixtures dir, and at the mesh config
// wherever it is, without running anything: a fixtures dir given by mistake (empty, another
// directory) is said here, file by file, instead of in the first command that fails.
func CheckFixtures(l *Lesson, env *Env) []FixtureStatus {
	var paths []string
	for _, name := range l.FixtureNames() {
		paths = append(paths, filepath.Join(env.Fixtures, name))
	}
	if !slices.Contains(paths, env.Mesh) {
		paths = append(paths, env.Mesh)
	}
	out := make([]FixtureStatus, 0, len(paths))
	for _, p := range paths {
		out = append(out, FixtureStatus{Path: p, Problem: fixtureProblem(p)})
	}
	return out
}

func fixtureProblem(path string) i18n.Msg {
	data, err := ReadRegularFile(path, MaxFixture)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return i18n.M("doctor.file_missing", "file", path)
	case errors.Is(err, ErrNotRegular):
		return i18n.M("reason.not_regular", "file", path)
	case err != nil:
		return i18n.M("reason.unreadable", "file", path, "error", err.Error())
	case len(bytes.TrimSpace(data)) == 0:
		return i18n.M("reason.empty", "file", path)
	}
	return i18n.Msg{}
}

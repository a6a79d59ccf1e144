// Package steps is the lab engine: the lesson, the environment, the runner of reference commands,
// the answer key and checks, and the progress store. It never imports Bubble Tea.
package steps

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"ist2-boot/steps/i18n"

	"gopkg.in/yaml.v3"
)

// MinHints is how many hints each section offers, from a nudge to nearly the answer.
const MinHints = 3

// Lesson is content/lesson.yaml, checked.
type Lesson struct {
	Params map[string]string `yaml:"params"`
	// Say is what the reference commands print of their own, in each language: SAY_<KEY>.
	Say      map[string]i18n.Text `yaml:"say"`
	Tools    []ToolSpec           `yaml:"tools"`
	Intro    Page                 `yaml:"intro"`
	Finish   Page                 `yaml:"finish"`
	Sections []Section            `yaml:"sections"`
	// Practice are pages that are run and checked like sections but are not among them: no
	// number, not in the counts or the report's checklist. Each follows the section After names.
	Practice []Practice `yaml:"practice"`

	fsys fs.FS
}

// Practice is a practice page: a section's files, steps and hints, placed after a section.
type Practice struct {
	Section `yaml:",inline"`
	After   string `yaml:"after"` // the id of the section it follows in reading order
}

// ToolSpec says how to find a tool, ask its version and tell the learner how to get it.
type ToolSpec struct {
	Name    string   `yaml:"name"`
	Version []string `yaml:"version"`
	Require string   `yaml:"require"` // text the version output must contain (tells mikefarah's yq from Debian's)
	Get     string   `yaml:"get"`     // message key: how to install it
	Without string   `yaml:"without"` // message key: what the lesson still does without it
	Install *struct {
		Module string `yaml:"module"` // module@version for go install
		Binary string `yaml:"binary"` // what go install names it, when not the tool's name
	} `yaml:"install"`
	Container string       `yaml:"container"` // image a wrapper runs with docker or podman
	Release   *ReleaseSpec `yaml:"release"`   // an official build setup downloads
}

// ReleaseSpec is a tool's official release binary: one pinned version, where it is published, and
// per architecture (Go's GOARCH) the asset's name and its sha256.
type ReleaseSpec struct {
	Version string                  `yaml:"version"`
	URL     string                  `yaml:"url"`    // base; the asset is URL/v{version}/{asset}
	Env     string                  `yaml:"env"`    // a variable that replaces URL (a mirror)
	Assets  map[string]ReleaseAsset `yaml:"assets"` // by GOARCH
}

// ReleaseAsset is one architecture's file of a release.
type ReleaseAsset struct {
	Name   string `yaml:"name"` // {version} stands for the version
	SHA256 string `yaml:"sha256"`
	// Size in bytes, where a public record of it was found: a download is cut there. Where it
	// was not, MaxDownload bounds it.
	Size int64 `yaml:"size"`
}

// MaxDownload bounds a release download whose size the pin does not give (Envoy's are ~100 MB).
const MaxDownload = 256 << 20

// Limit is the most a download of the asset may be.
func (a ReleaseAsset) Limit() int64 {
	if a.Size > 0 {
		return a.Size
	}
	return MaxDownload
}

// Page is prose with a title: the intro, the finish, and the base of every section.
type Page struct {
	ID    string    `yaml:"id"`
	Title i18n.Text `yaml:"title"`
	// Short is the title the page list shows: a few words, where the whole title would be cut
	// to five characters (the reviews' B5, M23).
	Short i18n.Text            `yaml:"short"`
	Prose map[i18n.Lang]string `yaml:"prose"`
}

// Section is one step of the lab.
type Section struct {
	Page         `yaml:",inline"`
	Files        []FileSpec `yaml:"files"`
	Steps        []Step     `yaml:"steps"`
	EnvoyPidFile string     `yaml:"envoy_pid_file"`
	// Scratch are files the section's commands write besides what it produces (envoy.log): held
	// to the same rule as produced files before a run writes them.
	Scratch    []string    `yaml:"scratch"`
	TimeoutSec int         `yaml:"timeout_seconds"`
	Hints      []i18n.Text `yaml:"hints"`
	// Notes are what the reference commands write in the learner's language (section 8's model
	// report): REPORT_NOTE_1… in their environment.
	Notes []i18n.Text `yaml:"notes"`
}

// SayVars are the lesson's own messages in lang as the variables the commands read.
func (l *Lesson) SayVars(lang i18n.Lang) map[string]string {
	vars := map[string]string{}
	for k, t := range l.Say {
		vars["SAY_"+strings.ToUpper(k)] = t[lang]
	}
	return vars
}

// NoteVars are the section's notes in lang as the variables its commands read.
func (s *Section) NoteVars(lang i18n.Lang) map[string]string {
	vars := map[string]string{}
	for i, n := range s.Notes {
		vars[fmt.Sprintf("REPORT_NOTE_%d", i+1)] = n[lang]
	}
	return vars
}

// commentMark starts a comment line of a reference command that says its catalog key: "#: key".
// Bash skips it; shown, it is "# " and the string in the learner's language (no English comment
// in a Chinese session).
var commentMark = regexp.MustCompile(`(?m)^(\s*)#: ([a-z0-9_.]+)\s*$`)

// Commented is a script with its comment marks put into words in lang.
func Commented(script string, lang i18n.Lang) string {
	return commentMark.ReplaceAllStringFunc(script, func(m string) string {
		sub := commentMark.FindStringSubmatch(m)
		return sub[1] + "# " + i18n.T(lang, sub[2], nil)
	})
}

// FileSpec is a file the section produces; Needs are the tools without which it cannot exist.
type FileSpec struct {
	Name  string   `yaml:"name"`
	Check string   `yaml:"check"` // the kind of check that judges it (steps/check's registry)
	Needs []string `yaml:"needs"`
}

// Step is one reference command: a bash script, the tools it runs, the files it reads.
type Step struct {
	Tools  []string `yaml:"tools"`
	Inputs []string `yaml:"inputs"`
	Run    string   `yaml:"run"`
	// Without Envoy: a step that validates a bootstrap names it here, and the run shows the
	// offline check's verdict of that file instead ("validate: FILE"); a step that starts Envoy
	// says "documented", and the run shows Envoy's documented answers (the params), said to be so.
	WithoutEnvoy string `yaml:"without_envoy"`
}

// LoadLesson reads lesson.yaml from fsys and checks it: every section present once, every prose
// file there, every tool named by a step or file defined.
func LoadLesson(fsys fs.FS) (*Lesson, error) {
	raw, err := fs.ReadFile(fsys, "lesson.yaml")
	if err != nil {
		return nil, fmt.Errorf("lesson.yaml: %w", err)
	}
	var l Lesson
	dec := yaml.NewDecoder(strings.NewReader(string(raw)))
	dec.KnownFields(true)
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("lesson.yaml is malformed: %w", err)
	}
	l.fsys = fsys
	if err := l.validate(); err != nil {
		return nil, fmt.Errorf("lesson.yaml: %w", err)
	}
	return &l, nil
}

func (l *Lesson) validate() error {
	var errs []error
	all := l.allSections()
	seen := map[string]bool{l.Intro.ID: true, l.Finish.ID: true}
	for _, s := range all {
		if s.ID == "" || seen[s.ID] {
			errs = append(errs, fmt.Errorf("section id %q is empty or repeated", s.ID))
		}
		seen[s.ID] = true
	}
	for _, p := range l.Practice {
		if l.Number(p.After) == 0 {
			errs = append(errs, fmt.Errorf("practice %s: after %q is not a section", p.ID, p.After))
		}
	}
	tools := map[string]bool{}
	for _, t := range l.Tools {
		tools[t.Name] = true
	}
	pages := []Page{l.Intro, l.Finish}
	for _, s := range all {
		pages = append(pages, s.Page)
		if len(s.Files) == 0 || len(s.Steps) == 0 {
			errs = append(errs, fmt.Errorf("section %s: needs files and steps", s.ID))
		}
		if len(s.Hints) < MinHints {
			errs = append(errs, fmt.Errorf("section %s: %d hints, want at least %d", s.ID, len(s.Hints), MinHints))
		}
		for i, h := range s.Hints {
			for _, lang := range i18n.Langs {
				if strings.TrimSpace(h[lang]) == "" {
					errs = append(errs, fmt.Errorf("section %s: hint %d has no %s text", s.ID, i+1, lang))
				}
			}
		}
		var named []string
		for _, f := range s.Files {
			named = append(named, f.Needs...)
		}
		for _, st := range s.Steps {
			named = append(named, st.Tools...)
			if strings.TrimSpace(st.Run) == "" {
				errs = append(errs, fmt.Errorf("section %s: a step has no run", s.ID))
			}
		}
		for _, t := range named {
			if !tools[t] {
				errs = append(errs, fmt.Errorf("section %s: tool %q is not in tools", s.ID, t))
			}
		}
	}
	for _, p := range pages {
		for _, lang := range i18n.Langs {
			if strings.TrimSpace(p.Title[lang]) == "" {
				errs = append(errs, fmt.Errorf("page %s: no %s title", p.ID, lang))
			}
		}
		for _, lang := range i18n.Langs {
			path, ok := p.Prose[lang]
			if !ok {
				errs = append(errs, fmt.Errorf("page %s: no %s prose", p.ID, lang))
				continue
			}
			if _, err := fs.Stat(l.fsys, path); err != nil {
				errs = append(errs, fmt.Errorf("page %s: %s prose %s: %w", p.ID, lang, path, errors.Unwrap(err)))
			}
		}
	}
	return errors.Join(errs...)
}

// HowToGet is how to install the tool, and what the lesson still does without it, as one message:
// what check, doctor and the tools page say once (a run says only where to find it: ja r14 M10).
func (s ToolSpec) HowToGet() i18n.Msg {
	if s.Without == "" {
		return i18n.M(s.Get)
	}
	return i18n.M("sentences.two", "a", i18n.Ref(s.Get), "b", i18n.Ref(s.Without))
}

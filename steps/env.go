package steps

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"ist2-boot/assets"
)

// Mode is where the tutorial runs.
type Mode string

// Lab mode is the lab pod with its real paths and tools; sandbox mode is anywhere else, with the
// embedded fixtures written to a data directory.
const (
	LabMode     Mode = "lab"
	SandboxMode Mode = "sandbox"
)

// The lab pod's canonical paths.
const (
	labMarker   = "/opt/lab/fixtures/istio/inject-target.yaml"
	labWorkDir  = "/root/ist2-boot"
	labFixtures = "/opt/lab/fixtures/istio"
	labMesh     = "/opt/istio/mesh-config.yaml"
)

// Env is the resolved environment: mode and paths.
type Env struct {
	Mode     Mode
	WorkDir  string
	Fixtures string
	Mesh     string
	DataDir  string // $XDG_DATA_HOME/ist2-boot
	StateDir string // $XDG_STATE_HOME/ist2-boot
	ToolsDir string // DataDir/bin, first on the PATH of every command run
	Getenv   func(string) string
	// WorkDirGiven: the work dir came from --workdir, so it is never created (a typo would be).
	WorkDirGiven bool
	// IgnoredVars are XDG variables set to a relative path, and so ignored (doctor says so).
	IgnoredVars []string
}

// Overrides are the --workdir, --fixtures and --mesh flags; empty means not given.
type Overrides struct {
	WorkDir, Fixtures, Mesh string
	// LabMarker replaces the lab pod's marker file (tests).
	LabMarker string
}

// NoDataDirError: neither the XDG variable nor $HOME gives a directory to keep tools and progress
// in. Relative is the variable's value when it was set but relative (and so ignored).
type NoDataDirError struct{ Var, Relative, RelativeHome string }

func (e *NoDataDirError) Error() string {
	if e.RelativeHome != "" {
		return fmt.Sprintf("$HOME is relative (%s): every path would follow the current directory; set $HOME or $%s to an absolute path", e.RelativeHome, e.Var)
	}
	if e.Relative != "" {
		return fmt.Sprintf("$%s is relative (%s), which the XDG spec says to ignore, and $HOME is not set", e.Var, e.Relative)
	}
	return fmt.Sprintf("neither $%s nor $HOME is set", e.Var)
}

// NoWorkDirError: --workdir names no directory. Only the default work dir is created: a mistyped
// flag must not leave a new directory and an empty lab behind.
type NoWorkDirError struct{ Path string }

func (e *NoWorkDirError) Error() string { return "--workdir " + e.Path + " is not a directory" }

// DetectEnv picks the mode and paths. It writes nothing; Prepare does.
func DetectEnv(getenv func(string) string, o Overrides) (*Env, error) {
	home, relativeHome := getenv("HOME"), ""
	if home != "" && !filepath.IsAbs(home) {
		// Taken as it is, every path (LAB_DIR too) would be relative to wherever the command
		// runs, and the lab made there (hostile L11): a relative HOME is no home.
		home, relativeHome = "", home
	}
	var ignored []string
	// The XDG base directory spec: a relative path in these variables is invalid and ignored.
	xdg := func(name, fallback string) (string, error) {
		v := getenv(name)
		if filepath.IsAbs(v) {
			return v, nil
		}
		if v != "" {
			ignored = append(ignored, name)
		}
		if home == "" {
			return "", &NoDataDirError{Var: name, Relative: v, RelativeHome: relativeHome}
		}
		return filepath.Join(home, fallback), nil
	}
	data, err := xdg("XDG_DATA_HOME", ".local/share")
	if err != nil {
		return nil, err
	}
	state, err := xdg("XDG_STATE_HOME", ".local/state")
	if err != nil {
		return nil, err
	}
	e := &Env{
		Mode:     SandboxMode,
		DataDir:  filepath.Join(data, "ist2-boot"),
		StateDir: filepath.Join(state, "ist2-boot"),
		Getenv:   getenv,

		IgnoredVars: ignored,
	}
	e.ToolsDir = filepath.Join(e.DataDir, "bin")
	marker := o.LabMarker
	if marker == "" {
		marker = labMarker
	}
	if _, err := os.Stat(marker); err == nil {
		e.Mode = LabMode
		e.WorkDir, e.Fixtures, e.Mesh = labWorkDir, labFixtures, labMesh
	} else {
		e.WorkDir = filepath.Join(e.DataDir, "work")
		e.Fixtures = filepath.Join(e.DataDir, "fixtures")
		e.Mesh = filepath.Join(e.Fixtures, "mesh-config.yaml")
	}
	defaultWork := e.WorkDir
	for _, p := range []struct {
		dst *string
		v   string
	}{{&e.WorkDir, o.WorkDir}, {&e.Fixtures, o.Fixtures}, {&e.Mesh, o.Mesh}} {
		if p.v == "" {
			continue
		}
		abs, err := filepath.Abs(p.v)
		if err != nil {
			return nil, err
		}
		*p.dst = abs
	}
	e.WorkDirGiven = e.WorkDir != defaultWork // --workdir naming the default is the default
	if o.Fixtures != "" && o.Mesh == "" && e.Mode == SandboxMode {
		e.Mesh = filepath.Join(e.Fixtures, "mesh-config.yaml")
	}
	return e, nil
}

// Prepare makes the work dir and, in sandbox mode with the embedded fixtures, writes them (again
// only where they differ, so a second start costs four small reads).
func (e *Env) Prepare() error {
	if e.WorkDirGiven {
		if fi, err := os.Stat(e.WorkDir); err != nil || !fi.IsDir() {
			return &NoWorkDirError{Path: e.WorkDir}
		}
	} else if err := os.MkdirAll(e.WorkDir, 0o755); err != nil {
		return fmt.Errorf("work dir: %w", err)
	}
	if e.Mode == LabMode || e.Fixtures != filepath.Join(e.DataDir, "fixtures") {
		return nil
	}
	if _, err := os.Stat(filepath.Join(e.Fixtures, NewLabMarker)); err == nil {
		return nil // a lab new-lab generated: kept until the next new-lab
	}
	return writeTree(assets.Fixtures, "fixtures", e.Fixtures)
}

func writeTree(src fs.FS, root, dst string) error {
	return fs.WalkDir(src, root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dst, strings.TrimPrefix(strings.TrimPrefix(path, root), "/"))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		want, err := fs.ReadFile(src, path)
		if err != nil {
			return err
		}
		// A FIFO or device put in its place is replaced by the fixture, never read.
		if have, err := ReadRegularFile(target, int64(len(want))); err == nil && bytes.Equal(have, want) {
			return nil
		}
		return WriteFileAtomic(target, want, 0o644)
	})
}

// ExpandPaths puts the active paths into prose written with {{LAB_DIR}}, {{FIXTURES}} and
// {{MESH_CONFIG}}.
func (e *Env) ExpandPaths(s string) string {
	return strings.NewReplacer("{{LAB_DIR}}", e.WorkDir, "{{FIXTURES}}", e.Fixtures, "{{MESH_CONFIG}}", e.Mesh).Replace(s)
}

// Path is a file of the work dir.
func (e *Env) Path(name string) string { return filepath.Join(e.WorkDir, name) }

// CommandEnv is the environment of every command the engine runs: the caller's, with the tools
// dir first on PATH, then the directories where the accepted tools were found, and the lab's
// variables (each fixture part where it was found: ResolveFixtures) and params.
func (e *Env) CommandEnv(tools Tools, params map[string]string, fixtures []FixtureStatus) []string {
	dirs := []string{e.ToolsDir}
	for _, t := range tools {
		if t.Found {
			if d := filepath.Dir(t.Path); !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	if p := e.Getenv("PATH"); p != "" {
		dirs = append(dirs, p)
	}
	vars := map[string]string{
		"PATH":        strings.Join(dirs, string(os.PathListSeparator)),
		"LAB_DIR":     e.WorkDir,
		"FIXTURES":    e.Fixtures,
		"MESH_CONFIG": e.Mesh,
	}
	for _, f := range fixtures {
		if f.Path != "" {
			vars[f.Role.Var] = f.Path
		}
	}
	for k, v := range params {
		vars[strings.ToUpper(k)] = v
	}
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if _, ours := vars[k]; !ours {
			out = append(out, kv)
		}
	}
	for k, v := range vars {
		out = append(out, k+"="+v)
	}
	return out
}

// ProgressDir is where the record of this work dir's lab is kept: the state dir for the default
// work dir; for one named by --workdir, a dir of its own under it (named by a hash of the
// absolute path), so checks count where they ran and never in the default lab's record.
func (e *Env) ProgressDir() string {
	if !e.WorkDirGiven {
		return e.StateDir
	}
	abs, err := filepath.Abs(e.WorkDir)
	if err != nil {
		abs = e.WorkDir
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(e.StateDir, "workdirs", hex.EncodeToString(sum[:6]))
}

package setup

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/run"
)

// SetupEvent is one thing `setup` reports while it works: a tool begun, a line of its build, a
// tool done (or skipped, or failed).
type SetupEvent struct {
	Tool    string
	Kind    SetupKind
	Text    string   // a build line
	Msg     i18n.Msg // what happened, in words
	Elapsed time.Duration
	// Progress (SetupProgress): Done of Total (0: not known) bytes downloaded or packages compiled.
	Done, Total int64
	Unit        ProgressUnit
}

// ProgressUnit is what a SetupProgress event counts.
type ProgressUnit int

// What progress counts.
const (
	Bytes ProgressUnit = iota
	Packages
)

// SetupKind says what a SetupEvent is.
type SetupKind int

// The kinds of setup events.
const (
	SetupStart SetupKind = iota
	SetupLine
	SetupDone
	SetupSkip
	SetupFail
	SetupProgress // a download's bytes or a build's packages so far; replaces the one before
)

// Installer installs missing tools into the tools dir.
type Installer struct {
	Lesson *steps.Lesson
	Env    *steps.Env
	// Envoy asks whether to write the envoy wrapper for a container runtime; nil means no.
	Envoy func(runtime, image string) bool
	// OS and Arch are the machine's (runtime.GOOS, runtime.GOARCH when empty); tests set them.
	OS, Arch string
	// Client fetches release binaries (http.DefaultClient's transport, proxy variables and all,
	// when nil).
	Client *http.Client
}

// Setup installs every missing tool it knows how to: go install at the pinned version into a temp
// dir inside the tools dir, then a rename into place (an interrupted build leaves nothing on PATH);
// jq only where no jq is installed; for Envoy, the official release binary (checked against its
// pinned sha256), else a wrapper around the official image where a container runtime answers and
// the caller agrees. It returns the tools as they are afterwards.
func (in *Installer) Setup(ctx context.Context, emit func(SetupEvent)) (steps.Tools, error) {
	if err := os.MkdirAll(in.Env.ToolsDir, 0o755); err != nil {
		return nil, err
	}
	removeStale(in.Env.ToolsDir)
	// Versions asked now are what the table shows if a signal stops the setup (LocateTools
	// recalls them without asking again).
	present := steps.FindTools(in.Env, in.Lesson.Tools)
	var failed error
	for _, spec := range in.Lesson.Tools {
		if present.Get(spec.Name).Found {
			emit(SetupEvent{Tool: spec.Name, Kind: SetupSkip, Msg: i18n.M("setup.present", "tool", spec.Name, "path", present.Get(spec.Name).Path)})
			continue
		}
		switch {
		case spec.Install != nil:
			if err := in.goInstall(ctx, spec, emit); err != nil {
				failed = errors.Join(failed, err)
				if ctx.Err() != nil {
					return steps.LocateTools(in.Env, in.Lesson.Tools), ctx.Err()
				}
			}
		case spec.Release != nil || spec.Container != "":
			// Envoy that cannot be had here is said (with the ways left), not a failed setup: the
			// lab runs without it, and the tools table shows it missing.
			if err := in.envoy(ctx, spec, emit); err != nil && ctx.Err() != nil {
				return steps.LocateTools(in.Env, in.Lesson.Tools), ctx.Err()
			}
		default:
			emit(SetupEvent{Tool: spec.Name, Kind: SetupFail, Msg: i18n.M("setup.by_hand", "tool", spec.Name, "how", i18n.Ref(spec.Get))})
		}
	}
	return steps.FindTools(in.Env, in.Lesson.Tools), failed
}

// goInstall builds one tool with the Go toolchain.
func (in *Installer) goInstall(ctx context.Context, spec steps.ToolSpec, emit func(SetupEvent)) error {
	goBin, err := lookPathIn(in.Env, "go")
	if err != nil {
		emit(SetupEvent{Tool: spec.Name, Kind: SetupFail, Msg: i18n.M("setup.no_go", "tool", spec.Name, "how", i18n.Ref(spec.Get))})
		return fmt.Errorf("%s: no Go toolchain", spec.Name)
	}
	start := time.Now()
	emit(SetupEvent{Tool: spec.Name, Kind: SetupStart, Msg: i18n.M("setup.building", "tool", spec.Name, "module", spec.Install.Module)})
	tmp, err := os.MkdirTemp(in.Env.ToolsDir, ".install-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// The packages to compile, counted from the build plan (-n: nothing runs), against which each
	// package -v reports compiled is progress. The plan's downloads are the build's anyway.
	total := plannedPackages(ctx, goBin, spec.Install.Module, tmp)
	compiled := int64(0)
	cmd := exec.Command(goBin, "install", "-v", spec.Install.Module)
	cmd.Env = append(os.Environ(), "GOBIN="+tmp)
	cmd.Dir = tmp // outside any module: go install module@version needs none
	code, runErr := run.RunCommand(ctx, cmd, func(l run.Line) {
		emit(SetupEvent{Tool: spec.Name, Kind: SetupLine, Text: l.Text, Elapsed: time.Since(start)})
		if isPackageLine(l.Text) {
			compiled++
			emit(SetupEvent{Tool: spec.Name, Kind: SetupProgress, Unit: Packages, Done: compiled, Total: max(total, compiled), Elapsed: time.Since(start)})
		}
	})
	elapsed := time.Since(start)
	if ctx.Err() != nil {
		emit(SetupEvent{Tool: spec.Name, Kind: SetupFail, Msg: i18n.M("setup.interrupted", "tool", spec.Name), Elapsed: elapsed})
		return ctx.Err()
	}
	binary := spec.Install.Binary
	if binary == "" {
		binary = spec.Name
	}
	built := filepath.Join(tmp, binary)
	if runErr != nil || code != 0 || !steps.IsExecutable(built) {
		emit(SetupEvent{Tool: spec.Name, Kind: SetupFail, Msg: i18n.M("setup.build_failed", "tool", spec.Name, "code", fmt.Sprint(code)), Elapsed: elapsed})
		return fmt.Errorf("%s: go install failed (exit %d)", spec.Name, code)
	}
	if err := os.Rename(built, filepath.Join(in.Env.ToolsDir, spec.Name)); err != nil {
		return err
	}
	fi, _ := os.Stat(filepath.Join(in.Env.ToolsDir, spec.Name))
	size := int64(0)
	if fi != nil {
		size = fi.Size()
	}
	emit(SetupEvent{Tool: spec.Name, Kind: SetupDone, Elapsed: elapsed,
		Msg: i18n.M("setup.installed", "tool", spec.Name, "seconds", fmt.Sprintf("%.0f", elapsed.Seconds()), "mb", fmt.Sprintf("%.0f", float64(size)/1e6))})
	return nil
}

// plannedPackages is how many packages `go install module` would compile (0 when it cannot say):
// the build plan (-n) has one import config per package to compile; cached ones are not in it.
func plannedPackages(ctx context.Context, goBin, module, dir string) int64 {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	cmd := exec.Command(goBin, "install", "-n", module)
	cmd.Env = append(os.Environ(), "GOBIN="+dir)
	cmd.Dir = dir
	var out strings.Builder
	// Its own process group, stopped whole when ctx ends (the plan may fetch modules).
	code, err := run.RunCommand(ctx, cmd, func(l run.Line) { out.WriteString(l.Text + "\n") })
	if err != nil || code != 0 {
		return 0
	}
	return int64(strings.Count(out.String(), "# import config"))
}

// isPackageLine: a line of `go install -v` naming a package it compiled (not "go: downloading …").
func isPackageLine(s string) bool {
	return s != "" && !strings.HasPrefix(s, "go:") && !strings.ContainsAny(s, " \t")
}

// removeStale deletes temp dirs an interrupted setup left (a killed process cannot clean up).
func removeStale(toolsDir string) {
	entries, _ := os.ReadDir(toolsDir)
	for _, e := range entries {
		// A build's temp dir, or a --from copy not yet renamed (a download's .part is kept: resumed).
		if (e.IsDir() && strings.HasPrefix(e.Name(), ".install-")) || strings.HasPrefix(e.Name(), ".from-") {
			// Another setup's, under way, is younger than the longest build (hostile L5).
			if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > staleAfter {
				os.RemoveAll(filepath.Join(toolsDir, e.Name()))
			}
		}
	}
}

// staleAfter is the age past which a temp dir in the tools dir is no live setup's: far above the
// istioctl build's 5–10 minutes on 2 cores.
const staleAfter = 2 * time.Hour

// lookPathIn finds a program on the environment's PATH (the tools dir first).
func lookPathIn(env *steps.Env, name string) (string, error) {
	for _, d := range steps.SearchDirs(env) {
		if p := filepath.Join(d, name); steps.IsExecutable(p) {
			return p, nil
		}
	}
	return "", fs.ErrNotExist
}

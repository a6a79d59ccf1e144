package steps

import (
	"context"
	"debug/buildinfo"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"ist2-boot/steps/i18n"
)

// versionTimeout bounds a tool's version query; a tool that hangs is reported, not waited for.
const versionTimeout = 5 * time.Second

// ToolStatus is what was found of one tool.
type ToolStatus struct {
	Name    string
	Found   bool
	Path    string
	Version string
	// Rejected names a program of the right name that is not the right tool (Debian's yq).
	Rejected string
	Origin   Origin // where it came from (found tools)
	// Pinned is the version the lab pins when the found one says another ("" when it agrees).
	Pinned string
	// Silent is the version query the tool did not answer in time ("--version"); its Version is
	// then "" and VersionIn says so.
	Silent string
}

// noAnswer marks, in what toolVersion returns, a query that got no answer in time (never cached,
// never shown: VersionIn words it).
const noAnswer = "\x1fno-answer:"

// VersionIn is the version line the tool printed, or in lang that it did not answer.
func (t ToolStatus) VersionIn(lang i18n.Lang) string {
	if t.Silent != "" && t.Version == "" {
		return i18n.M("tools.no_answer", "command", t.Name+" "+t.Silent).In(lang)
	}
	return t.Version
}

// Tools is the state of every tool of the lesson.
type Tools []ToolStatus

// Get returns a tool's state by name.
func (ts Tools) Get(name string) ToolStatus {
	for _, t := range ts {
		if t.Name == name {
			return t
		}
	}
	return ToolStatus{Name: name}
}

// Missing returns the first of names that is not found, or "".
func (ts Tools) Missing(names []string) string {
	for _, n := range names {
		if !ts.Get(n).Found {
			return n
		}
	}
	return ""
}

// FindTools looks every tool of the lesson up, the tools dir first, then PATH, and asks each its
// version, all at once. A tool whose version output lacks its Require text is passed over.
func FindTools(env *Env, specs []ToolSpec) Tools {
	out := make(Tools, len(specs))
	cache := loadVersionCache(env)
	var wg sync.WaitGroup
	for i, spec := range specs {
		wg.Go(func() { out[i] = findTool(env, spec, cache, true) })
	}
	wg.Wait()
	cache.save()
	return out
}

// LocateTools finds the tools without asking their versions, except a tool that must prove what
// it is (Require): what the tutorial needs to start fast (istioctl takes ~150 ms to say its version),
// and what a setup a signal stopped still shows. A version asked before is shown from the cache.
func LocateTools(env *Env, specs []ToolSpec) Tools {
	out := make(Tools, len(specs))
	cache := loadVersionCache(env)
	var wg sync.WaitGroup
	for i, spec := range specs {
		wg.Go(func() { out[i] = findTool(env, spec, cache, spec.Require != "") })
	}
	wg.Wait()
	cache.save()
	return out
}

func findTool(env *Env, spec ToolSpec, cache *versionCache, ask bool) ToolStatus {
	st := ToolStatus{Name: spec.Name}
	var asked []os.FileInfo // programs already asked: /bin and /usr/bin are often one directory
	for _, dir := range SearchDirs(env) {
		path := filepath.Join(dir, spec.Name)
		if !IsExecutable(path) {
			continue
		}
		fi, err := os.Stat(path)
		if err != nil || slices.ContainsFunc(asked, func(seen os.FileInfo) bool { return os.SameFile(seen, fi) }) {
			continue // the same program under another name: its answer would be the same
		}
		asked = append(asked, fi)
		version := cache.recalled(path, spec.Version)
		if ask && version == "" {
			version = cache.version(path, spec.Version)
		}
		if spec.Require != "" && !strings.Contains(strings.ToLower(version), spec.Require) {
			if st.Rejected == "" {
				st.Rejected = path
			}
			continue
		}
		if asked, ok := strings.CutPrefix(version, noAnswer); ok { // said in the learner's language
			st.Silent, version = asked, ""
		}
		if strings.Contains(version, "unknown") {
			version = moduleVersion(path, version)
		}
		st.Found, st.Path, st.Version = true, path, version
		st.Origin, st.Pinned = ToolOrigin(env, spec, path), VersionDiffers(spec, version)
		return st
	}
	return st
}

// SearchDirs is where the lab's commands look for a tool: the tools dir first (setup installs
// there), then the learner's PATH.
func SearchDirs(env *Env) []string {
	dirs := []string{env.ToolsDir}
	for _, d := range filepath.SplitList(env.Getenv("PATH")) {
		if d == "" {
			d = "."
		}
		dirs = append(dirs, d)
	}
	return dirs
}

// IsExecutable: a regular file someone may run (a directory named like a tool is not one).
func IsExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// maxVersionOutput bounds what a version query keeps: a tool that floods is read, not stored.
const maxVersionOutput = 16 << 10

// toolVersion runs the version command and keeps the first line that says something; answered
// is false when the program did not answer in time or was ended by a signal (a Ctrl-C that
// reached it is not its answer, and must not be kept as one).
func toolVersion(path string, args []string) (version string, answered bool) {
	ctx, cancel := context.WithTimeout(context.Background(), versionTimeout)
	defer cancel()
	// Its own process group, ended whole at the timeout; a version line is all we keep.
	cmd := exec.CommandContext(ctx, path, args...)
	out, _, _ := Output(cmd, maxVersionOutput)
	if ctx.Err() != nil {
		return noAnswer + strings.Join(args, " "), false
	}
	if cmd.ProcessState == nil {
		return "", true // could not start: nothing to ask again
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return "", false
	}
	for _, line := range strings.Split(string(out), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return line, true
		}
	}
	return "", true
}

// moduleVersion: a tool built with go install says "unknown"; its module version says which it is.
func moduleVersion(path, fallback string) string {
	info, err := buildinfo.ReadFile(path)
	if err != nil || info.Main.Version == "" || info.Main.Version == "(devel)" {
		return fallback
	}
	return info.Main.Path + " " + info.Main.Version
}

package steps

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Origin is where a found tool came from.
type Origin string

// The places a tool comes from.
const (
	FromRelease  Origin = "release"  // the official binary setup downloaded into the tools dir
	FromWrapper  Origin = "wrapper"  // setup's container wrapper in the tools dir
	FromBuild    Origin = "build"    // setup's go install into the tools dir
	FromHomebrew Origin = "homebrew" // a Homebrew prefix
	FromPath     Origin = "path"     // anywhere else on PATH
)

// WrapperMark starts the second line of setup's container wrapper (steps/setup/envoywrap.go
// writes it): what tells the wrapper from an Envoy binary.
const WrapperMark = "# Written by ist2-boot setup: Envoy from the official image"

// homebrewDirs are Homebrew's prefixes (macOS on Apple silicon and Intel, Linuxbrew).
var homebrewDirs = []string{"/opt/homebrew/", "/usr/local/Cellar/", "/usr/local/opt/", "/home/linuxbrew/.linuxbrew/"}

// ToolOrigin says where the tool at path came from: the tools dir (a release binary, a wrapper or
// a build, by spec and by the file's first bytes), a Homebrew prefix, or the learner's PATH.
func ToolOrigin(env *Env, spec ToolSpec, path string) Origin {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		real = path
	}
	if filepath.Dir(path) == env.ToolsDir {
		head := make([]byte, 256)
		if f, err := os.Open(path); err == nil {
			n, _ := f.Read(head)
			head = head[:n]
			f.Close()
		}
		switch {
		case strings.Contains(string(head), WrapperMark):
			return FromWrapper
		case spec.Release != nil:
			return FromRelease
		}
		return FromBuild
	}
	for _, d := range homebrewDirs {
		if strings.HasPrefix(real, d) || strings.HasPrefix(path, d) {
			return FromHomebrew
		}
	}
	return FromPath
}

// semver finds a version number (1.39.0) in a tool's version output.
var semver = regexp.MustCompile(`\b(\d+\.\d+\.\d+)\b`)

// VersionDiffers: the tool's version output names a version other than the release the lab pins
// ("" when it pins none or the output names none).
func VersionDiffers(spec ToolSpec, version string) string {
	if spec.Release == nil {
		return ""
	}
	m := semver.FindStringSubmatch(version)
	if m == nil || m[1] == spec.Release.Version {
		return ""
	}
	return spec.Release.Version
}

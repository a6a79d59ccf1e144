package setup

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
)

// envoy gets Envoy where it is missing, in this order: the official release binary (Linux on
// amd64 or arm64), the Homebrew command on macOS (we install no system packages), and a wrapper
// around the official image where docker or podman answers — the wrapper also when the download
// failed, as the way that is left.
func (in *Installer) envoy(ctx context.Context, spec steps.ToolSpec, emit func(SetupEvent)) error {
	goos, arch := in.platform()
	var err error
	switch {
	case spec.Release == nil:
	case goos == "darwin":
		emit(SetupEvent{Tool: spec.Name, Kind: SetupSkip, Msg: i18n.M("setup.envoy_brew")})
	case goos != "linux" || spec.Release.Assets[arch].Name == "":
		emit(SetupEvent{Tool: spec.Name, Kind: SetupSkip, Msg: i18n.M("setup.no_release_build", "os", goos, "arch", arch, "version", spec.Release.Version)})
	default:
		if err = in.release(ctx, spec, arch, emit); err == nil || ctx.Err() != nil {
			return err
		}
	}
	if spec.Container != "" {
		// After a failed download the learner has been told the ways left; "no docker either"
		// would only say them again.
		if werr := in.envoyWrapper(ctx, spec, emit, err != nil); werr != nil || err != nil {
			return errors.Join(err, werr)
		}
		return nil
	}
	return err
}

func (in *Installer) platform() (string, string) {
	goos, arch := in.OS, in.Arch
	if goos == "" {
		goos = runtime.GOOS
	}
	if arch == "" {
		arch = runtime.GOARCH
	}
	return goos, arch
}

// ReleaseURL is where a release asset is fetched: the spec's base, or the mirror its variable
// names, then /v{version}/{asset}.
func ReleaseURL(env *steps.Env, rel *steps.ReleaseSpec, arch string) string {
	base := rel.URL
	if rel.Env != "" && env.Getenv(rel.Env) != "" {
		base = env.Getenv(rel.Env)
	}
	// The path joined to the base's path: a mirror's query or fragment stays where it belongs.
	if u, err := neturl.Parse(base); err == nil && u.Scheme != "" {
		return u.JoinPath("v"+rel.Version, assetName(rel, arch)).String()
	}
	return strings.TrimRight(base, "/") + "/v" + rel.Version + "/" + assetName(rel, arch)
}

// shownURL is a URL as it is said to the learner: a password in it is not printed.
func shownURL(raw string) string {
	if u, err := neturl.Parse(raw); err == nil && u.User != nil {
		return u.Redacted()
	}
	return raw
}

func assetName(rel *steps.ReleaseSpec, arch string) string {
	return strings.ReplaceAll(rel.Assets[arch].Name, "{version}", rel.Version)
}

// release downloads the official binary to a part file in the tools dir (resumed if an earlier
// setup was interrupted), checks its sha256 against the pin — a file that does not match is
// deleted, never run — and renames it into place.
func (in *Installer) release(ctx context.Context, spec steps.ToolSpec, arch string, emit func(SetupEvent)) error {
	rel := spec.Release
	url := ReleaseURL(in.Env, rel, arch)
	shown := shownURL(url)
	part := filepath.Join(in.Env.ToolsDir, "."+assetName(rel, arch)+".part")
	start := time.Now()
	// The part file is ours and one setup's at a time: locked by its identity (the open file),
	// never a link or anything but a regular file.
	if err := os.MkdirAll(in.Env.ToolsDir, 0o755); err != nil {
		return err
	}
	_, statErr := os.Lstat(part)
	created := errors.Is(statErr, os.ErrNotExist)
	// Read-only: a file open for writing could not be run once it is the tool (ETXTBSY).
	lock, err := openPart(part, os.O_CREATE|os.O_RDONLY)
	if err != nil {
		emit(SetupEvent{Tool: spec.Name, Kind: SetupFail, Msg: i18n.M("setup.download_failed", "url", shown, "error", err.Error(), "var", rel.Env)})
		return fmt.Errorf("%s: %w", spec.Name, err)
	}
	defer lock.Close()
	defer func() { // an empty part file this setup created and nothing came into: not left behind
		if fi, err := os.Lstat(part); created && err == nil && fi.Size() == 0 && sameFile(lock, fi) {
			os.Remove(part)
		}
	}()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		emit(SetupEvent{Tool: spec.Name, Kind: SetupFail, Msg: i18n.M("setup.busy", "path", part)})
		return fmt.Errorf("%s: another setup is downloading %s", spec.Name, part)
	}
	emit(SetupEvent{Tool: spec.Name, Kind: SetupStart, Msg: i18n.M("setup.downloading", "version", rel.Version, "url", shown)})
	client := in.Client
	if client == nil {
		client = &http.Client{Transport: &http.Transport{Proxy: http.ProxyFromEnvironment, ResponseHeaderTimeout: 30 * time.Second}}
	}
	last := time.Time{}
	err = download(ctx, client, url, part, rel.Assets[arch].Limit(), func(done, total int64) {
		if now := time.Now(); now.Sub(last) >= 100*time.Millisecond || done == total {
			last = now
			emit(SetupEvent{Tool: spec.Name, Kind: SetupProgress, Unit: Bytes, Done: done, Total: total, Elapsed: time.Since(start)})
		}
	})
	if ctx.Err() != nil {
		emit(SetupEvent{Tool: spec.Name, Kind: SetupFail, Msg: i18n.M("setup.download_paused", "path", part), Elapsed: time.Since(start)})
		return ctx.Err()
	}
	if err != nil {
		reason := err.Error()
		var uerr *neturl.Error
		if errors.As(err, &uerr) {
			reason = uerr.Err.Error() // the URL is said already
		}
		emit(SetupEvent{Tool: spec.Name, Kind: SetupFail, Msg: i18n.M("setup.download_failed", "url", shown, "error", reason, "var", rel.Env), Elapsed: time.Since(start)})
		return fmt.Errorf("%s: %w", spec.Name, err)
	}
	if fi, err := os.Lstat(part); err != nil || !fi.Mode().IsRegular() || !sameFile(lock, fi) {
		emit(SetupEvent{Tool: spec.Name, Kind: SetupFail, Msg: i18n.M("setup.download_failed", "url", shown, "error", errPartKind.Error(), "var", rel.Env)})
		return fmt.Errorf("%s: %w", spec.Name, errPartKind) // swapped while it downloaded: not ours
	}
	return in.place(spec, part, shown, arch, start, true, emit)
}

// sameFile: fi describes the file f has open.
func sameFile(f *os.File, fi os.FileInfo) bool {
	held, err := f.Stat()
	return err == nil && os.SameFile(held, fi)
}

// place checks a downloaded (or given) file against the pinned digest for arch and, if it is the
// pinned build, moves it into the tools dir as the tool. A file that is not is deleted when it is
// ours — the part file this setup made and locked, said by the caller, never guessed from a path —
// and left alone when it is the learner's. shown is how it is named (the URL of a download).
func (in *Installer) place(spec steps.ToolSpec, file, shown, arch string, start time.Time, ours bool, emit func(SetupEvent)) error {
	rel := spec.Release
	sum, err := fileSHA256(file, func(done, total int64) { // checking a large file takes seconds
		emit(SetupEvent{Tool: spec.Name, Kind: SetupProgress, Unit: Bytes, Done: done, Total: total, Elapsed: time.Since(start)})
	})
	if err != nil {
		return err
	}
	if sum != rel.Assets[arch].SHA256 {
		if ours {
			os.Remove(file)
		}
		key, other := "setup.checksum_mismatch", ""
		if !ours { // the learner's file (--from): not downloaded, and left where it is
			key = "setup.checksum_mismatch_given"
		}
		for a, asset := range rel.Assets {
			if asset.SHA256 == sum {
				key, other = "setup.wrong_arch", a
			}
		}
		emit(SetupEvent{Tool: spec.Name, Kind: SetupFail, Msg: i18n.M(key, "file", shown, "got", sum, "want", rel.Assets[arch].SHA256, "version", rel.Version, "arch", arch, "other", other)})
		return fmt.Errorf("%s: sha256 %s, want %s", spec.Name, sum, rel.Assets[arch].SHA256)
	}
	dest := filepath.Join(in.Env.ToolsDir, spec.Name)
	tmp := file
	if !ours { // the learner's file is copied, not moved
		if tmp, err = copyToTemp(file, in.Env.ToolsDir); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := os.Rename(tmp, dest); err != nil {
		return err
	}
	version := strings.TrimSpace(steps.FindTools(in.Env, []steps.ToolSpec{spec}).Get(spec.Name).Version)
	emit(SetupEvent{Tool: spec.Name, Kind: SetupDone, Elapsed: time.Since(start),
		Msg: i18n.M("setup.envoy_installed", "path", dest, "version", version, "seconds", fmt.Sprintf("%.0f", time.Since(start).Seconds()))})
	return nil
}

// From installs the tool from a file the learner fetched elsewhere (an air-gapped machine), with
// the same check as a download: the pinned build for this machine's architecture, or nothing.
func (in *Installer) From(ctx context.Context, tool, file string, emit func(SetupEvent)) error {
	spec, ok := in.Lesson.Tool(tool)
	if !ok || spec.Release == nil {
		return fmt.Errorf("%s has no release to check a file against", tool)
	}
	if err := os.MkdirAll(in.Env.ToolsDir, 0o755); err != nil {
		return err
	}
	if fi, err := os.Stat(file); err != nil || !fi.Mode().IsRegular() {
		if err == nil {
			err = errors.New("not a regular file")
		}
		emit(SetupEvent{Tool: tool, Kind: SetupFail, Msg: i18n.M("setup.from_unreadable", append([]string{"file", file}, i18n.ErrorArgs("error", err)...)...)})
		return err
	}
	_, arch := in.platform()
	if spec.Release.Assets[arch].SHA256 == "" {
		goos, _ := in.platform()
		emit(SetupEvent{Tool: tool, Kind: SetupFail, Msg: i18n.M("setup.no_release_build", "os", goos, "arch", arch, "version", spec.Release.Version)})
		return fmt.Errorf("no %s build for %s", tool, arch)
	}
	return in.place(spec, file, file, arch, time.Now(), false, emit)
}

// copyToTemp copies file into a temp file in dir (the rename into place is then atomic).
func copyToTemp(file, dir string) (string, error) {
	src, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer src.Close()
	dst, err := os.CreateTemp(dir, ".from-")
	if err != nil {
		return "", err
	}
	if _, err := dst.ReadFrom(src); err != nil {
		dst.Close()
		os.Remove(dst.Name())
		return "", err
	}
	return dst.Name(), dst.Close()
}

// daemonAnswers: a container runtime is of use only if its daemon (or podman's service) answers
// `info`; an installed docker client with no daemon would fail at the first run.
func daemonAnswers(ctx context.Context, runtimePath string) bool {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, runtimePath, "info")
	cmd.Stdout, cmd.Stderr = nil, nil
	return cmd.Run() == nil
}

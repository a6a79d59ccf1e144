package check

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
)

// MaxLearnerFile is the largest learner file judged; anything bigger is surely not the answer.
const MaxLearnerFile = 1 << 20

// errAbsent marks a file that is not there (as opposed to one that cannot be judged).
var errAbsent = errors.New("absent")

// fileProblem is a learner file that exists but cannot be judged; it carries the reason to show.
type fileProblem struct{ msg i18n.Msg }

func (p *fileProblem) Error() string { return p.msg.Key }

// readLearnerFile reads a produced file of the work dir as text, refusing what cannot be a
// lab answer: a symlink leading outside the work dir, a directory, more than 1 MiB, binary or
// non-UTF-8 content, an empty file. CRLF becomes LF.
func readLearnerFile(workDir, name string) (string, error) {
	path := filepath.Join(workDir, name)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return "", errAbsent
	} else if err != nil {
		return "", &fileProblem{i18n.M("reason.unreadable", append([]string{"file", name}, i18n.ErrorArgs("error", err)...)...)}
	}
	real, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", &fileProblem{i18n.M("reason.dangling_link", "file", name)}
	}
	if err != nil {
		return "", &fileProblem{i18n.M("reason.unreadable", append([]string{"file", name}, i18n.ErrorArgs("error", err)...)...)}
	}
	root, err := filepath.EvalSymlinks(workDir)
	if err != nil {
		root = workDir
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", &fileProblem{i18n.M("reason.link_outside", "file", name, "target", real)}
	}
	data, err := steps.ReadRegularFile(real, MaxLearnerFile)
	switch {
	case errors.Is(err, steps.ErrNotRegular):
		return "", &fileProblem{steps.NotRegularReason(name, err)}
	case errors.Is(err, steps.ErrTooBig):
		return "", &fileProblem{i18n.M("reason.too_big", "file", name)}
	case err != nil:
		return "", &fileProblem{i18n.M("reason.unreadable", append([]string{"file", name}, i18n.ErrorArgs("error", err)...)...)}
	}
	switch {
	case bytes.IndexByte(data, 0) >= 0:
		return "", &fileProblem{i18n.M("reason.binary", "file", name)}
	case !utf8.Valid(data):
		return "", &fileProblem{i18n.M("reason.not_utf8", "file", name)}
	case len(bytes.TrimSpace(data)) == 0:
		return "", &fileProblem{i18n.M("reason.empty", "file", name)}
	}
	return strings.ReplaceAll(string(data), "\r\n", "\n"), nil
}

// textLines splits text into lines with trailing whitespace dropped, and without the empty line a
// final newline would leave.
func textLines(s string) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	return lines
}

// ReadLearnerFile reads a produced file of the work dir the way the checks do (size, UTF-8, links
// inside the work dir). ok is false when it is absent; a file that cannot be shown gives the
// reason as a Msg.
func ReadLearnerFile(env *steps.Env, name string) (text string, ok bool, problem i18n.Msg) {
	text, err := readLearnerFile(env.WorkDir, name)
	var p *fileProblem
	switch {
	case errors.Is(err, errAbsent):
		return "", false, i18n.Msg{}
	case errors.As(err, &p):
		return "", true, p.msg
	case err != nil:
		return "", true, i18n.M("reason.unreadable", append([]string{"file", name}, i18n.ErrorArgs("error", err)...)...)
	}
	return text, true, i18n.Msg{}
}

package steps

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// BackUp moves the named files of the work dir (those there) into a new backup-<time>/ in it:
// nothing is deleted, and a link is moved as the link, never followed. It returns the dir ("" when
// nothing was there to move) and the names moved.
func BackUp(workDir string, names []string, now time.Time) (string, []string, error) {
	var dir string
	var moved []string
	for _, name := range names {
		src := filepath.Join(workDir, name)
		if _, err := os.Lstat(src); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if dir == "" {
			dir = BackupDir(workDir, now)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return "", nil, err
			}
		}
		if err := os.Rename(src, filepath.Join(dir, name)); err != nil {
			return dir, moved, err
		}
		moved = append(moved, name)
	}
	return dir, moved, nil
}

// BackupDir names a backup directory that does not exist yet: backup-<time>, then -2, -3 … when
// two fall in the same second.
func BackupDir(workDir string, now time.Time) string {
	base := filepath.Join(workDir, "backup-"+now.Format("20060102-150405"))
	dir := base
	for n := 2; ; n++ {
		if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
			return dir
		}
		dir = base + "-" + strconv.Itoa(n)
	}
}

package steps

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// ResetResult says what a reset did.
type ResetResult struct {
	BackupDir    string
	Moved        []string
	EnvoyStopped int // pid, when the section's Envoy was stopped first
}

// Reset moves the produced files of the sections into <work dir>/backup-<time>/ (nothing is
// deleted) and clears their progress. An Envoy the lab started for a reset section is stopped
// first, by its recorded pid.
func Reset(l *Lesson, env *Env, store *Store, ids []string) (ResetResult, error) {
	var res ResetResult
	res.BackupDir = filepath.Join(env.WorkDir, "backup-"+time.Now().Format("20060102-150405"))
	for _, id := range ids {
		sec, ok := l.Section(id)
		if !ok {
			return res, errors.New("unknown section " + id)
		}
		if sec.EnvoyPidFile != "" {
			if pid, stopped := StopEnvoy(env.Path(sec.EnvoyPidFile)); stopped {
				res.EnvoyStopped = pid
			}
		}
		for _, f := range sec.Files {
			src := env.Path(f.Name)
			if _, err := os.Lstat(src); errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err := os.MkdirAll(res.BackupDir, 0o755); err != nil {
				return res, err
			}
			if err := os.Rename(src, filepath.Join(res.BackupDir, f.Name)); err != nil {
				return res, err
			}
			res.Moved = append(res.Moved, f.Name)
		}
	}
	_, err := store.Update(func(p *Progress) {
		for _, id := range ids {
			delete(p.Sections, id)
		}
	})
	return res, err
}

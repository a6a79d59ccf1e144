package progress

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"ist2-boot/steps"
	"ist2-boot/steps/run"
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
func Reset(l *steps.Lesson, env *steps.Env, store *Store, ids []string) (ResetResult, error) {
	var res ResetResult
	var secs []*steps.Section
	for _, id := range ids {
		sec, ok := l.Section(id)
		if !ok {
			return res, errors.New("unknown section " + id)
		}
		secs = append(secs, sec)
	}
	// Everything happens under the progress lock: when another copy holds it, nothing is moved
	// (files moved but progress kept would say the sections are done with their files gone).
	var moveErr error
	_, err := store.Update(func(p *Progress) {
		res.BackupDir = steps.BackupDir(env.WorkDir, time.Now())
		for _, sec := range secs {
			if moveErr = resetSection(sec, env, &res); moveErr != nil {
				return // progress stays as it was; what moved is in the backup
			}
		}
		for _, id := range ids {
			delete(p.Sections, id)
		}
	})
	if err != nil && len(res.Moved) == 0 {
		return ResetResult{}, err
	}
	// The files moved, the progress could not be saved (a full state disk, hostile L8): what moved
	// and where is returned with the error, for the learner to be told.
	return res, errors.Join(err, moveErr)
}

// resetSection stops the Envoy the section started, if any, and moves its files to the backup.
func resetSection(sec *steps.Section, env *steps.Env, res *ResetResult) error {
	if sec.EnvoyPidFile != "" {
		if pid, stopped := run.StopEnvoy(env.Path(sec.EnvoyPidFile)); stopped {
			res.EnvoyStopped = pid
		}
	}
	for _, f := range sec.Files {
		src := env.Path(f.Name)
		if _, err := os.Lstat(src); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := os.MkdirAll(res.BackupDir, 0o755); err != nil {
			return err
		}
		if err := os.Rename(src, filepath.Join(res.BackupDir, f.Name)); err != nil {
			return err
		}
		res.Moved = append(res.Moved, f.Name)
	}
	return nil
}

// NewLab starts a fresh lab of seed in sandbox mode: the current round kept among the rounds, the
// produced files moved to a backup (Reset), and the fixtures drawn anew in their place.
func NewLab(l *steps.Lesson, env *steps.Env, store *Store, seed uint64, now time.Time) (steps.LabValues, ResetResult, error) {
	// The fixtures dir is replaced whole: only the sandbox's own, never the lab pod's or one the
	// learner named (the engine refuses by itself; the front ends only word it).
	if !OwnsFixtures(env) {
		return steps.LabValues{}, ResetResult{}, ErrNotOurFixtures
	}
	// One new lab at a time: two at once would mix their fixtures and rounds.
	lock, err := os.OpenFile(filepath.Join(store.Dir, "newlab.lock"), os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return steps.LabValues{}, ResetResult{}, err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return steps.LabValues{}, ResetResult{}, ErrNewLabRunning
	}
	// The new fixture set is made whole beside the old (its marker last), before anything changes.
	v := steps.DrawLab(seed)
	if err := os.MkdirAll(filepath.Dir(env.Fixtures), 0o755); err != nil {
		return v, ResetResult{}, err
	}
	removeKilledNewLabs(filepath.Dir(env.Fixtures))
	fresh, err := os.MkdirTemp(filepath.Dir(env.Fixtures), ".fixtures-new-")
	if err != nil {
		return v, ResetResult{}, err
	}
	defer os.RemoveAll(fresh) // gone once renamed into place; what is left of a failure otherwise
	if err := steps.GenerateFixtures(fresh, v); err != nil {
		return v, ResetResult{}, err
	}
	if _, err := store.Update(NewRound(now)); err != nil {
		return v, ResetResult{}, err
	}
	res, err := Reset(l, env, store, append(l.SectionIDs(), l.PracticeIDs()...)) // the practice page's files too: they belong to the old lab (ja r11)
	if err != nil {
		return v, res, err
	}
	// Swapped in by renames: at every moment the fixtures dir holds one whole lab.
	old := fresh + ".old"
	if err := os.Rename(env.Fixtures, old); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return v, res, err
	}
	if err := os.Rename(fresh, env.Fixtures); err != nil {
		_ = os.Rename(old, env.Fixtures)
		return v, res, err
	}
	return v, res, os.RemoveAll(old)
}

// removeKilledNewLabs deletes what a new-lab killed mid-way left (hostile L14): its temp dirs,
// named by MkdirTemp below, and the lab it was putting aside. Only under the new-lab lock, so
// none of them is another's work in progress; a link of that name is not ours and stays.
func removeKilledNewLabs(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() && e.Type()&fs.ModeSymlink == 0 && strings.HasPrefix(e.Name(), ".fixtures-new-") {
			_ = os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// ErrNotOurFixtures: new-lab was asked to replace fixtures that are not the sandbox's own.
var ErrNotOurFixtures = errors.New("the fixtures dir is not the sandbox's own: new-lab leaves it alone")

// OwnsFixtures: the fixtures in use are the sandbox's own (DataDir/fixtures), which new-lab may
// replace; lab mode's, or a dir named by --fixtures, are not.
func OwnsFixtures(env *steps.Env) bool {
	return env.Mode != steps.LabMode && filepath.Clean(env.Fixtures) == filepath.Join(env.DataDir, "fixtures")
}

// ErrNewLabRunning: another new-lab is under way on this progress.
var ErrNewLabRunning = errors.New("another new-lab is under way")

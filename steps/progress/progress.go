package progress

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
)

// Progress is what the learner has done, saved between runs.
type Progress struct {
	Version     int       `json:"version"`
	Lang        i18n.Lang `json:"lang,omitempty"`
	LastSection string    `json:"last_section,omitempty"`
	// Scroll is where the last page was being read, as a fraction of its length: restored at start.
	Scroll float64 `json:"scroll,omitempty"`
	// ScrollLine is the same place as the first line shown, exact at the same pane width
	// (ScrollWidth): a fraction drifts when the pane's height differs at start (newcomer L9).
	ScrollLine  int                         `json:"scroll_line,omitempty"`
	ScrollWidth int                         `json:"scroll_width,omitempty"`
	Sections    map[string]*SectionProgress `json:"sections"`
	Drills      DrillRecord                 `json:"drills"`
	Rounds      []Round                     `json:"rounds,omitempty"` // earlier labs (new-lab)
	// OlderRounds counts the rounds before those kept (maxRounds): only their number remains.
	OlderRounds int `json:"older_rounds,omitempty"`
}

// Round is the record of a lab that new-lab replaced.
type Round struct {
	Ended    time.Time                   `json:"ended"`
	Sections map[string]*SectionProgress `json:"sections"`
	Drills   DrillRecord                 `json:"drills"`
}

// NewRound keeps the current round's record among the rounds and starts a fresh one (the drills
// go on counting: they are the learner's, not the lab's).
func NewRound(now time.Time) func(*Progress) {
	return func(p *Progress) {
		p.Rounds = append(p.Rounds, Round{Ended: now, Sections: p.Sections, Drills: p.Drills})
		p.Sections = map[string]*SectionProgress{}
		if n := len(p.Rounds) - maxRounds; n > 0 { // the oldest are counted, no longer kept
			p.OlderRounds += n
			p.Rounds = slices.Clone(p.Rounds[n:])
		}
	}
}

// maxRounds is how many earlier rounds progress.json keeps whole (~1.5 KiB each): with it, the
// file stays far below what its reader accepts (maxProgress).
const maxRounds = 50

// DrillRecord counts the drills done and those diagnosed right (class and field), and keeps the
// last fault so the next drill draws another.
type DrillRecord struct {
	Done      int      `json:"done"`
	Right     int      `json:"right"`
	LastFault string   `json:"last_fault,omitempty"`
	Recent    []string `json:"recent,omitempty"` // the last faults drawn, newest last: not drawn again soon
	// Pending is the seed of the drill on the page, not answered yet: a restart shows it again
	// rather than drawing another (newcomer L19).
	Pending *uint64 `json:"pending,omitempty"`
}

// recentFaults is how many of the last faults the next drill avoids (of the nine in the catalogue).
const recentFaults = 4

// Count records a drill done, and right or not; the counts saturate rather than wrap.
func (d *DrillRecord) Count(right bool) {
	if d.Done < 0 || d.Right < 0 || d.Right > d.Done { // a record edited by hand: start again
		d.Done, d.Right = 0, 0
	}
	if d.Done < math.MaxInt {
		d.Done++
		if right {
			d.Right++
		}
	}
}

// Drawn records a drill's fault as the last and among the recent ones.
func (d *DrillRecord) Drawn(fault string) {
	d.Pending = nil
	d.LastFault = fault
	d.Recent = append(d.Recent, fault)
	if len(d.Recent) > recentFaults {
		d.Recent = d.Recent[len(d.Recent)-recentFaults:]
	}
}

// Avoid is the faults the next drill should not draw.
func (d DrillRecord) Avoid() []string {
	if len(d.Recent) == 0 && d.LastFault != "" {
		return []string{d.LastFault}
	}
	return d.Recent
}

// SectionProgress is one section's record.
type SectionProgress struct {
	Status     check.Status `json:"status"`
	Attempts   int          `json:"attempts"`
	FirstCheck time.Time    `json:"first_check"`
	LastCheck  time.Time    `json:"last_check"`
	HintsUsed  int          `json:"hints_used,omitempty"`
	Opened     time.Time    `json:"opened,omitzero"`      // first opened in the tutorial
	Passed     time.Time    `json:"passed,omitzero"`      // first judged passing
	FirstTime  bool         `json:"first_time,omitempty"` // passed with no failure seen before
	// Failures: the failing verdicts the learner saw, however the check ran (c, `check`, a save
	// from an editor, a run's end); the same files judged again count once (LastFailure is their
	// fingerprint).
	Failures    int    `json:"failures,omitempty"`
	LastFailure string `json:"last_failure,omitempty"`
}

const progressVersion = 1

// maxProgress bounds progress.json: a few KiB for the eight sections.
const maxProgress = 1 << 20

// lockWait bounds the wait for another copy of the program to finish saving.
const lockWait = 5 * time.Second

// Store keeps progress.json under the state dir. Every change is a locked read-modify-write, so
// two copies of the program (the tutorial and a `check` in its shell) never lose each other's work.
type Store struct {
	Dir string
	// Warning is set when a corrupt progress file was moved aside; show it once.
	Warning i18n.Msg
}

// NewStore opens the store in dir (created if needed).
func NewStore(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("state dir: %w", err)
	}
	removeStaleTemps(dir)
	return &Store{Dir: dir}, nil
}

// removeStaleTemps deletes the temp files of writes a killed process never finished (an atomic
// write's `.progress.json.tmp-*`): ours by name and kind, and old enough that no write is under way.
func removeStaleTemps(dir string) {
	old, _ := filepath.Glob(filepath.Join(dir, ".progress.json.tmp-*"))
	for _, f := range old {
		if fi, err := os.Lstat(f); err == nil && fi.Mode().IsRegular() && time.Since(fi.ModTime()) > time.Minute {
			os.Remove(f)
		}
	}
}

func (s *Store) path() string { return filepath.Join(s.Dir, "progress.json") }

func (s *Store) noticePath() string { return filepath.Join(s.Dir, "put-aside") }

// TakeNotice is the warning that a corrupt progress file was put aside — by this program or an
// earlier one that could not say it where the learner looks (the tutorial's next start) — and
// forgets it, so it is said once.
func (s *Store) TakeNotice() i18n.Msg {
	w := s.Warning
	s.Warning = i18n.Msg{}
	if raw, err := steps.ReadRegularFile(s.noticePath(), 4096); err == nil {
		os.Remove(s.noticePath())
		if w.Key == "" {
			w = i18n.M("progress.corrupt", "file", strings.TrimSpace(string(raw)))
		}
	}
	return w
}

// Load reads the progress without changing it.
func (s *Store) Load() (*Progress, error) {
	var p *Progress
	err := s.withLock(func() error {
		var err error
		p, err = s.read()
		return err
	})
	return p, err
}

// Update applies fn to the saved progress and saves the result atomically.
func (s *Store) Update(fn func(*Progress)) (*Progress, error) {
	var p *Progress
	err := s.withLock(func() error {
		var err error
		if p, err = s.read(); err != nil {
			return err
		}
		fn(p)
		raw, err := json.MarshalIndent(p, "", "  ")
		if err == nil && len(raw) >= maxProgress {
			raw, err = json.Marshal(p) // what the reader took must fit again (hostile L7)
		}
		if err != nil {
			return err
		}
		if len(raw) >= maxProgress { // never write what the reader would refuse (and reset)
			return fmt.Errorf("%s: %w", s.path(), steps.ErrTooBig)
		}
		return steps.WriteFileAtomic(s.path(), append(raw, '\n'), 0o644)
	})
	return p, err
}

// read loads progress.json; a missing file is fresh progress, a corrupt one is moved aside as
// progress.json.corrupt-<time> (kept, never deleted) and fresh progress starts, with a warning.
func (s *Store) read() (*Progress, error) {
	fresh := &Progress{Version: progressVersion, Sections: map[string]*SectionProgress{}}
	raw, err := steps.ReadRegularFile(s.path(), maxProgress)
	if errors.Is(err, fs.ErrNotExist) {
		return fresh, nil
	}
	// A link (into a dotfiles dir, say) is read as nothing: saves never write through one, so
	// taking its contents would leave a progress that could never be saved again (hostile L7).
	linked := false
	if fi, lerr := os.Lstat(s.path()); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		linked = true
	}
	odd := linked || errors.Is(err, steps.ErrNotRegular) || errors.Is(err, steps.ErrTooBig) // kept aside like a corrupt one
	if err != nil && !odd {
		return nil, fmt.Errorf("progress: %w", err)
	}
	var p Progress
	if odd || json.Unmarshal(raw, &p) != nil || p.Version != progressVersion || !p.valid() {
		aside := unusedName(s.path() + ".corrupt-" + time.Now().Format("20060102-150405.000000000"))
		if err := os.Rename(s.path(), aside); err != nil {
			return nil, fmt.Errorf("progress: cannot move corrupt file aside: %w", err)
		}
		s.Warning = i18n.M("progress.corrupt", "file", aside)
		// Kept for whoever starts next (the tutorial, after a command moved it aside): said once.
		_ = steps.WriteFileAtomic(s.noticePath(), []byte(aside), 0o644)
		return fresh, nil
	}
	if p.Sections == nil {
		p.Sections = map[string]*SectionProgress{}
	}
	return &p, nil
}

func (p *Progress) valid() bool {
	if p.Lang != "" {
		if _, err := i18n.ParseLang(string(p.Lang)); err != nil {
			return false
		}
	}
	for _, sp := range p.Sections {
		if sp == nil || sp.Attempts < 0 || sp.HintsUsed < 0 {
			return false
		}
	}
	return true
}

// withLock holds an exclusive flock on progress.lock while fn runs, waiting up to lockWait for
// another copy of the program that holds it.
func (s *Store) withLock(fn func() error) error {
	f, err := os.OpenFile(filepath.Join(s.Dir, "progress.lock"), os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return fmt.Errorf("progress lock: %w", err)
	}
	defer f.Close()
	deadline := time.Now().Add(lockWait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
			return &LockedError{Path: f.Name()}
		}
		time.Sleep(20 * time.Millisecond)
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return fn()
}

// LockedError: another copy of the program held the progress lock too long.
type LockedError struct{ Path string }

// Error names the lock file, for logs and the commands.
func (e *LockedError) Error() string { return "progress is locked by another ist2-boot: " + e.Path }

// Msg is the error in the learner's words.
func (e *LockedError) Msg() i18n.Msg { return i18n.M("progress.locked", "file", e.Path) }

// Instance is the lock that keeps a second interactive tutorial from running on the same progress.
type Instance struct{ f *os.File }

// AcquireInstance takes the instance lock without waiting; ok is false when another copy holds it.
func (s *Store) AcquireInstance() (*Instance, bool, error) {
	f, err := os.OpenFile(filepath.Join(s.Dir, "instance.lock"), os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, false, nil
	}
	return &Instance{f: f}, true, nil
}

// Release lets another copy start.
func (i *Instance) Release() { i.f.Close() }

// unusedName is name, or name-2, name-3 … the first that does not exist: a corrupt file put aside
// never replaces one put aside before.
func unusedName(name string) string {
	candidate := name
	for i := 2; ; i++ {
		if _, err := os.Lstat(candidate); errors.Is(err, fs.ErrNotExist) {
			return candidate
		}
		candidate = name + "-" + strconv.Itoa(i)
	}
}

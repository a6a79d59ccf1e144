package run

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"time"

	"ist2-boot/steps"
)

// ranFile, in the work dir, records what the lab's commands last wrote there: each produced file's
// SHA-256. A produced file that differs from it (or that no run wrote) is the learner's, and a run
// moves it to a backup before it writes its own (the newcomer review's M3).
const ranFile = ".ist2-boot-ran.json"

// maxRanFile bounds the record: a few hashes.
const maxRanFile = 64 << 10

// maxHashed: a produced file larger than this is never ours (no step writes one).
const maxHashed = 16 << 20

func hashOf(path string) (string, bool) {
	data, err := steps.ReadRegularFile(path, maxHashed)
	if err != nil {
		return "", false
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), true
}

func (r *Runner) ranRecord() map[string]string {
	rec := map[string]string{}
	if raw, err := steps.ReadRegularFile(r.Env.Path(ranFile), maxRanFile); err == nil {
		_ = json.Unmarshal(raw, &rec)
	}
	return rec
}

// learnersFiles are the section's produced files that are there and not what a run wrote.
func (r *Runner) learnersFiles(sec *steps.Section) []string {
	rec := r.ranRecord()
	var out []string
	for _, f := range sec.Files {
		sum, ok := hashOf(r.Env.Path(f.Name))
		if !ok {
			if exists(r.Env.Path(f.Name)) {
				out = append(out, f.Name) // there, but not a file we could have written: kept aside
			}
			continue
		}
		if rec[f.Name] != sum {
			out = append(out, f.Name)
		}
	}
	return out
}

// backUpLearners moves the learner's files of the section aside before its commands replace them.
func (r *Runner) backUpLearners(sec *steps.Section) (dir string, moved []string, err error) {
	names := r.learnersFiles(sec)
	if len(names) == 0 {
		return "", nil, nil
	}
	return steps.BackUp(r.Env.WorkDir, names, time.Now())
}

// recordRan notes what the section's commands wrote, however the run ended.
func (r *Runner) recordRan(sec *steps.Section) {
	rec := r.ranRecord()
	for _, f := range sec.Files {
		if sum, ok := hashOf(r.Env.Path(f.Name)); ok {
			rec[f.Name] = sum
		} else {
			delete(rec, f.Name)
		}
	}
	raw, _ := json.Marshal(rec)
	_ = steps.WriteFileAtomic(r.Env.Path(ranFile), raw, 0o644)
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

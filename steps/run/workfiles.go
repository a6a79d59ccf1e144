package run

import (
	"os"
	"syscall"

	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
)

// removeHalfWritten removes what a stopped step was writing: a produced file's temp copy (the
// lab's commands write FILE.tmp and rename it into place when it is whole) — one this run made,
// not one that was there before it (hostile L1: a draft the learner named so).
func (r *Runner) removeHalfWritten(sec *steps.Section, before map[string]bool) {
	for _, f := range sec.Files {
		if name := f.Name + ".tmp"; !before[name] {
			_ = os.Remove(r.Env.Path(name))
		}
	}
}

// tempFilesPresent are the FILE.tmp names that stand in the work dir before a run.
func (r *Runner) tempFilesPresent(sec *steps.Section) map[string]bool {
	present := map[string]bool{}
	for _, f := range sec.Files {
		if _, err := os.Lstat(r.Env.Path(f.Name + ".tmp")); err == nil {
			present[f.Name+".tmp"] = true
		}
	}
	return present
}

// unwritable names the first file the section writes that stands in the work dir as something
// other than a regular file (a link, a FIFO, a device, a directory); empty when none does.
func (r *Runner) unwritable(sec *steps.Section) i18n.Msg {
	names := make([]string, 0, len(sec.Files)+1)
	for _, f := range sec.Files {
		names = append(names, f.Name)
	}
	if sec.EnvoyPidFile != "" {
		names = append(names, sec.EnvoyPidFile)
	}
	// What a step writes besides them: FILE.tmp (the lab writes FILE through it) and the
	// section's scratch files (envoy.log).
	for _, f := range sec.Files {
		names = append(names, f.Name+".tmp")
	}
	names = append(names, sec.Scratch...)
	for _, name := range names {
		fi, err := os.Lstat(r.Env.Path(name))
		if err != nil {
			continue
		}
		// A link, a FIFO, a device, a dir — or a hard link, whose other name may be anywhere.
		if st, ok := fi.Sys().(*syscall.Stat_t); !fi.Mode().IsRegular() || ok && st.Nlink > 1 {
			return i18n.M("run.not_regular", "file", r.Env.Path(name))
		}
	}
	return i18n.Msg{}
}

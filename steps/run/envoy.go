package run

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"ist2-boot/steps"
)

// envoyStopWait is how long a stopped Envoy has to exit after SIGTERM before SIGKILL.
const envoyStopWait = 3 * time.Second

// RunningEnvoy returns the pid recorded in pidFile when that process is still the Envoy this
// program started: RecordEnvoy wrote down its pid, start time and working directory when the run
// that started it ended, and all three still match; its command line is Envoy's, with its -c file
// in the work dir. A reused pid, or an Envoy someone else started, is not ours and is left alone.
func RunningEnvoy(pidFile string) (int, bool) {
	pid, ok := pidIn(pidFile)
	if !ok {
		return 0, false
	}
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return 0, false
	}
	id, known := identityOf(pid)
	var rec envoyRecord
	raw, err := steps.ReadRegularFile(recordFile(pidFile), 4096)
	ours := err == nil && json.Unmarshal(raw, &rec) == nil && known && rec == id
	return pid, ours && isOurEnvoy(cmdline, filepath.Dir(pidFile))
}

// envoyRecord identifies a process beyond its pid, which the kernel hands out again: the start
// time since boot (in clock ticks) and the working directory.
type envoyRecord struct {
	Pid   int    `json:"pid"`
	Start uint64 `json:"start"`
	Cwd   string `json:"cwd"`
}

// RecordEnvoy writes down who the Envoy named in pidFile is, right after a run of this program
// started it; only a process that still matches is ever stopped.
func RecordEnvoy(pidFile string) error {
	pid, ok := pidIn(pidFile)
	if !ok {
		return os.ErrNotExist
	}
	id, known := identityOf(pid)
	if !known {
		return os.ErrNotExist
	}
	raw, _ := json.Marshal(id)
	return steps.WriteFileAtomic(recordFile(pidFile), raw, 0o644)
}

// recordIfWritten records the Envoy of pidFile when this run wrote the pid file (since started):
// a pid file the learner left from their own Envoy is never claimed.
func recordIfWritten(pidFile string, started time.Time) {
	fi, err := os.Lstat(pidFile)
	if err != nil || !fi.Mode().IsRegular() || fi.ModTime().Before(started) {
		return
	}
	_ = RecordEnvoy(pidFile)
}

func recordFile(pidFile string) string { return pidFile + ".ours" }

func pidIn(pidFile string) (int, bool) {
	raw, err := steps.ReadRegularFile(pidFile, 64) // a pid and a newline
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	return pid, err == nil && pid > 1
}

// identityOf reads a live process's start time and working directory from /proc.
func identityOf(pid int) (envoyRecord, bool) {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return envoyRecord{}, false
	}
	// Fields after the ")" that ends the command name start at field 3 (state); starttime is 22.
	f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+1:]))
	if len(f) < 20 || f[0] == "Z" {
		return envoyRecord{}, false
	}
	start, err := strconv.ParseUint(f[19], 10, 64)
	if err != nil {
		return envoyRecord{}, false
	}
	cwd, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd")
	if err != nil {
		return envoyRecord{}, false
	}
	return envoyRecord{Pid: pid, Start: start, Cwd: cwd}, true
}

// isOurEnvoy reads a NUL-separated command line.
func isOurEnvoy(cmdline []byte, workDir string) bool {
	args := strings.Split(string(bytes.TrimRight(cmdline, "\x00")), "\x00")
	// The envoy wrapper of `setup` is a script: the kernel runs it as "sh …/envoy ARGS".
	if len(args) > 1 && isShell(filepath.Base(args[0])) && filepath.Base(args[1]) == "envoy" {
		args = args[1:]
	}
	if len(args) == 0 || filepath.Base(args[0]) != "envoy" {
		return false
	}
	for i, a := range args {
		config := ""
		if (a == "-c" || a == "--config-path") && i+1 < len(args) {
			config = args[i+1]
		} else if v, ok := strings.CutPrefix(a, "--config-path="); ok {
			config = v
		}
		if config != "" {
			if !filepath.IsAbs(config) {
				return true // relative to its own cwd, which the lab sets to the work dir
			}
			return filepath.Dir(config) == filepath.Clean(workDir)
		}
	}
	return false
}

// StopEnvoy stops the Envoy recorded in pidFile if it is ours (see RunningEnvoy), waits for it to
// exit, and removes the pid file. It returns the pid and whether it stopped one.
func StopEnvoy(pidFile string) (int, bool) {
	pid, ours := RunningEnvoy(pidFile)
	if !ours {
		return pid, false
	}
	_ = syscall.Kill(pid, syscall.SIGTERM)
	deadline := time.Now().Add(envoyStopWait)
	// Wait for the process itself to end, not only for its command line to go: an exiting process
	// loses its command line a moment before it is gone.
	for time.Now().Before(deadline) && !exited(pid) {
		time.Sleep(50 * time.Millisecond)
	}
	if _, still := RunningEnvoy(pidFile); still {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	os.Remove(pidFile)
	os.Remove(recordFile(pidFile))
	return pid, true
}

func isShell(name string) bool { return name == "sh" || name == "bash" || name == "dash" }

// exited: the process is gone, or a zombie waiting for a parent (the lab's Envoy is reparented
// when its shell exits, and not every container's init reaps).
func exited(pid int) bool {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+1:]))
	return len(f) == 0 || f[0] == "Z"
}

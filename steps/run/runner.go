package run

import (
	"context"
	"errors"
	"maps"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"ist2-boot/steps"
	"ist2-boot/steps/check"
	"ist2-boot/steps/i18n"
)

// DefaultTimeout bounds one section's reference commands.
const DefaultTimeout = 120 * time.Second

// killGrace is how long a cancelled process group has between SIGTERM and SIGKILL.
const killGrace = 2 * time.Second

// LineKind says what a line of a run is.
type LineKind int

// Output is what the commands print; Command echoes a command about to run; Note is the
// engine's own message (Msg set).
const (
	Output LineKind = iota
	Command
	Note
)

// Line is one line of a run, handed to the caller as soon as it is read.
type Line struct {
	Kind LineKind
	Text string
	Msg  i18n.Msg
}

// RunResult is how a section's run ended.
type RunResult struct {
	Section  string
	ExitCode int // of the step that ended the run; 127 when a step could not start
	Duration time.Duration
	Step     int // 1-based step that ended the run (0: none ran)
	// Exactly one of these may be set: why the run did not finish every step.
	TimedOut     bool
	Cancelled    bool
	MissingTool  string
	MissingInput string
	Err          error // the engine could not start a command
	Summary      i18n.Msg
}

// OK is true when every step ran and exited 0.
func (r RunResult) OK() bool {
	return r.ExitCode == 0 && !r.TimedOut && !r.Cancelled && r.MissingTool == "" && r.MissingInput == "" && r.Err == nil
}

// Runner runs reference commands in the work dir.
type Runner struct {
	Lesson  *steps.Lesson
	Env     *steps.Env
	Tools   steps.Tools
	Timeout time.Duration // per section; 0 means the section's own or DefaultTimeout
	Lang    i18n.Lang     // the learner's: the commands' comments and what they write in words (Korean if unset)
	// Self is this program's path, given to the commands as IST2_BOOT (the practice page starts
	// `"$IST2_BOOT" control-plane`); "" is os.Executable's.
	Self string
}

// self is the path the commands get as IST2_BOOT: Self, else the running executable's.
func (r *Runner) self() string {
	if r.Self != "" {
		return r.Self
	}
	exe, err := os.Executable()
	if err != nil {
		return "ist2-boot" // found on PATH, where the learner's shell has us (ShellCommand)
	}
	return exe
}

// RunSection runs a section's steps in order with bash, streaming every output line to emit as
// it is read. It stops before a step whose tool or input is missing (what earlier steps made stays),
// at the first step that fails, on timeout, or when ctx is cancelled; the process group of the
// running step is ended, never anything else.
func (r *Runner) RunSection(ctx context.Context, id string, emit func(Line)) (res RunResult) {
	start := time.Now()
	res.Section = id
	defer func() { res.Duration = time.Since(start) }()
	sec, ok := r.Lesson.Section(id)
	if !ok {
		res.Err, res.ExitCode = errors.New("unknown section "+id), 2
		return res
	}
	timeout := r.Timeout
	if timeout == 0 && sec.TimeoutSec > 0 {
		timeout = time.Duration(sec.TimeoutSec) * time.Second
	}
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := r.Env.Prepare(); err != nil {
		res.Err, res.ExitCode = err, 2
		return res
	}
	if sec.EnvoyPidFile != "" {
		if pid, stopped := StopEnvoy(r.Env.Path(sec.EnvoyPidFile)); stopped {
			emit(Line{Kind: Note, Msg: i18n.M("run.envoy_stopped", "pid", strconv.Itoa(pid))})
		}
	}
	// check's rule before any step: a produced file that is a link or not a regular file is not
	// written through (a step's `> FILE` would follow the link out of the work dir).
	if msg := r.unwritable(sec); msg.Key != "" {
		res.ExitCode, res.Summary, res.Err = 2, msg, errors.New("a produced file is not a regular file")
		emit(Line{Kind: Note, Msg: msg})
		return res
	}
	fixtures := steps.ResolveFixtures(r.Env)
	lang := r.Lang
	if lang == "" {
		lang = i18n.Korean
	}
	params := maps.Clone(r.Lesson.Params)
	if params == nil {
		params = map[string]string{}
	}
	maps.Copy(params, sec.NoteVars(lang))
	maps.Copy(params, r.Lesson.SayVars(lang))
	params["ist2_boot"] = r.self()
	environ := r.Env.CommandEnv(r.Tools, params, fixtures)
	started := time.Now()
	drafts := r.tempFilesPresent(sec) // the learner's own, if any: a stopped run leaves them
	backedUp := false
	for i, st := range sec.Steps {
		res.Step = i + 1
		if tool := r.Tools.Missing(st.Tools); tool != "" {
			res.MissingTool, res.ExitCode = tool, 127
			res.Summary = i18n.M("run.tool_missing", "step", strconv.Itoa(i+1), "tool", tool, "how", i18n.Ref("run.how_to_get"))
			emit(Line{Kind: Note, Msg: res.Summary})
			if tool == "envoy" {
				r.withoutEnvoy(st, emit)
			}
			return res
		}
		if msg := r.missingInput(i+1, st.Inputs, &res); msg.Key != "" {
			res.ExitCode, res.Summary = 127, msg
			emit(Line{Kind: Note, Msg: msg})
			return res
		}
		if msg := steps.UnusableFixture(st.Run, fixtures); msg.Key != "" {
			res.ExitCode, res.Summary = 127, msg // a fixture the step reads is missing: said before it runs
			emit(Line{Kind: Note, Msg: res.Summary})
			return res
		}
		for _, l := range strings.Split(strings.TrimRight(steps.Commented(st.Run, lang), "\n"), "\n") {
			emit(Line{Kind: Command, Text: l})
		}
		if !backedUp { // the first step that runs: what the learner wrote is put aside first
			backedUp = true
			if dir, moved, err := r.backUpLearners(sec); err != nil {
				res.Err, res.ExitCode, res.Summary = err, 2, i18n.M("run.backup_failed", "error", err.Error())
				emit(Line{Kind: Note, Msg: res.Summary})
				return res
			} else if len(moved) > 0 {
				emit(Line{Kind: Note, Msg: i18n.M("run.backed_up", "files", strings.Join(moved, ", "), "dir", dir)})
			}
			defer r.recordRan(sec)
		}
		code, err := runScript(ctx, r.Env.WorkDir, environ, st.Run, emit)
		res.ExitCode = code
		if sec.EnvoyPidFile != "" {
			// An Envoy this step started is ours from the moment its pid is written, however the
			// step ended (failed, cancelled, timed out): q, a signal and the next run stop it.
			recordIfWritten(r.Env.Path(sec.EnvoyPidFile), started)
		}
		switch {
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			r.removeHalfWritten(sec, drafts)
			res.TimedOut = true
			res.Summary = i18n.M("run.timeout", append([]string{"step", strconv.Itoa(i + 1), "command", firstCommand(st.Run)}, i18n.ElapsedArgs("limit", timeout)...)...) // in words: "1초 안에" for 1ms read false (ko r11 L32)
		case errors.Is(ctx.Err(), context.Canceled):
			r.removeHalfWritten(sec, drafts)
			res.Cancelled = true
			res.Summary = i18n.M("run.cancelled", "step", strconv.Itoa(i+1))
		case err != nil:
			res.Err = err
			res.Summary = i18n.M("run.start_failed", "step", strconv.Itoa(i+1), "error", err.Error())
		case code != 0:
			res.Summary = i18n.M("run.step_failed", "step", strconv.Itoa(i+1), "code", strconv.Itoa(code))
		}
		if res.Summary.Key != "" {
			emit(Line{Kind: Note, Msg: res.Summary})
			return res
		}
	}
	key := "run.done"
	if r.Lesson.IsPractice(id) { // not numbered
		key = "run.done_practice"
	}
	if len(sec.Steps) == 1 { // one command is not "all one of them" (ja r9 M1)
		key += "_one"
	}
	res.Summary = i18n.M(key, "n", strconv.Itoa(r.Lesson.Number(id)), "section", id, "steps", strconv.Itoa(len(sec.Steps)))
	emit(Line{Kind: Note, Msg: res.Summary})
	return res
}

// missingInput says why a step cannot start for want of an input file: the section that makes
// it, or, when that section needs a tool that is missing, the tool.
func (r *Runner) missingInput(step int, inputs []string, res *RunResult) i18n.Msg {
	for _, in := range inputs {
		if _, present, problem := check.ReadLearnerFile(r.Env, in); present {
			// Read as check reads it: a link out of the work dir, a device, a FIFO, more than
			// the judges' limit is refused before a step reads it (sed on /dev/zero fills memory).
			if problem.Key != "" {
				res.MissingInput = in
				return problem // check's reason: the file, and why it is not read
			}
			continue
		}
		res.MissingInput = in
		producer, spec := r.Lesson.ProducerOf(in)
		if producer == nil {
			return i18n.M("run.input_missing", "step", strconv.Itoa(step), "file", in, "n", "?", "section", "?")
		}
		if tool := r.Tools.Missing(spec.Needs); tool != "" {
			res.MissingTool = tool
			return i18n.M("run.input_needs_tool", "step", strconv.Itoa(step), "file", in, "tool", tool, "how", i18n.Ref("run.how_to_get"))
		}
		return i18n.M("run.input_missing", "step", strconv.Itoa(step), "file", in, "n", strconv.Itoa(r.Lesson.Number(producer.ID)), "section", producer.ID)
	}
	return i18n.Msg{}
}

// firstCommand names the step in a timeout message: its first line that is not a comment.
func firstCommand(script string) string {
	for _, l := range strings.Split(script, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			// A command continued on the next line is quoted as cut off, not with its backslash.
			if cut, ok := strings.CutSuffix(l, "\\"); ok {
				return strings.TrimSpace(cut) + " …"
			}
			return l
		}
	}
	return ""
}

// runScript runs one bash script in the work dir with "set -eo pipefail" first.
func runScript(ctx context.Context, dir string, environ []string, script string, emit func(Line)) (int, error) {
	cmd := exec.Command("bash", "-c", "set -eo pipefail\n"+script)
	cmd.Dir, cmd.Env = dir, environ
	return RunCommand(ctx, cmd, emit)
}

// RunCommand runs a prepared command in its own process group, stdout and stderr on one pipe so
// their lines keep their order, streams the lines, ends the whole group when ctx ends, and returns
// the exit code (128+signal when a signal ended it).
func RunCommand(ctx context.Context, cmd *exec.Cmd, emit func(Line)) (int, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return 127, err
	}
	defer pr.Close()
	cmd.Stdout, cmd.Stderr = pw, pw
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		pw.Close()
		return 127, err
	}
	pw.Close()
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		streamLines(pr, emit)
	}()
	exited, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		stopOnCancel(ctx, cmd.Process.Pid, exited)
	}()
	err = cmd.Wait()
	close(exited)
	if ctx.Err() != nil {
		<-stopped // cancelled: return only once nothing of the group is left
	}
	// A background child may hold the pipe open after the command exits; read what is there, then stop.
	select {
	case <-readDone:
	case <-time.After(500 * time.Millisecond):
		pr.Close()
		<-readDone
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), nil
		}
		return exit.ExitCode(), nil
	}
	if err != nil {
		return 127, err
	}
	return 0, nil
}

// stopOnCancel ends the step's whole process group when ctx ends: SIGTERM, then SIGKILL.
func stopOnCancel(ctx context.Context, pgid int, exited <-chan struct{}) {
	select {
	case <-exited:
		return
	case <-ctx.Done():
	}
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	// The leader may be gone while children that ignore TERM live on in its group: wait for the
	// whole group, not the leader, and kill what is left after the grace period.
	for deadline := time.Now().Add(killGrace); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if !GroupAlive(pgid) {
			return
		}
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	for deadline := time.Now().Add(time.Second); GroupAlive(pgid) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
}

// GroupAlive: some process of group pgid still runs. Zombies do not count: they have ended, and
// where the container's init does not reap them they would stay in the group for ever.
func GroupAlive(pgid int) bool {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		raw, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// Fields after the ")" that ends the command name: state ppid pgrp …
		f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+1:]))
		if len(f) > 2 && f[0] != "Z" && f[2] == strconv.Itoa(pgid) && pid > 0 {
			return true
		}
	}
	return false
}

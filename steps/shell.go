package steps

import (
	"errors"
	"ist2-boot/steps/i18n"
	"os/exec"
)

// ShellCommand is the learner's own shell ($SHELL, else bash) in the work dir, with the same
// environment the reference commands get (LAB_DIR, FIXTURES, MESH_CONFIG, the params, the tools
// dir first on PATH). The tutorial hands it the terminal and checks the section when it exits.
func ShellCommand(env *Env, l *Lesson, tools Tools) *exec.Cmd {
	shell := env.Getenv("SHELL")
	if shell == "" {
		shell = "bash"
	}
	cmd := exec.Command(shell)
	cmd.Dir = env.WorkDir
	cmd.Env = append(env.CommandEnv(tools, l.Params), "IST2_BOOT_SHELL=1")
	return cmd
}

// ReadLearnerFile reads a produced file of the work dir the way the checks do (size, UTF-8, links
// inside the work dir). ok is false when it is absent; a file that cannot be shown gives the
// reason as a Msg.
func ReadLearnerFile(env *Env, name string) (text string, ok bool, problem i18n.Msg) {
	text, err := readLearnerFile(env.WorkDir, name)
	var p *fileProblem
	switch {
	case errors.Is(err, errAbsent):
		return "", false, i18n.Msg{}
	case errors.As(err, &p):
		return "", true, p.msg
	case err != nil:
		return "", true, i18n.M("reason.unreadable", "file", name, "error", err.Error())
	}
	return text, true, i18n.Msg{}
}

package run

import (
	"os/exec"

	"ist2-boot/steps"
)

// ShellCommand is the learner's own shell ($SHELL, else bash) in the work dir, with the same
// environment the reference commands get (LAB_DIR, FIXTURES, MESH_CONFIG, the params, the tools
// dir first on PATH). The tutorial hands it the terminal and checks the section when it exits.
func ShellCommand(env *steps.Env, l *steps.Lesson, tools steps.Tools) *exec.Cmd {
	shell := env.Getenv("SHELL")
	if shell == "" {
		shell = "bash"
	}
	cmd := exec.Command(shell)
	cmd.Dir = env.WorkDir
	cmd.Env = append(env.CommandEnv(tools, l.Params, steps.ResolveFixtures(env)), "IST2_BOOT_SHELL=1")
	return cmd
}

package run

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

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
	cmd.Env = append(withSelfOnPath(env.CommandEnv(tools, l.Params, steps.ResolveFixtures(env))), "IST2_BOOT_SHELL=1")
	if exe, err := os.Executable(); err == nil { // the practice page's commands say "$IST2_BOOT"
		cmd.Env = append(cmd.Env, "IST2_BOOT="+exe)
	}
	return cmd
}

// withSelfOnPath puts the running ist2-boot's dir first on PATH: the pages say `ist2-boot
// validate …`, and in this shell that is the program that opened it (the newcomer review's M2).
func withSelfOnPath(environ []string) []string {
	exe, err := os.Executable()
	if err != nil {
		return environ
	}
	dir := filepath.Dir(exe)
	for i, kv := range environ {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			environ[i] = "PATH=" + dir + string(os.PathListSeparator) + p
			return environ
		}
	}
	return append(environ, "PATH="+dir)
}

// Command ist2-boot is an interactive terminal tutorial for one Istio lab: write an Envoy
// bootstrap by hand and tell apart the two ways a sidecar fails to start.
package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"ist2-boot/ui/cli"
)

func main() {
	args := os.Args[1:]
	sio := cli.IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, Getenv: os.Getenv}
	if cli.IsCommand(args) {
		// A quick command runs for milliseconds: collecting garbage costs it more than the memory
		// it would free, so it collects only past a bound (the learner's files are bounded far
		// below it). The long ones (run, setup, drill, control-plane) stream what children print:
		// they keep the collector.
		if !cli.IsLongRunning(args) {
			debug.SetGCPercent(-1)
			debug.SetMemoryLimit(256 << 20)
		}
		sio.Render = cli.TerminalRenderer(os.Getenv)
		os.Exit(cli.Main(args, sio))
	}
	os.Exit(tutorial(args, sio))
}

// tutorial runs the interactive tutorial until the learner quits.
func tutorial(args []string, sio cli.IO) int {
	t, code := cli.OpenTutorial(args, sio, isTerminal(os.Stdin) && isTerminal(os.Stdout))
	if t == nil {
		return code
	}
	code, err := t.Run()
	if err != nil {
		fmt.Fprintln(os.Stderr, "ist2-boot:", err)
		return 1
	}
	return code
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

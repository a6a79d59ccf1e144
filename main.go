// Command ist2-boot is an interactive terminal tutorial for one Istio lab: write an Envoy
// bootstrap by hand and tell apart the two ways a sidecar fails to start.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strconv"

	"github.com/charmbracelet/x/term"

	"ist2-boot/ui/cli"
)

func main() {
	args := os.Args[1:]
	sio := cli.IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, Getenv: withTerminalWidth(os.Getenv)}
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

// withTerminalWidth answers COLUMNS with the terminal's own width when stdout is one: an
// interactive bash sets COLUMNS without exporting it, so a command laid out for 80 columns was
// re-wrapped by a narrower terminal, against the line breaker's rules (ja r25 M1). Then the
// environment's COLUMNS, then the commands' default.
func withTerminalWidth(getenv func(string) string) func(string) string {
	return func(key string) string {
		if key == "COLUMNS" && isTerminal(os.Stdout) {
			if w, _, err := term.GetSize(os.Stdout.Fd()); err == nil && w > 0 {
				return strconv.Itoa(w)
			}
		}
		return getenv(key)
	}
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

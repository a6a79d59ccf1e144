// Command ist2-boot is an interactive terminal tutorial for one Istio lab: write an Envoy
// bootstrap by hand and tell apart the two ways a sidecar fails to start.
package main

import (
	"fmt"
	"os"
	"strings"

	"ist2-boot/steps/cli"
	"ist2-boot/ui"
)

func main() {
	args := os.Args[1:]
	if len(args) == 0 || (strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help") {
		// The interactive tutorial is being built (issue 4); until then say what works today.
		fmt.Fprintln(os.Stderr, "ist2-boot: the interactive tutorial is not here yet; the headless commands work:")
		cli.Main([]string{"help"}, cli.IO{In: os.Stdin, Out: os.Stderr, Err: os.Stderr})
		os.Exit(0)
	}
	style := ui.Dark
	if cli.PlainOutput(os.Getenv) {
		style = ui.Plain
	}
	render := func(md string, width int) (string, error) { return ui.RenderMarkdown(md, width, style) }
	os.Exit(cli.Main(args, cli.IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, Render: render}))
}

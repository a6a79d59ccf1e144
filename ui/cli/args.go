package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"ist2-boot/steps/i18n"
	"ist2-boot/ui/render"
)

// parseInterspersed parses flags wherever they stand among positional arguments.
func (g *global) parseInterspersed(fs *flag.FlagSet, args []string, sio IO) ([]string, error) {
	var pos []string
	for {
		if err := g.parseFlags(fs, args, sio); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// IsCommand: the arguments name a headless command (or ask for help), wherever it stands among
// the global flags; otherwise they are the tutorial's.
func IsCommand(args []string) bool {
	_, ok := commandAt(args, commands())
	return ok || askedForHelp(args) || len(args) > 0 && !strings.HasPrefix(args[0], "-")
}

// askedForHelp: no command, and help asked for anywhere — `--lang zh --help` is the whole usage
// in Chinese, as `--help --lang zh` is (zh round 2, M2).
func askedForHelp(args []string) bool {
	if _, ok := commandAt(args, commands()); ok {
		return false
	}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case valueFlags[a]:
			i++ // its value, never a request for help (--workdir help)
		case a == "-h" || a == "--help" || a == "help":
			return true
		}
	}
	return false
}

// IsLongRunning: the command streams what children print for as long as they run (run, setup,
// drill), so it keeps the garbage collector that quick commands go without.
func IsLongRunning(args []string) bool {
	i, ok := commandAt(args, commands())
	return ok && (args[i] == "run" || args[i] == "setup" || args[i] == "drill" || args[i] == "control-plane")
}

// valueFlags are the global flags that take a value in the next argument.
var valueFlags = map[string]bool{"--workdir": true, "--fixtures": true, "--mesh": true, "--lang": true, "--timeout": true,
	"-workdir": true, "-fixtures": true, "-mesh": true, "-lang": true, "-timeout": true}

// commandAt finds the first argument that is not a flag or a flag's value, if it names a command.
func commandAt[F any](args []string, cmds map[string]F) (int, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case valueFlags[a]:
			i++ // its value
		case strings.HasPrefix(a, "-"):
		default:
			_, ok := cmds[a]
			return i, ok
		}
	}
	return 0, false
}

// parse reads a command's flags wherever they stand and checks how many positional arguments
// it got; ok is false when the command must exit with code (after --help, or a usage error).
func (g *global) parse(fs *flag.FlagSet, args []string, sio IO, count func(int) bool) (pos []string, code int, ok bool) {
	pos, err := g.parseInterspersed(fs, args, sio)
	if err != nil {
		return nil, flagErr(err), false
	}
	if !count(len(pos)) {
		// Say what was wrong before the usage, in the learner's language (ko KO-40, zh L25).
		msg := i18n.M("cli.no_args")
		if whatIsMissing[fs.Name()] { // what to give, not only that something is missing (ko r24 L10)
			msg = i18n.M("cli.no_args." + fs.Name())
		}
		if len(pos) > 0 {
			msg = i18n.M("cli.wrong_args", "args", strings.Join(pos, " "))
		}
		if fs.Name() == "validate" && len(pos) > 1 { // the first is the file: name what is extra (ja r25 L10)
			msg = i18n.M("cli.one_file", "extra", strings.Join(pos[1:], " "))
		}
		fmt.Fprintln(sio.Err, "ist2-boot "+fs.Name()+": "+render.Unmarked(msg.In(g.helpLanguage(sio))))
		printBrief(sio.Err, fs.Name(), g.helpLanguage(sio))
		return nil, exitUsage, false
	}
	// A language we do not have stops the command before it does anything, said in the
	// locale's language: not run in Korean with an English error (zh H1).
	if _, err := i18n.ParseLang(g.lang); g.lang != "" && err != nil {
		return nil, g.fail(sio, err), false
	}
	return pos, exitOK, true
}

// parseOnly is how a command that opens no session starts: its flags (only the global ones) and
// positional arguments; ok is false when it must exit with code.
func parseOnly(name string, args []string, sio IO, count func(int) bool) (g *global, fs *flag.FlagSet, pos []string, code int, ok bool) {
	g = &global{}
	fs = newFlags(name, sio, g)
	pos, code, ok = g.parse(fs, args, sio, count)
	return g, fs, pos, code, ok
}

// parseAndOpen is how a command starts: its flags and positional arguments (count says how many),
// then the session. A nil session comes with the exit code (usage, or the environment error said).
func (g *global) parseAndOpen(fs *flag.FlagSet, args []string, sio IO, count func(int) bool) (*session, []string, int) {
	pos, code, ok := g.parse(fs, args, sio, count)
	if !ok {
		return nil, nil, code
	}
	s, err := g.open(sio)
	if err != nil {
		return nil, nil, g.fail(sio, err)
	}
	return s, pos, exitOK
}

// Positional argument counts for parse.
func exactly(k int) func(int) bool { return func(n int) bool { return n == k } }
func anyCount(int) bool            { return true }

// newFlags makes a command's flag set with the global flags and a --help that says what it does
// (its usage line from commandTable, its words from the catalog).
func newFlags(name string, sio IO, g *global) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the flag package's own words are English: parseFlags says them
	g.register(fs)
	fs.Usage = func() {
		if sio.declared != nil { // completion reads the flags declared by now
			sio.declared(fs)
		}
		printHelp(sio.Err, fs, name, g.helpLanguage(sio), columns(sio.Getenv))
	}
	return fs
}

// flagErr turns a flag error into an exit code: --help is not an error.
func flagErr(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}

// whatIsMissing are the commands whose missing argument is said by name ("the file to validate").
var whatIsMissing = map[string]bool{"validate": true, "show": true, "run": true}

package cli

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"ist2-boot/steps/i18n"
	"ist2-boot/ui/render"
)

// command is one headless command as the command line knows it: its name, its arguments and
// flags as usage writes them, and what it runs. What it does is said in the catalog, in the
// learner's language: usage.<name> in a line, usage.<name>.about for more in its --help. The usage
// text, each command's --help, the dispatch and the shell completion all come from commandTable; a
// command's own flags are read from the flag set it declares (newFlags), never listed twice.
type command struct {
	name, synopsis string
	run            func(args []string, sio IO) int
	about          bool // its --help says more (usage.<name>.about)
}

// commandTable is every headless command, in the order usage lists them. It is a function, not a
// variable, because completion runs the commands (a variable would refer to itself).
func commandTable() []command {
	langs := i18n.LangList("|")
	return []command{
		{"check", "[--json] [--lang " + langs + "] [SECTION…]", cmdCheck, false},
		{"run", "SECTION…|all [--timeout DURATION]", cmdRun, false},
		{"doctor", "[--json]", cmdDoctor, false},
		{"reset", "SECTION…|--all [--yes]", cmdReset, false},
		// usage.validate.about says what the offline check models of Envoy's start-up, and what it
		// does not yet: a bootstrap it accepts may still be refused by Envoy for one of those.
		{"validate", "FILE", cmdValidate, true},
		{"setup", "[--yes] [--from FILE]", cmdSetup, false},
		{"drill", "[--seed N] [--json]", cmdDrill, false},
		{"report", "[--format md|json] [-o FILE]", cmdReport, false},
		{"new-lab", "[--seed N] [--yes]", cmdNewLab, false},
		{"show", "intro|SECTION|finish|glossary [--width N] [--hints N]", cmdShow, false},
		{"control-plane", "[--bootstrap FILE] [--addr HOST:PORT] [--reject]", cmdControlPlane, true},
		{"completion", "bash", cmdCompletion, false},
	}
}

// tutorialSynopsis is a plain `ist2-boot`'s usage line: the tutorial's own flags.
func tutorialSynopsis() string {
	return "[--lang " + i18n.LangList("|") + "] [--workdir DIR] [--fixtures DIR] [--mesh FILE] [--timeout DURATION]"
}

// findCommand is the command of that name.
func findCommand(name string) (command, bool) {
	table := commandTable()
	i := slices.IndexFunc(table, func(c command) bool { return c.name == name })
	if i < 0 {
		return command{}, false
	}
	return table[i], true
}

// synopsis is the usage line of the command named (the tutorial's for "").
func synopsis(name string) string {
	if c, ok := findCommand(name); ok {
		return name + " " + c.synopsis
	}
	return tutorialSynopsis()
}

// argumentWords are the words a command's positional arguments can be, read from its synopsis:
// "intro|SECTION|finish|glossary" is intro, every section, finish and glossary; a flag's value
// ("--format md|json") is not an argument.
func argumentWords(c command) []string {
	var words []string
	tokens := strings.Fields(c.synopsis)
	for i := 0; i < len(tokens); i++ {
		tok := strings.Trim(tokens[i], "[]")
		if strings.HasPrefix(tok, "-") {
			if !strings.HasSuffix(tokens[i], "]") && !strings.Contains(tok, "|") {
				i++ // its value
			}
			continue
		}
		for _, alt := range strings.Split(tok, "|") {
			switch {
			case strings.HasPrefix(alt, "SECTION"):
				words = append(words, lessonSections()...)
			case alt != "" && strings.ToLower(alt) == alt && !strings.HasPrefix(alt, "-"):
				words = append(words, alt)
			}
		}
	}
	return words
}

// flagsOf are the flags the command declares (the global ones with its own), and those of them
// that take a value, read by running it with -h into a discarded output: parsing stops there,
// before anything is opened or written.
func flagsOf(c command) (names, valued []string) {
	sio := IO{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}
	sio.declared = func(fs *flag.FlagSet) {
		fs.VisitAll(func(f *flag.Flag) {
			dash := "--"
			if len(f.Name) == 1 {
				dash = "-" // -o
			}
			names = append(names, dash+f.Name)
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
				valued = append(valued, dash+f.Name)
			}
		})
	}
	c.run([]string{"-h"}, sio)
	return names, valued
}

// cmdCompletion prints a bash completion script: the command names first, then each command's
// flags, and the section names where a command takes them.
func cmdCompletion(args []string, sio IO) int {
	g, fs, pos, code, ok := parseOnly("completion", args, sio, exactly(1))
	if !ok {
		return code
	}
	if pos[0] != "bash" {
		fmt.Fprintln(sio.Err, "ist2-boot completion: "+render.Unmarked(i18n.M("cli.only_bash", "shell", pos[0]).In(g.helpLanguage(sio))))
		printBrief(sio.Err, fs.Name(), g.helpLanguage(sio))
		return exitUsage
	}
	var names []string
	tutorialWords, valued := flagsOf(command{run: tutorialFlags}) // the global flags are among them
	cases := &strings.Builder{}
	for _, c := range commandTable() {
		names = append(names, c.name)
		words, _ := flagsOf(c)
		for _, w := range argumentWords(c) {
			if !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
		fmt.Fprintf(cases, "    %s) words=%q ;;\n", c.name, strings.Join(words, " "))
	}
	fmt.Fprintf(sio.Out, `# bash completion for ist2-boot: source <(ist2-boot completion bash)
_ist2_boot() {
  local cur=${COMP_WORDS[COMP_CWORD]} cmd="" words i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      %s) ((i++)) ;; # the flag's value follows
      -*) ;;
      *) cmd=${COMP_WORDS[i]}; break ;;
    esac
  done
  case $cmd in
%s    "") words=%q ;;
    *) words="" ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _ist2_boot ist2-boot
`, strings.Join(valued, "|"), cases.String(), strings.Join(append(names, tutorialWords...), " "))
	return exitOK
}

// tutorialFlags reads a plain `ist2-boot`'s flags only (for completion).
func tutorialFlags(args []string, sio IO) int {
	_, code := OpenTutorial(args, sio, false)
	return code
}

package cli

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"ist2-boot/steps/i18n"
)

// command is one headless command as the command line knows it: its name, its arguments and
// flags as usage writes them, what it does in a line, and what it runs. The usage text, each
// command's --help, the dispatch and the shell completion all come from commandTable; a command's
// own flags are read from the flag set it declares (newFlags), never listed twice.
type command struct {
	name, synopsis, summary string
	run                     func(args []string, sio IO) int
	about                   string // more, for its --help ("" for nothing more)
}

// commandTable is every headless command, in the order usage lists them. It is a function, not a
// variable, because completion runs the commands (a variable would refer to itself).
func commandTable() []command {
	langs := i18n.LangList("|")
	return []command{
		{"check", "[--json] [--lang " + langs + "] [SECTION…]", "judge the produced files (exit 0 all pass, 1 not, 2 error)", cmdCheck, ""},
		{"run", "SECTION…|all [--timeout DURATION (120s, 2m)]", "run sections' reference commands, streaming output", cmdRun, ""},
		{"doctor", "[--json]", "mode, paths, fixture files and tools", cmdDoctor, ""},
		{"reset", "SECTION…|--all [--yes]", "move produced files to a backup and clear progress", cmdReset, ""},
		{"validate", "FILE", "offline Envoy bootstrap validation (exit 0 valid, 1 not)", cmdValidate, validateAbout},
		{"setup", "[--yes] [--from FILE]", "install the missing tools into the tools dir", cmdSetup, ""},
		{"drill", "[--seed N] [--json]", "CrashLoop or not Ready, and why? a diagnosis drill", cmdDrill, ""},
		{"report", "[--format md|json] [-o FILE]", "the review: sections, attempts, hints, drills", cmdReport, ""},
		{"new-lab", "[--seed N] [--yes]", "a fresh lab (sandbox mode): other names and values", cmdNewLab, ""},
		{"show", "intro|SECTION|finish|glossary [--width N] [--hints N]", "print a page of the lesson", cmdShow, ""},
		{"completion", "bash", "a bash completion script: source <(ist2-boot completion bash)", cmdCompletion, ""},
	}
}

// validateAbout says what the offline check models of Envoy's start-up, and what it does not yet:
// a bootstrap it accepts may still be refused by Envoy for one of those.
const validateAbout = `Checks what Envoy checks when it parses a bootstrap: yaml-cpp's typing of scalars (yes/on are
booleans, 1.5 is text), protobuf's JSON parser in legacy mode (quoted booleans and enum numbers,
integer ranges, fractions, Duration text, @type), unknown fields, Envoy's Duration limits and
protoc-gen-validate's rules in every typed_config; then, of what it builds, in Envoy's order: the
application log format, the admin address, runtime layers, the overload manager, static secrets,
clusters (type, EDS, circuit breakers, LB policy, HTTP/3 and QUIC, upstream filters, drop
overloads, hosts, health checks), ADS, every config source, its node identity and gRPC client,
static listeners (addresses, filter chains, terminal filters), the HTTP connection manager, route
tables (headers, weights, rewrites, domains, clusters), every RE2 regex, extension lookup by type,
watchdogs; a gRPC cluster without HTTP/2 is a warning (Envoy starts; the stream never works).
Not modelled: stats tags and sinks, tracing providers, each extension's own build checks beyond its
constraints (TLS contexts, access log formats, filter configs), DNS and files (a path config source,
certificates), RE2 program size limits; where Envoy appends a DebugString, protobuf 35.1 starts it
with a randomised marker, so it is left out, as are the JSON positions Envoy's unordered keys make.
Where Envoy is installed, run it.`

// tutorialSynopsis is a plain `ist2-boot`'s usage line: the tutorial's own flags.
func tutorialSynopsis() string {
	return "[--lang " + i18n.LangList("|") + "] [--workdir DIR] [--fixtures DIR] [--mesh FILE] [--timeout 120s]"
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

// synopsis is the usage line of the command named (the tutorial's for ""), and what more its
// --help says.
func synopsis(name string) string {
	if c, ok := findCommand(name); ok {
		if c.about != "" {
			return name + " " + c.synopsis + "\n\n" + c.about
		}
		return name + " " + c.synopsis
	}
	return tutorialSynopsis()
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "ist2-boot — an interactive tutorial: write an Envoy bootstrap by hand and tell apart the two ways")
	fmt.Fprintln(w, "a sidecar fails to start.")
	fmt.Fprintln(w, "\nusage:")
	lines := [][2]string{{"ist2-boot " + tutorialSynopsis(), "the interactive tutorial"}}
	for _, c := range commandTable() {
		lines = append(lines, [2]string{"ist2-boot " + c.name + " " + c.synopsis, c.summary})
	}
	const column = 46 // a longer usage line has its summary on the next line, at the column
	for _, l := range lines {
		if len([]rune(l[0])) > column {
			fmt.Fprintf(w, "  %s\n  %-*s %s\n", l[0], column, "", l[1])
			continue
		}
		fmt.Fprintf(w, "  %-*s %s\n", column, l[0], l[1])
	}
	fmt.Fprintln(w, "\nglobal flags (before or after section names): --workdir DIR --fixtures DIR --mesh FILE --lang "+i18n.LangList("|"))
	fmt.Fprintln(w, "sections: "+strings.Join(lessonSections(), " "))
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
	_, fs, pos, code, ok := parseOnly("completion", args, sio, exactly(1))
	if !ok {
		return code
	}
	if pos[0] != "bash" {
		fs.Usage()
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

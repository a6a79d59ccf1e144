package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"ist2-boot/steps"
	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/ui/render"
)

// The usage text, each --help and the flag errors are said in the learner's language, as every
// other message: the sentences come from the catalog (usage.*), while command and flag names,
// placeholders and the synopses stay as they are typed.

// helpLanguage is the language help is said in, chosen as a command chooses it (--lang, the saved
// choice, LC_ALL/LANG, else Korean) but without making anything: help is read before a session
// opens, and may be asked where no state dir exists.
func (g *global) helpLanguage(sio IO) i18n.Lang {
	if l := g.flagLang(); l != "" {
		return l // no need to read the progress (whose reading puts a corrupt file aside)
	}
	var saved i18n.Lang
	if env, err := steps.DetectEnv(sio.Getenv, g.overrides(sio)); err == nil {
		if fi, serr := os.Stat(env.ProgressDir()); serr == nil && fi.IsDir() {
			if p, err := (&progress.Store{Dir: env.ProgressDir()}).Load(); err == nil {
				saved = p.Lang
			}
		}
	}
	return i18n.Choose(g.flagLang(), saved, i18n.Locale(sio.Getenv))
}

// langInArgs is the value of a --lang among args, read before the flags are parsed: a flag error
// or -h stops the parse before a --lang after it is read, yet is said in that language.
func langInArgs(args []string) string {
	lang := ""
	for i, a := range args {
		if a == "--" {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "lang" {
			continue
		}
		if hasValue {
			lang = value
		} else if i+1 < len(args) {
			lang = args[i+1]
		}
	}
	return lang
}

// usage is the top-level usage, for a terminal cols cells wide: what the program is, every
// command with what it does, the global flags and the sections.
func usage(w io.Writer, lang i18n.Lang, cols int) {
	say := i18n.Sayer(lang)
	fmt.Fprintln(w, strings.Join(render.WrapLines(say("usage.description"), max(cols-2, 20), 0), "\n"))
	fmt.Fprintln(w, "\n"+say("usage.usage"))
	lines := [][2]string{{"ist2-boot " + tutorialSynopsis(), say("usage.tutorial")}}
	for _, c := range commandTable() {
		lines = append(lines, [2]string{"ist2-boot " + c.name + " " + c.synopsis, say("usage." + c.name)})
	}
	// Each command line on its own, what it does under it, set by the pages' breaker: two
	// columns ran past 80 and wrapped back to column 0 (ja M11).
	for _, l := range lines {
		fmt.Fprintf(w, "  %s\n", l[0])
		for _, d := range render.WrapLines(l[1], max(cols-6, 20), 0) {
			fmt.Fprintf(w, "      %s\n", d)
		}
	}
	// The shared flags on a line of their own under what they are; the sections set to the width.
	fmt.Fprintln(w, "\n"+strings.Join(render.WrapLines(say("usage.global_flags"), max(cols-2, 20), 0), "\n"))
	fmt.Fprintln(w, "  --workdir DIR --fixtures DIR --mesh FILE --lang "+i18n.LangList("|"))
	sections, practice := lessonParts()
	fmt.Fprintln(w, strings.Join(render.WrapLines(say("usage.sections", "sections", i18n.ListOf(lang, sections), "practice", i18n.ListOf(lang, practice)), max(cols-2, 20), 0), "\n"))
}

// printBrief is what follows a usage error: the command's usage line and where its help is, not
// the whole help — the error is the line to read (zh r15: validate with no file printed pages).
func printBrief(w io.Writer, name string, lang i18n.Lang) {
	say := i18n.Sayer(lang)
	fmt.Fprintln(w, say("usage.line", "synopsis", "ist2-boot "+synopsis(name)))
	fmt.Fprintln(w, say("usage.more", "command", "ist2-boot "+name+" --help"))
}

// printHelp is a command's --help, for a terminal cols cells wide: its usage line, what more it
// says, and its flags, its own first, then the global ones, each with its value's placeholder and
// what it does.
func printHelp(w io.Writer, fs *flag.FlagSet, name string, lang i18n.Lang, cols int) {
	say := i18n.Sayer(lang)
	fmt.Fprintln(w, say("usage.line", "synopsis", "ist2-boot "+synopsis(name)))
	if c, ok := findCommand(name); ok && c.about {
		// Paragraphs in the catalog, set by the pages' line breaker at the terminal's width.
		for _, para := range strings.Split(say("usage."+name+".about", "coverage", validatorCoverage(lang)), "\n\n") {
			fmt.Fprintln(w, "\n"+strings.Join(render.WrapLines(para, max(cols-2, 20), 0), "\n"))
		}
	}
	var own, shared [][2]string
	globals := flag.NewFlagSet("", flag.ContinueOnError)
	(&global{}).register(globals)
	fs.VisitAll(func(f *flag.Flag) {
		line := [2]string{flagWithValue(f), flagDescription(name, f.Name, lang)}
		if globals.Lookup(f.Name) != nil {
			shared = append(shared, line)
		} else {
			own = append(own, line)
		}
	})
	fmt.Fprintln(w, "\n"+say("usage.flags"))
	width := 0
	for _, l := range append(own, shared...) {
		width = max(width, len(l[0]))
	}
	// Each description set by the pages' breaker beside its flag, hanging under the column: a
	// line ran past 80 and the terminal wrapped it back to column 0 (ko r8 KO-10, ja M2). Where
	// the column would be too narrow, the description goes under the flag.
	descW := cols - 2 - width - 2
	for _, l := range append(own, shared...) {
		if descW < 24 {
			fmt.Fprintf(w, "  %s\n", l[0])
			for _, d := range render.WrapLines(l[1], max(cols-6, 20), 0) {
				fmt.Fprintf(w, "      %s\n", d)
			}
			continue
		}
		for i, d := range render.WrapLines(l[1], descW, 0) {
			flagText := ""
			if i == 0 {
				flagText = l[0]
			}
			fmt.Fprintf(w, "  %-*s  %s\n", width, flagText, d)
		}
	}
}

// placeholders are the values of the flags whose value is a word of a kind (the others are
// named by their type: N, DURATION).
var placeholders = map[string]string{"workdir": "DIR", "fixtures": "DIR", "mesh": "FILE", "lang": i18n.LangList("|"),
	"format": "md|json", "o": "FILE", "from": "FILE"}

// flagWithValue is a flag as it is typed: --seed N, -o FILE, --json.
func flagWithValue(f *flag.Flag) string {
	s := "--" + f.Name
	if len(f.Name) == 1 {
		s = "-" + f.Name
	}
	if p, ok := placeholders[f.Name]; ok {
		return s + " " + p
	}
	switch kind, _ := flag.UnquoteUsage(f); kind {
	case "":
		return s // a switch
	case "int", "uint":
		return s + " N"
	case "duration":
		return s + " DURATION"
	default:
		return s + " " + strings.ToUpper(kind)
	}
}

// catalogKeys is the set of the catalog's keys, to tell a command's own description of a flag
// from the shared one.
var catalogKeys = sync.OnceValue(func() map[string]bool {
	keys, _ := i18n.CatalogKeys()
	set := map[string]bool{}
	for _, k := range keys {
		set[k] = true
	}
	return set
})

// flagDescription is what a flag does, in lang: the command's own words for it
// (usage.<command>.<flag>), else the shared ones (usage.flag.<flag>).
func flagDescription(command, name string, lang i18n.Lang) string {
	if command == "" {
		command = "tutorial"
	}
	key := "usage." + command + "." + name
	if !catalogKeys()[key] {
		key = "usage.flag." + name
	}
	return render.Unmarked(i18n.T(lang, key, nil)) // backticks mark code for the pages, not the terminal
}

// The flag package's errors, which it words in English: read back into what went wrong.
var (
	flagUndefined  = regexp.MustCompile(`^flag provided but not defined: -(.*)$`)
	flagNoValue    = regexp.MustCompile(`^flag needs an argument: -(.*)$`)
	flagBadValue   = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-([^:]*): `)
	flagBadBoolean = regexp.MustCompile(`^invalid boolean flag ([^:]*): `)
	flagBadSyntax  = regexp.MustCompile(`^bad flag syntax: (.*)$`)
)

// flagChoices is a flag whose value is one of a few words ("--lang ko|zh|ja"): its name and the
// words, said as words rather than as the usage's syntax (zh r23 L8); nil values otherwise.
func flagChoices(f *flag.Flag) (string, []string) {
	if p, ok := placeholders[f.Name]; ok && strings.Contains(p, "|") {
		return "--" + f.Name, strings.Split(p, "|")
	}
	return "", nil
}

// flagError says a flag error of command in lang.
func flagError(err error, fs *flag.FlagSet, command string, lang i18n.Lang) string {
	dashed := func(name string) string {
		if len(name) == 1 {
			return "-" + name
		}
		return "--" + name
	}
	help := strings.Join(strings.Fields("ist2-boot "+command+" --help"), " ")
	msg := err.Error()
	if m := flagUndefined.FindStringSubmatch(msg); m != nil {
		return i18n.M("cli.flag_unknown", "flag", dashed(m[1]), "help", help).In(lang)
	}
	if m := flagNoValue.FindStringSubmatch(msg); m != nil {
		if name, values := flagChoices(fs.Lookup(m[1])); values != nil {
			return i18n.M("cli.flag_needs_one_of", "flag", name, "values", i18n.ListOf(lang, values)).In(lang)
		}
		return i18n.M("cli.flag_needs_value", "flag", flagWithValue(fs.Lookup(m[1]))).In(lang)
	}
	if m := flagBadValue.FindStringSubmatch(msg); m != nil {
		return i18n.M("cli.flag_bad_value", "flag", flagWithValue(fs.Lookup(m[2])), "value", m[1]).In(lang)
	}
	if m := flagBadBoolean.FindStringSubmatch(msg); m != nil {
		return i18n.M("cli.flag_bad_value", "flag", dashed(m[1]), "value", strings.TrimLeft(m[1], "-")).In(lang)
	}
	if m := flagBadSyntax.FindStringSubmatch(msg); m != nil {
		return i18n.M("cli.flag_bad_syntax", "arg", m[1], "help", help).In(lang)
	}
	return i18n.M("cli.env_error", "error", msg).In(lang)
}

// parseFlags parses args into fs, saying a flag error and the help in the learner's language
// (the flag package's own output, in English, is discarded).
func (g *global) parseFlags(fs *flag.FlagSet, args []string, sio IO) error {
	if l := langInArgs(args); l != "" {
		g.lang = l
	}
	help := fs.Usage
	fs.Usage = func() {}
	defer func() { fs.Usage = help }()
	err := fs.Parse(args)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(sio.Err, "ist2-boot: "+flagError(err, fs, fs.Name(), g.helpLanguage(sio))+"\n")
	}
	if err != nil {
		help()
	}
	return err
}

// validatorCoverage is how much of Envoy's build step the offline validator models and what it
// cannot, in lang, from the inventory (steps/bootcheck/inventory): never a list written by hand.
func validatorCoverage(lang i18n.Lang) string {
	modelled, reachable, gaps, err := bootcheck.Coverage()
	if err != nil {
		return err.Error()
	}
	var named []string
	for _, g := range gaps {
		named = append(named, i18n.T(lang, "usage.validate.gap."+g.Category, map[string]string{"n": strconv.Itoa(g.Sites)}))
	}
	return i18n.T(lang, "usage.validate.coverage", map[string]string{
		"modelled": strconv.Itoa(modelled), "reachable": strconv.Itoa(reachable), "gaps": i18n.ListOf(lang, named)})
}

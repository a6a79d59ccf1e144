// Package cli is ist2-boot's command line: the headless commands (check, run, doctor, reset,
// show, validate, setup, report, drill, new-lab), the flags they share, and the tutorial's start-up
// (OpenTutorial: the terminal, the signals, the engine handed to package ui). main.go hands it the
// arguments.
package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"ist2-boot/content"
	"ist2-boot/steps"
	"ist2-boot/steps/i18n"
	"ist2-boot/steps/progress"
	"ist2-boot/ui/render"

	xansi "github.com/charmbracelet/x/ansi"
)

// Exit codes of the headless commands, as the README documents them.
const (
	exitOK      = 0
	exitNotPass = 1
	exitUsage   = 2
)

// IO is where a command reads and writes; tests give buffers.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
	Getenv   func(string) string
	// LabMarker overrides the lab pod's marker file (tests).
	LabMarker string
	// Render turns markdown into terminal text width cells wide (given by main, which owns the
	// presentation); nil prints the markdown as it is.
	Render func(md string, width int) (string, error)
	// declared is told each flag set as its --help is printed (completion reads the flags there).
	declared func(*flag.FlagSet)
}

// global is the flags every command takes, before or after its positional arguments.
type global struct {
	workdir, fixtures, mesh, lang string
}

func (g *global) register(fs *flag.FlagSet) {
	// What each does is said by --help from the catalog (usage.flag.*), in the learner's language.
	fs.StringVar(&g.workdir, "workdir", "", "usage.flag.workdir")
	fs.StringVar(&g.fixtures, "fixtures", "", "usage.flag.fixtures")
	fs.StringVar(&g.mesh, "mesh", "", "usage.flag.mesh")
	fs.StringVar(&g.lang, "lang", "", "usage.flag.lang")
}

// session is what a command works with once flags are read.
type session struct {
	io     IO
	lesson *steps.Lesson
	env    *steps.Env
	store  *progress.Store
	lang   i18n.Lang
	// progress shows setup's downloads and builds (setup only).
	progress *progressPrinter
}

// open loads the lesson, resolves the environment and picks the language: --lang, else the saved
// choice, else LC_ALL/LANG, else Korean.
func (g *global) open(sio IO) (*session, error) {
	l, env, err := steps.Open(sio.Getenv, g.overrides(sio))
	if err != nil {
		return nil, err
	}
	return g.openSession(sio, l, env)
}

func (g *global) overrides(sio IO) steps.Overrides {
	return steps.Overrides{WorkDir: g.workdir, Fixtures: g.fixtures, Mesh: g.mesh, LabMarker: sio.LabMarker}
}

func (g *global) openSession(sio IO, l *steps.Lesson, env *steps.Env) (*session, error) {
	store, err := progress.NewStore(env.ProgressDir())
	if err != nil {
		return nil, err
	}
	s := &session{io: sio, lesson: l, env: env, store: store}
	if _, err := i18n.ParseLang(g.lang); g.lang != "" && err != nil {
		return nil, err
	}
	// Read once whatever the command: a corrupt progress file put aside is said by every command.
	var saved i18n.Lang
	if p, perr := store.Load(); perr == nil {
		saved = p.Lang
	}
	s.lang = i18n.Choose(g.flagLang(), saved, i18n.Locale(sio.Getenv))
	s.warnStore()
	return s, nil
}

func (s *session) say(key string, kv ...string) string {
	return render.Unmarked(i18n.M(key, kv...).In(s.lang)) // printed as it is: a command's backticks go
}

// sayLine is a message set for the terminal: wrapped at its width by the pages' line breaker (a
// code span kept whole, its backticks dropped), each paragraph's continuation lines hanging
// under the text after marker ("==> ", "✗ "), as check and doctor set theirs (ja r17 M9).
func (s *session) sayLine(marker, key string, kv ...string) string {
	return s.wrapLine(marker, i18n.M(key, kv...).In(s.lang))
}

// wrapLine sets text as sayLine sets a message. A line indented in the text keeps its indent,
// and a choice's continuation ("  1) …", "  2. …") hangs under its words (ja r15: a question's
// choices).
func (s *session) wrapLine(marker, text string) string {
	width := max(columns(s.io.Getenv), 20)
	var out []string
	for i, para := range strings.Split(text, "\n") {
		lead := marker
		if i > 0 {
			lead = strings.Repeat(" ", xansi.StringWidth(marker))
		}
		body := strings.TrimLeft(para, " ")
		lead += para[:len(para)-len(body)]
		hang := 0
		if len(body) > 2 && body[0] >= '1' && body[0] <= '9' && (body[1] == ')' || body[1] == '.') {
			hang = 3
		}
		for n, l := range render.WrapLines(body, width-xansi.StringWidth(lead), hang) {
			if n > 0 {
				l = strings.Repeat(" ", xansi.StringWidth(lead)) + l
			} else {
				l = lead + l
			}
			out = append(out, l)
		}
	}
	return printable(strings.Join(out, "\n"))
}

// seedRefused: a --seed given negative is a usage error, said in the learner's language (its
// default, -1, stands for "draw one", which a learner's -5 must not silently become).
func (s *session) seedRefused(fs *flag.FlagSet, seed int64, sio IO) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "seed" })
	if given && seed < 0 {
		fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("cli.bad_seed"))
		return true
	}
	return false
}

// warnStore prints a store warning (a corrupt progress file moved aside) once.
func (s *session) warnStore() {
	// The notice file stays for the tutorial's next start: the learner may not read stderr.
	if s.store.Warning.Key != "" {
		fmt.Fprintln(s.io.Err, render.Unmarked(s.store.Warning.In(s.lang)))
		s.store.Warning = i18n.Msg{}
	}
}

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

// Main runs one headless command and returns the exit code.
func Main(args []string, sio IO) int {
	if sio.Getenv == nil {
		sio.Getenv = os.Getenv
	}
	// Go's own log lines (net/http's "Unsolicited response …" from a misbehaving server) are not
	// for the learner: every message of ours is said in words.
	log.SetOutput(io.Discard)
	lang := (&global{lang: langInArgs(args)}).helpLanguage(sio)
	if len(args) == 0 {
		usage(sio.Err, lang, columns(sio.Getenv))
		return exitUsage
	}
	cmds := commands()
	// The command may follow global flags: `--workdir X check` is `check --workdir X`.
	if i, ok := commandAt(args, cmds); ok && i > 0 {
		args = append(append([]string{args[i]}, args[:i]...), args[i+1:]...)
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		if askedForHelp(args) {
			usage(sio.Out, lang, columns(sio.Getenv))
			return exitOK
		}
		fmt.Fprintln(sio.Err, "ist2-boot: "+i18n.M("cli.unknown_command", "command", args[0]).In(lang)+"\n")
		usage(sio.Err, lang, columns(sio.Getenv))
		return exitUsage
	}
	return cmd(args[1:], sio)
}

// commands are the headless commands by name.
func commands() map[string]func([]string, IO) int {
	byName := map[string]func([]string, IO) int{}
	for _, c := range commandTable() {
		byName[c.name] = c.run
	}
	return byName
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
		if len(pos) > 0 {
			msg = i18n.M("cli.wrong_args", "args", strings.Join(pos, " "))
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

// printJSON writes v as indented JSON, with <, > and & as they are (paths, commands).
func printJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// fail prints an environment error (fixtures or lesson missing, a bad flag value) in the
// learner's language as far as it is known yet, and returns its exit code.
func (g *global) fail(sio IO, err error) int {
	msg := i18n.M("cli.env_error", "error", err.Error())
	if _, lerr := i18n.ParseLang(g.lang); g.lang != "" && lerr != nil {
		msg = i18n.M("cli.bad_lang", "lang", g.lang, "langs", i18n.ListOf(g.language(sio), strings.Split(i18n.LangList(" "), " ")))
	}
	var nodir *steps.NoDataDirError
	var nowork *steps.NoWorkDirError
	switch {
	case msg.Key == "cli.bad_lang":
	case errors.As(err, &nowork):
		msg = i18n.M("cli.no_workdir", "dir", nowork.Path)
	case errors.As(err, &nodir) && nodir.RelativeHome != "":
		msg = i18n.M("cli.home_relative", "var", nodir.Var, "value", nodir.RelativeHome)
	case errors.As(err, &nodir) && nodir.Relative != "":
		msg = i18n.M("cli.xdg_relative_no_home", "var", nodir.Var, "value", nodir.Relative)
	case errors.As(err, &nodir):
		msg = i18n.M("cli.no_home", "var", nodir.Var)
	}
	if msg.Key == "cli.bad_lang" && i18n.Locale(sio.Getenv) == "" {
		// The one thing not known is the learner's language: said in each (ja r7 L23).
		for _, lang := range i18n.Langs {
			langs := i18n.ListOf(lang, strings.Split(i18n.LangList(" "), " "))
			fmt.Fprintln(sio.Err, "ist2-boot: "+i18n.M("cli.bad_lang", "lang", g.lang, "langs", langs).In(lang))
		}
		return exitUsage
	}
	fmt.Fprintln(sio.Err, "ist2-boot: "+msg.In(g.language(sio)))
	return exitUsage
}

// language is the learner's language as far as it is known before a session opens: --lang, then
// the locale, else Korean.
func (g *global) language(sio IO) i18n.Lang {
	return i18n.Choose(g.flagLang(), "", i18n.Locale(sio.Getenv))
}

// flagLang is --lang's language, "" when it is not given or not one we have.
func (g *global) flagLang() i18n.Lang {
	l, _ := i18n.ParseLang(g.lang)
	return l
}

// checkSections refuses a section name the lesson does not have; "all", where the command says
// "every section" another way, gets that way named (allHint, a catalog key; "" where all is taken).
func (s *session) checkSections(ids []string, allowAll bool, allHint ...string) int {
	for _, id := range ids {
		if _, ok := s.lesson.Section(id); ok || (allowAll && id == "all") {
			continue
		}
		// The sections, then the practice page by its own name: it is not one of them (ko r9 M3).
		fmt.Fprintln(s.io.Err, "ist2-boot: "+s.say("cli.unknown_section", "section", id, "sections", i18n.ListOf(s.lang, s.lesson.SectionIDs()), "practice", i18n.ListOf(s.lang, s.lesson.PracticeIDs())))
		if id == "all" && len(allHint) > 0 { // run takes it; this command says it another way (zh r11 L26)
			fmt.Fprintln(s.io.Err, s.say(allHint[0]))
		}
		return exitUsage
	}
	return exitOK
}

// lessonSections are the lesson's section ids for the usage text, read from the embedded lesson
// (nothing else is open when usage is printed).
func lessonSections() []string {
	l, err := steps.LoadLesson(content.FS)
	if err != nil {
		return nil
	}
	return l.CheckedIDs() // the practice pages too: check, run, show and reset take them
}

// lessonParts are the lesson's sections and its practice pages, for the usage text.
func lessonParts() (sections, practice []string) {
	l, err := steps.LoadLesson(content.FS)
	if err != nil {
		return nil, nil
	}
	return l.SectionIDs(), l.PracticeIDs()
}

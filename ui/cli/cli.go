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

// Main runs one headless command and returns the exit code.
func Main(args []string, sio IO) int {
	if sio.Getenv == nil {
		sio.Getenv = os.Getenv
	}
	// Go's own log lines (net/http's "Unsolicited response …" from a misbehaving server) are not
	// for the learner: every message of ours is said in words.
	log.SetOutput(io.Discard)
	g := &global{lang: langInArgs(args)}
	lang := g.helpLanguage(sio)
	if _, err := i18n.ParseLang(g.lang); g.lang != "" && err != nil {
		return g.fail(sio, err) // help in a language not had is an error, not Korean help (ja r21)
	}
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

package cli

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"

	"ist2-boot/steps"
	"ist2-boot/ui/render"
)

type doctorJSON struct {
	Mode     string        `json:"mode"`
	WorkDir  string        `json:"workdir"`
	Fixtures string        `json:"fixtures"`
	Mesh     string        `json:"mesh"`
	ToolsDir string        `json:"tools_dir"`
	Files    []fixtureJSON `json:"files"`
	Tools    []toolJSON    `json:"tools"`
	Ignored  []string      `json:"ignored_env,omitempty"`
}

// fixtureJSON is one file the lab reads from the fixtures dir or the mesh config path.
type fixtureJSON struct {
	Var     string `json:"var"` // the variable the lab's commands read it from
	Path    string `json:"path"`
	OK      bool   `json:"ok"`
	Problem string `json:"problem,omitempty"`
}

type toolJSON struct {
	Name     string   `json:"name"`
	Found    bool     `json:"found"`
	Path     string   `json:"path"`
	Version  string   `json:"version"`
	NeededBy []string `json:"needed_by"`
	Rejected string   `json:"rejected,omitempty"`
	Get      string   `json:"get,omitempty"`
	Origin   string   `json:"origin,omitempty"` // release, wrapper, build, homebrew or path
	Pinned   string   `json:"pinned,omitempty"` // the lab's version, where this one differs
	get      string   // Get with its commands marked, for the text report's line breaker
}

func cmdDoctor(args []string, sio IO) int {
	var g global
	fs := newFlags("doctor", sio, &g)
	asJSON := fs.Bool("json", false, "usage.doctor.json")
	if _, code, ok := g.parse(fs, args, sio, exactly(0)); !ok {
		return code
	}
	// Doctor diagnoses what it finds, even where the work dir, the fixtures or the state dir
	// cannot be made (a read-only disk): those are its first findings (hostile L11).
	l, env, prepared, err := steps.OpenToLook(sio.Getenv, g.overrides(sio))
	if err != nil {
		return g.fail(sio, err)
	}
	s, serr := g.openSession(sio, l, env)
	if serr != nil {
		s = &session{io: sio, lesson: l, env: env, lang: g.language(sio)}
	}
	for _, problem := range []error{prepared, serr} {
		if problem != nil {
			fmt.Fprintln(sio.Err, "ist2-boot: "+s.say("cli.env_error", "error", problem.Error()))
		}
	}
	tools := steps.FindTools(s.env, s.lesson.Tools)
	report := doctorJSON{Mode: string(s.env.Mode), WorkDir: s.env.WorkDir, Fixtures: s.env.Fixtures, Mesh: s.env.Mesh, ToolsDir: s.env.ToolsDir, Ignored: s.env.IgnoredVars}
	parts := steps.ResolveFixtures(s.env)
	for _, f := range parts {
		report.Files = append(report.Files, fixtureJSON{Var: f.Role.Var, Path: f.Path, OK: f.Problem.Key == "", Problem: f.Problem.In(s.lang)})
	}
	for _, t := range tools {
		tj := toolJSON{Name: t.Name, Found: t.Found, Path: t.Path, Version: t.VersionIn(s.lang), NeededBy: s.lesson.NeededBy(t.Name), Rejected: t.Rejected, Origin: string(t.Origin), Pinned: t.Pinned}
		if tj.NeededBy == nil {
			tj.NeededBy = []string{}
		}
		if spec, ok := s.lesson.Tool(t.Name); ok && !t.Found {
			tj.get = spec.HowToGet().In(s.lang)
			tj.Get = render.Unmarked(tj.get)
		}
		report.Tools = append(report.Tools, tj)
	}
	if *asJSON {
		printJSON(sio.Out, report)
		if prepared != nil || serr != nil {
			return exitUsage
		}
		return exitOK
	}
	w := sio.Out
	// Every line set to the terminal's width by the line breaker, a tool's later lines under its
	// facts: the terminal re-wrapped them against the rules (ja r25 M1: 「Envo⏎y」).
	fmt.Fprintln(w, s.sayLine("", "doctor.label", "label", s.say("doctor.mode"), "value", s.say("mode."+report.Mode)))
	for _, p := range [][2]string{{"doctor.workdir", report.WorkDir}, {"doctor.fixtures", report.Fixtures}, {"doctor.mesh", report.Mesh}, {"doctor.tools_dir", report.ToolsDir}} {
		fmt.Fprintln(w, s.sayLine("", "doctor.label", "label", s.say(p[0]), "value", p[1]))
	}
	for _, v := range report.Ignored {
		fmt.Fprintln(w, s.sayLine("", "doctor.ignored_env", "var", v, "value", sio.Getenv(v)))
	}
	fmt.Fprintln(w)
	for i, f := range report.Files {
		if f.OK {
			fmt.Fprintln(w, s.sayLine("✓ ", "doctor.role", "part", s.say(parts[i].Role.Name), "file", f.Path))
		} else {
			fmt.Fprintln(w, s.wrapLine("✗ ", f.Problem))
		}
	}
	fmt.Fprintln(w)
	for _, t := range report.Tools {
		needed := s.say("doctor.needed_by", "sections", s.lesson.NeededByWords(t.Name, s.lang))
		if t.Found {
			// A version line can be long (curl lists its libraries): keep the start, in cells.
			fmt.Fprintln(w, s.wrapLine(fmt.Sprintf("✓ %-9s ", t.Name), ansi.Truncate(t.Version, 60, "…")+" · "+s.say("doctor.path", "path", t.Path)+" · "+needed))
			if t.Origin == string(steps.FromRelease) || t.Origin == string(steps.FromWrapper) || t.Origin == string(steps.FromHomebrew) {
				fmt.Fprintln(w, s.sayLine("    ", "doctor.origin."+t.Origin))
			}
			if t.Pinned != "" {
				fmt.Fprintln(w, s.sayLine("    ", "doctor.version_differs", "pinned", t.Pinned))
			}
			continue
		}
		fmt.Fprintln(w, s.wrapLine(fmt.Sprintf("✗ %-9s ", t.Name), s.say("doctor.missing")+" · "+needed))
		if t.Rejected != "" {
			fmt.Fprintln(w, s.sayLine("    ", "doctor.rejected", "path", t.Rejected))
		}
		for _, l := range render.WrapLines(t.get, max(columns(sio.Getenv)-4, 20), 0) {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	if prepared != nil || serr != nil {
		return exitUsage
	}
	return exitOK
}

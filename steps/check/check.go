package check

import (
	"maps"
	"slices"

	"ist2-boot/steps"
	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/i18n"

	"errors"
	"fmt"

	"gopkg.in/yaml.v3"
)

// judge decides one produced file from its text. It may ask the checker for other files.
type judge func(c *checker, file, text string) FileResult

// judges are the kinds of check a lesson file can name (`check:` in lesson.yaml): what the file
// must hold, derived from the fixtures and the learner's earlier files. Filled in init, because the
// judges call back into the checker, which looks judges up here.
var judges map[string]judge

func init() {
	judges = map[string]judge{
		"injected-manifest":   judgeInject,
		"proxy-args":          judgeArgs,
		"proxy-env":           judgeEnv,
		"mesh-defaults":       judgeMesh,
		"bootstrap":           judgeBootstrap,
		"envoy-accepts":       judgeValidate,
		"bootstrap-with-typo": judgeTypoBootstrap,
		"envoy-rejects-typo":  judgeTypoOutput,
		"envoy-node":          judgeNode,
		"envoy-readiness":     judgeReady,
		"identity-volumes":    judgeIdentity,
		"report":              judgeReport,
		"practice-bootstrap":  judgePracticeBootstrap,
		"practice-live":       judgePracticeLive,
		"practice-rejected":   judgePracticeRejected,
	}
}

// Kinds lists the kinds of check there are (for the lesson's tests).
func Kinds() []string { return slices.Sorted(maps.Keys(judges)) }

// fixtureFacts is what the checks read from the fixtures: the injection target and the mesh config.
type fixtureFacts struct {
	Target    deployment
	Discovery string
	RootNS    string
	TrustDom  string
}

// checker judges files once each, so a file other files depend on (inject.yaml) is read once.
type checker struct {
	lesson      *steps.Lesson
	env         *steps.Env
	tools       *toolCache
	fixtures    fixtureFacts
	results     map[string]FileResult
	texts       map[string]string           // learner files read so far, by name
	offline     map[string]bootcheck.Result // bootstraps validated so far, by text
	trees       map[string]parsedTree       // their fields, by text
	workEntries []string                    // the work dir's regular files, read once a file is missing
	injected    *deployment                 // the learner's inject.yaml, parsed once it passed
}

// Check judges the produced files of the given sections (all when ids is empty). The error is for
// the environment (fixtures missing or malformed), not for the learner's files.
func Check(l *steps.Lesson, env *steps.Env, ids []string) ([]SectionResult, error) {
	// Envoy's API types are set up on first use (some milliseconds): on the other core, while
	// the fixtures and the learner's files are read.
	go bootcheck.Prepare()
	fx, err := loadFixtureFacts(env)
	if err != nil {
		return nil, err
	}
	c := &checker{
		lesson: l, env: env, fixtures: fx,
		tools:   &toolCache{env: env, specs: l.Tools},
		results: map[string]FileResult{},
		texts:   map[string]string{},
		offline: map[string]bootcheck.Result{},
		trees:   map[string]parsedTree{},
	}
	if len(ids) == 0 {
		ids = l.SectionIDs()
	}
	var out []SectionResult
	for _, id := range ids {
		s, ok := l.Section(id)
		if !ok {
			return nil, fmt.Errorf("unknown section %q", id)
		}
		sr := SectionResult{ID: id}
		for _, f := range s.Files {
			sr.Files = append(sr.Files, c.file(f.Name))
		}
		sr.Status = sectionStatus(sr.Files)
		out = append(out, sr)
	}
	return out, nil
}

// file judges one produced file (memoized).
func (c *checker) file(name string) FileResult {
	if r, ok := c.results[name]; ok {
		return r
	}
	r := c.judgeFile(name)
	c.results[name] = r
	return r
}

func (c *checker) judgeFile(name string) FileResult {
	_, spec := c.lesson.ProducerOf(name)
	var j judge
	if spec != nil {
		j = judges[spec.Check]
	}
	if j == nil { // no file of the lesson, or a kind no judge is registered for
		return failWith(name, i18n.M("reason.no_rule", "file", name))
	}
	text, err := readLearnerFile(c.env.WorkDir, name)
	var problem *fileProblem
	switch {
	case errors.Is(err, errAbsent):
		return c.absent(name)
	case errors.As(err, &problem):
		return failWith(name, problem.msg)
	case err != nil:
		return failWith(name, i18n.M("reason.unreadable", append([]string{"file", name}, i18n.ErrorArgs("error", err)...)...))
	}
	c.texts[name] = text
	r := j(c, name, text)
	r.File = name
	return r
}

// absent: missing with a pointer when the file stands under a near name; needs-tool when a tool
// that makes the file is missing; else missing.
func (c *checker) absent(name string) FileResult {
	if near := c.nearMiss(name); near != "" { // written under another name: that, before any tool
		return FileResult{File: name, Status: Missing, Reason: i18n.M("reason.missing_near", "file", name, "near", near)}
	}
	_, spec := c.lesson.ProducerOf(name)
	if spec != nil {
		if tool := c.tools.missing(spec.Needs); tool != "" {
			return c.needsTool(name, tool)
		}
	}
	return FileResult{File: name, Status: Missing, Reason: i18n.M("reason.missing", "file", name)}
}

func (c *checker) needsTool(file, tool string) FileResult {
	r := FileResult{File: file, Status: NeedsTool, Tool: tool, Reason: i18n.M("reason.needs_tool", "file", file, "tool", tool)}
	if spec, ok := c.lesson.Tool(tool); ok {
		r.HowToGet = spec.HowToGet()
	}
	return r
}

// passed returns the text of a file another rule depends on, when that file passes; else the
// reason to give instead.
func (c *checker) passed(dep, file string) (string, *i18n.Msg) {
	if r := c.file(dep); r.Status != Pass {
		key := "reason.depends"
		if r.Status == Missing { // nothing to fix yet: the file is to be made (ja r25 L12)
			key = "reason.depends_missing"
		}
		m := i18n.M(key, "file", file, "dep", dep, "status", i18n.Ref(r.Status.Key()))
		return "", &m
	}
	return c.texts[dep], nil
}

// present returns the text of a file another rule compares with, when it can be read at all.
func (c *checker) present(dep, file string) (string, *i18n.Msg) {
	if r := c.file(dep); r.Status == Missing || r.Status == NeedsTool || c.texts[dep] == "" {
		m := i18n.M("reason.depends_present", "file", file, "dep", dep)
		return "", &m
	}
	return c.texts[dep], nil
}

// learnerInject is the Deployment of the learner's inject.yaml, once it passes.
func (c *checker) learnerInject(file string) (*deployment, *container, *i18n.Msg) {
	text, why := c.passed("inject.yaml", file)
	if why != nil {
		return nil, nil, why
	}
	// It passed, so its Deployment is there; a failure here would still be said, not hidden.
	// Parsed once: four sections read it.
	if c.injected == nil {
		d, why := injectedDeployment(text, c.fixtures.Target.Metadata.Name)
		if why != nil {
			return nil, nil, why
		}
		c.injected = d
	}
	return c.injected, c.injected.Spec.Template.Spec.container(proxyContainer), nil
}

func loadFixtureFacts(env *steps.Env) (fixtureFacts, error) {
	var fx fixtureFacts
	parts := steps.ResolveFixtures(env)
	target, meshPath := steps.FixturePath(parts, "INJECT_TARGET"), steps.FixturePath(parts, "MESH_CONFIG")
	raw, err := steps.ReadRegularFile(target, steps.MaxFixture)
	if err != nil {
		return fx, fmt.Errorf("fixture %s: %w", target, err)
	}
	ds, err := deploymentsIn(string(raw))
	if err != nil || len(ds) != 1 {
		return fx, fmt.Errorf("fixture %s: want exactly one Deployment (%v)", target, err)
	}
	fx.Target = ds[0]
	raw, err = steps.ReadRegularFile(meshPath, steps.MaxFixture)
	if err != nil {
		return fx, fmt.Errorf("mesh config %s: %w", meshPath, err)
	}
	var mesh struct {
		DefaultConfig struct {
			DiscoveryAddress string `yaml:"discoveryAddress"`
		} `yaml:"defaultConfig"`
		RootNamespace string `yaml:"rootNamespace"`
		TrustDomain   string `yaml:"trustDomain"`
	}
	if err := yaml.Unmarshal(raw, &mesh); err != nil {
		return fx, fmt.Errorf("mesh config %s: %w", meshPath, err)
	}
	fx.Discovery, fx.RootNS, fx.TrustDom = mesh.DefaultConfig.DiscoveryAddress, mesh.RootNamespace, mesh.TrustDomain
	if fx.Discovery == "" || fx.RootNS == "" || fx.TrustDom == "" {
		return fx, fmt.Errorf("mesh config %s: needs defaultConfig.discoveryAddress, rootNamespace and trustDomain", meshPath)
	}
	return fx, nil
}

package check

import (
	"context"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"ist2-boot/steps"
	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/i18n"
)

// envoyValidateTimeout bounds `envoy --mode validate` during a check.
const envoyValidateTimeout = 20 * time.Second

// verdict is what Envoy makes of a bootstrap: OK, or the message it refuses it with.
type verdict struct {
	ok      bool
	message string
	// worded: the offline refusal as a reason carries it — the validator's own words (a hint, a
	// syntax error) put in the learner's language when shown (bootcheck.Problem.Worded).
	worded []string
	// line and col: where the offline refusal is (0 when Envoy's own verdict, which says no
	// line); here is its message without them, for a reason that words the place (ko r17 L12:
	// a bare "5:19:" in a sentence reads as a time of day).
	line, col int
	here      []string
}

// reason is the check's reason for a refused bootstrap file: the place in words where known.
func (v verdict) reason(file string) i18n.Msg {
	if v.line > 0 {
		return i18n.M("reason.envoy_rejects_at", append([]string{"file", file, "line", strconv.Itoa(v.line), "col", strconv.Itoa(v.col)}, v.here...)...)
	}
	return i18n.M("reason.envoy_rejects", append([]string{"file", file}, v.messageArgs()...)...)
}

// messageArgs are the "message" argument of a reason quoting the refusal, and what it needs.
func (v verdict) messageArgs() []string {
	if v.worded != nil {
		return v.worded
	}
	return []string{"message", v.message}
}

// bootstrapVerdict judges a bootstrap file offline (bootcheck) and, where envoy is installed,
// with `envoy --mode validate` too; when the two disagree Envoy's verdict wins and note says so.
func (c *checker) bootstrapVerdict(file, text string) (verdict, i18n.Msg) {
	r := c.validate(text)
	offline := verdict{ok: r.OK()}
	if !r.OK() {
		offline.message = r.Problems[0].String()
		p := r.Problems[0]
		if msg, args := p.Worded(); args != nil {
			offline.worded = append([]string{"message", msg}, args...)
		}
		if p.Line > 0 {
			path := ""
			if p.Path != "" {
				path = p.Path + ": "
			}
			offline.line, offline.col = p.Line, p.Col
			if msg, args := p.WordedHere(); args != nil {
				offline.here = append([]string{"message", msg}, append(args, "place", path)...) // the later "place" wins
			} else {
				offline.here = []string{"message", path + msg}
			}
		}
	}
	warning := i18n.Msg{}
	if r.OK() && len(r.Warnings) > 0 {
		w := r.Warnings[0]
		key := "reason.envoy_warns"
		if w.Ours() { // the validator's own advice: Envoy says nothing
			key = "reason.validator_advises"
		}
		msg, args := w.Worded()
		warning = i18n.M(key, append([]string{"message", msg}, args...)...)
	}
	if !c.tools.has("envoy") {
		return offline, warning
	}
	real, err := runEnvoyValidate(c.env, c.tools.path("envoy"), file)
	if err != nil {
		return offline, i18n.M("reason.envoy_unusable", "error", err.Error())
	}
	if real.ok == offline.ok && (real.ok || strings.Contains(offline.message, real.message)) {
		return real, warning
	}
	show := func(v verdict) string {
		if v.ok {
			return "OK"
		}
		return v.message
	}
	return real, i18n.M("reason.verdicts_differ", "offline", show(offline), "envoy", show(real))
}

// validate is the offline verdict on a bootstrap's text, computed once per check.
func (c *checker) validate(text string) bootcheck.Result {
	r, ok := c.offline[text]
	if !ok {
		r = bootcheck.Validate([]byte(text))
		c.offline[text] = r
	}
	return r
}

// bootstrapFields is a bootstrap's fields as Envoy reads them (bootcheck's canonical form: a lone
// value made a list, enums upper-cased, durations as text), or as written when Envoy's parser
// cannot read it at all.
// Trees are kept by text, as verdicts are (several judges read bootstrap.yaml's); callers copy
// before they edit one.
func (c *checker) bootstrapFields(text string) (map[string]any, error) {
	if t, ok := c.trees[text]; ok {
		return t.tree, t.err
	}
	var t parsedTree
	if canonical := c.validate(text).Canonical(); canonical != nil {
		t.tree, t.err = parseJSONTree(canonical)
	} else {
		t.tree, t.err = parseTree(text)
	}
	c.trees[text] = t
	return t.tree, t.err
}

// parsedTree is a bootstrap's fields, or why they could not be read.
type parsedTree struct {
	tree map[string]any
	err  error
}

var envoyRefusal = regexp.MustCompile(`error initializing configuration '[^']*': (.+)$`)

// maxEnvoyOutput bounds what Envoy's check keeps of its output: the refusal is its last line.
const maxEnvoyOutput = 1 << 20

// runEnvoyValidate runs the installed Envoy on a file of the work dir.
func runEnvoyValidate(env *steps.Env, envoy, file string) (verdict, error) {
	ctx, cancel := context.WithTimeout(context.Background(), envoyValidateTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, envoy, "--mode", "validate", "-c", env.Path(file), "--log-level", "critical")
	cmd.Dir = env.WorkDir
	out, _, err := steps.Output(cmd, maxEnvoyOutput) // its group, killed at the timeout; bounded
	if ctx.Err() != nil {
		return verdict{}, ctx.Err()
	}
	if err == nil {
		return verdict{ok: true}, nil
	}
	if _, exited := err.(*exec.ExitError); !exited {
		return verdict{}, err
	}
	for _, line := range strings.Split(string(out), "\n") {
		if m := envoyRefusal.FindStringSubmatch(line); m != nil {
			return verdict{message: strings.TrimSpace(m[1])}, nil
		}
	}
	return verdict{message: strings.TrimSpace(lastLine(string(out)))}, nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

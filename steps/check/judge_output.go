package check

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/i18n"
)

// Envoy's own words (source/exe/main_common.cc and source/server/server.cc): the success line of
// --mode validate, and the start of its one critical line on failure.
var (
	validateOK    = regexp.MustCompile(`^configuration '(.+)' OK$`)
	validateError = regexp.MustCompile(`error initializing configuration '(.+)': (.+)$`)
	rcLine        = regexp.MustCompile(`^rc=(-?\d+)$`)
)

// lastRC is the exit code on the file's last line ("rc=N").
func lastRC(lines []string) (int, string, bool) {
	last := lines[len(lines)-1]
	m := rcLine.FindStringSubmatch(last)
	if m == nil {
		return 0, last, false
	}
	n, err := strconv.Atoi(m[1])
	return n, last, err == nil
}

// validateFacts: a line of Envoy's validate output that re matches and lineOK accepts, and the
// exit code on the last line, which rcOK accepts.
func validateFacts(text string, re *regexp.Regexp, wantLine string, lineOK func(m []string) bool, rcWant string, rcOK func(int) bool) []fact {
	lines := textLines(text)
	line := fact{Field: "envoy says", Label: "field.envoy_line", Want: wantLine}
	line.OK = func(got string) bool {
		m := re.FindStringSubmatch(got)
		return m != nil && lineOK(m)
	}
	for _, l := range lines {
		if loc := re.FindStringIndex(l); loc != nil {
			line.Got, line.Has = l[loc[0]:], true
			if line.OK(line.Got) {
				break
			}
		}
	}
	n, last, ok := lastRC(lines)
	rc := fact{Field: "last line", Label: "field.last_line", Want: "rc=" + rcWant, Got: last, Has: true}
	rc.OK = func(string) bool { return ok && rcOK(n) }
	return []fact{line, rc}
}

// judgeValidate: Envoy's success line for bootstrap.yaml, and rc=0 last.
func judgeValidate(c *checker, file, text string) FileResult {
	want := "configuration '" + c.env.Path("bootstrap.yaml") + "' OK"
	names := func(m []string) bool { return filepath.Base(m[1]) == "bootstrap.yaml" }
	return judgeFacts(file, validateFacts(text, validateOK, want, names, "0", func(n int) bool { return n == 0 }))
}

// judgeTypoOutput: Envoy's rejection of boot-typo.yaml naming the typo cluster, and a non-zero rc.
func judgeTypoOutput(c *checker, file, text string) FileResult {
	reason := "Unknown gRPC client cluster '" + c.lesson.Params["typo_cluster"] + "'"
	want := "error initializing configuration '" + c.env.Path("boot-typo.yaml") + "': " + reason
	rejects := func(m []string) bool { return filepath.Base(m[1]) == "boot-typo.yaml" && m[2] == reason }
	return judgeFacts(file, validateFacts(text, validateError, want, rejects, "1", func(n int) bool { return n != 0 }))
}

// judgeReady: /ready's code and body and the connected_state gauge of an Envoy without istiod.
func judgeReady(c *checker, file, text string) FileResult {
	p := c.lesson.Params
	return judgeKV(file, text, []kv{
		{Key: "ready_code", Want: p["ready_code"]},
		{Key: "ready_body", Want: p["ready_body"]},
		{Key: "connected_state", Want: p["connected_state"]},
	})
}

// reportKeys are the four key lines of 08-report.md; minBullets the explanation lines under them.
// minNoteLetters is how many letters or digits a note needs to count: a short sentence in any of
// the three languages, not a placeholder.
const minNoteLetters = 6

func wordy(note string) bool {
	n := 0
	for _, r := range note {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n >= minNoteLetters
}

var reportKeys = []string{"xds_address", "xds_cluster", "typo_rc", "ready_without_istiod"}

const minBullets = 4

// judgeReport: the four key lines agree with 03 (discovery address), the static cluster name, 05's
// rc and 06's ready_body; then at least four "- " lines.
func judgeReport(c *checker, file, text string) FileResult {
	p := c.lesson.Params
	// What only Envoy produces, where Envoy is missing (needs-tool), is taken from Envoy's
	// documented answers — the lesson's params — and the verdict says so.
	typoDocumented, readyDocumented := false, false
	typoRC, why := p["typo_rc"], (*i18n.Msg)(nil)
	if c.file("05-typo.txt").Status == NeedsTool {
		typoDocumented = true
	} else {
		var typoText string
		if typoText, why = c.present("05-typo.txt", file); why != nil {
			return failWith(file, *why)
		}
		rc, _, _ := lastRC(textLines(typoText))
		typoRC = strconv.Itoa(rc)
	}
	body := p["ready_body"]
	if c.file("06-ready.txt").Status == NeedsTool {
		readyDocumented = true
	} else {
		readyText, why := c.present("06-ready.txt", file)
		if why != nil {
			return failWith(file, *why)
		}
		body = ""
		for _, l := range parseKV(readyText) {
			if l.Key == "ready_body" {
				body = l.Value
			}
		}
	}
	want := map[string]string{
		"xds_address":          c.fixtures.Discovery,
		"xds_cluster":          p["xds_cluster"],
		"typo_rc":              typoRC,
		"ready_without_istiod": body,
	}
	// The key lines are judged as a key=value file; the markdown around them is free.
	var keyLines []kvLine
	bullets, seen := 0, map[string]bool{}
	for _, l := range parseKV(text) {
		// A note is a note in words: a few letters at least, and not the same as another ("- a"
		// four times is no report: newcomer L20). What it says is the learner's, not judged.
		if note, ok := strings.CutPrefix(l.Text, "- "); ok && wordy(note) && !seen[strings.TrimSpace(note)] {
			seen[strings.TrimSpace(note)] = true
			bullets++
		}
		if isReportKey(l) {
			keyLines = append(keyLines, l)
		}
	}
	var wants []kv
	for _, k := range reportKeys {
		wants = append(wants, kv{Key: k, Want: want[k]})
	}
	r := judgeKVLines(file, keyLines, wants)
	if r.Status == Pass && bullets < minBullets {
		r.Status = Fail
		r.Reason = i18n.M("reason.few_bullets", "file", file, "want", strconv.Itoa(minBullets), "got", strconv.Itoa(bullets))
		r.Produced = joinLines(textLines(text))
		r.Expected = r.Produced + strings.Repeat("- …\n", minBullets-bullets)
		r = r.withDiff()
	}
	// The note names only the answers taken from Envoy's documentation (newcomer L3).
	switch {
	case typoDocumented && readyDocumented:
		r.Note = i18n.M("note.documented_without_envoy", "file", file, "rc", p["typo_rc"], "body", p["ready_body"])
	case typoDocumented:
		r.Note = i18n.M("note.documented_typo_without_envoy", "file", file, "rc", p["typo_rc"])
	case readyDocumented:
		r.Note = i18n.M("note.documented_ready_without_envoy", "file", file, "body", p["ready_body"])
	}
	return r
}

// isReportKey: a key line of the report, or one whose key is a misspelling of one, so the check
// says which key was meant, as it does in every key=value file (ko r22 L16). A bullet's text has
// spaces in what precedes "=" and is never taken for a key.
func isReportKey(l kvLine) bool {
	if !l.IsKV || strings.ContainsAny(l.Key, " \t") {
		return false
	}
	for _, rk := range reportKeys {
		if l.Key == rk {
			return true
		}
	}
	return bootcheck.Closest(l.Key, reportKeys) != ""
}

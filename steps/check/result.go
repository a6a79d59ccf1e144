package check

import (
	"strings"

	"ist2-boot/steps/i18n"

	"github.com/aymanbagabas/go-udiff"
)

// Status is the verdict on a produced file or a section.
type Status string

// The four verdicts. NeedsTool is only for an absent file whose making needs a missing tool.
const (
	Pass      Status = "pass"
	Fail      Status = "fail"
	Missing   Status = "missing"
	NeedsTool Status = "needs-tool"
)

// Word is the verdict in words, in lang.
func (s Status) Word(lang i18n.Lang) string { return i18n.T(lang, s.Key(), nil) }

// Key is the catalog key of a file's state word.
func (s Status) Key() string { return "status." + string(s) }

// StepKey is the catalog key of a step's state word: a step with a file still missing is not
// started, not "not created" (ja r12 M3); the other states read the same for steps and files.
func (s Status) StepKey() string {
	if s == Missing {
		return "status.step.missing"
	}
	return s.Key()
}

// StepKey is the catalog key of the section's state word: a section with one file passed and
// another still missing is partly done, not "not started" (ja r18 M4, zh r18 L6).
func (r SectionResult) StepKey() string {
	if r.Partly() {
		return PartlyKey
	}
	return r.Status.StepKey()
}

// PartlyKey is the catalog key of the state word of a section partly done.
const PartlyKey = "status.step.partly"

// Partly says whether some of the section's files pass while another is still missing.
func (r SectionResult) Partly() bool {
	if r.Status != Missing {
		return false
	}
	for _, f := range r.Files {
		if f.Status == Pass {
			return true
		}
	}
	return false
}

// FileResult is the verdict on one produced file.
type FileResult struct {
	File     string
	Status   Status
	Reason   i18n.Msg
	Expected string   // what the file should say (for structured files, the judged fields)
	Produced string   // what it says, in the same shape
	Diff     string   // unified diff from Produced to Expected
	Note     i18n.Msg // something to know besides the verdict (Envoy and the offline check disagree)
	// Tool and HowToGet: for NeedsTool, the missing tool and how to get it, said once per check by
	// the front ends rather than under every file that waits for it (ja M11, ko KO-43).
	Tool     string
	HowToGet i18n.Msg
	// Labels name in words the diff's fields that are not a path of the file (Field → catalog
	// key): "envoy says: …" is ours, not the file's, and reads in the learner's language (ja r14 H1).
	Labels map[string]string
}

// SectionResult is the verdict on a section: its files, and the worst of them.
type SectionResult struct {
	ID     string
	Status Status
	Files  []FileResult
}

// sectionStatus: any fail fails the section; else a missing file; else a missing tool; else pass.
func sectionStatus(files []FileResult) Status {
	worst := Pass
	rank := map[Status]int{Pass: 0, NeedsTool: 1, Missing: 2, Fail: 3}
	for _, f := range files {
		if rank[f.Status] > rank[worst] {
			worst = f.Status
		}
	}
	return worst
}

// fact is one judged field of a structured file: where, what it should be, what it is.
type fact struct {
	Field  string
	Want   string
	Got    string
	Has    bool                  // the learner's file has the field at all
	OK     func(got string) bool // overrides Got == Want (e.g. 0s and 0.000s)
	Label  string                // catalog key naming the field in reasons, where Field is not a path
	Absent *i18n.Msg             // the reason when the field is absent, where the generic one reads badly
}

func (f fact) pass() bool {
	if !f.Has {
		return false
	}
	if f.OK != nil {
		return f.OK(f.Got)
	}
	return f.Got == f.Want
}

// judgeFacts passes when every fact holds; else the first failing one is the reason.
func judgeFacts(file string, facts []fact) FileResult {
	var want, got strings.Builder
	r := FileResult{File: file, Status: Pass}
	for _, f := range facts {
		if f.Label != "" {
			if r.Labels == nil {
				r.Labels = map[string]string{}
			}
			r.Labels[f.Field] = f.Label
		}
		want.WriteString(f.Field + ": " + f.Want + "\n")
		if f.Has {
			got.WriteString(f.Field + ": " + f.Got + "\n")
		} else {
			got.WriteString(f.Field + ": " + absentMark + "\n")
		}
		if r.Status == Pass && !f.pass() {
			r.Status = Fail
			// A field named in words is quoted as words, not spaced as code (ja r14 M2).
			name, named := f.Field, ""
			if f.Label != "" {
				name, named = i18n.Ref(f.Label), "_named"
			}
			switch {
			case f.Has:
				r.Reason = i18n.M("reason.field_wrong"+named, "file", file, "field", name, "want", shown(f.Want), "got", shown(f.Got))
			case f.Absent != nil:
				r.Reason = f.Absent.With("file", file) // a fact made before the file was known
			default:
				r.Reason = i18n.M("reason.field_missing"+named, "file", file, "field", name, "want", shown(f.Want))
			}
		}
	}
	r.Expected, r.Produced = want.String(), got.String()
	return r.withDiff()
}

// absentMark stands for a field the learner's file does not have.
const absentMark = "(absent)"

func (r FileResult) withDiff() FileResult {
	if r.Status != Pass && r.Expected != r.Produced {
		r.Diff = udiff.Unified(r.File+diffYours, r.File+diffExpected, r.Produced, r.Expected)
	}
	return r
}

// diffYours and diffExpected label the two sides in a diff's header; DiffIn words them.
const (
	diffYours    = " (yours)"
	diffExpected = " (expected)"
)

// DiffIn is the diff with its header labels in lang ("--- f (yours)" → "--- f (내 파일)").
func (r FileResult) DiffIn(lang i18n.Lang) string {
	if r.Diff == "" {
		return ""
	}
	paren := func(key string) string { return i18n.M("diff.side", "side", i18n.Ref(key)).In(lang) }
	diff := strings.Replace(strings.Replace(r.Diff,
		"--- "+r.File+diffYours, "--- "+r.File+paren("diff.yours"), 1),
		"+++ "+r.File+diffExpected, "+++ "+r.File+paren("diff.expected"), 1)
	// A field the file lacks is said in words, on the diff's own lines too.
	diff = strings.ReplaceAll(diff, ": "+absentMark+"\n", ": "+i18n.T(lang, "diff.absent", nil)+"\n")
	if len(r.Labels) == 0 {
		return diff
	}
	lines := strings.SplitAfter(diff, "\n")
	for i, l := range lines {
		if len(l) == 0 || !strings.ContainsRune("-+ ", rune(l[0])) || strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ ") {
			continue
		}
		for field, key := range r.Labels {
			if rest, ok := strings.CutPrefix(l[1:], field+": "); ok {
				lines[i] = l[:1] + i18n.T(lang, "diff.field", map[string]string{"field": i18n.T(lang, key, nil)}) + rest
				break
			}
		}
	}
	return strings.Join(lines, "")
}

// shown is a fact's value as a reason says it: absentMark in the learner's words.
func shown(v string) string {
	if v == absentMark {
		return i18n.Ref("diff.absent")
	}
	return v
}

func failWith(file string, reason i18n.Msg) FileResult {
	return FileResult{File: file, Status: Fail, Reason: reason}
}

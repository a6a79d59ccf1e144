package steps_test

import (
	"regexp"
	"testing"

	"ist2-boot/steps"
	"ist2-boot/steps/steptest"
)

// Every file a step's commands make is written as FILE.tmp and moved into place whole: a run
// stopped by q, a signal or its time limit removes the .tmp and leaves the file the last run made
// (zh r16 M2: q during step 2 left 02-env.txt empty, failing a step that had passed).
func TestStepsWriteTheirFilesWhole(t *testing.T) {
	l := steptest.Lesson(t)
	sections := append([]steps.Section{}, l.Sections...)
	for _, p := range l.Practice {
		sections = append(sections, p.Section)
	}
	for _, sec := range sections {
		for _, st := range sec.Steps {
			for _, f := range sec.Files {
				direct := regexp.MustCompile(`>\s*` + regexp.QuoteMeta(f.Name) + `(\s|$)`)
				if direct.MatchString(st.Run) {
					t.Errorf("%s: a command writes %s in place, not through %s.tmp", sec.ID, f.Name, f.Name)
				}
			}
		}
	}
}

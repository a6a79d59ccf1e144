package check

import (
	"testing"

	"ist2-boot/steps/i18n"
	"ist2-boot/steps/steptest"
)

// Every status and every tool's way to get it has words in the catalog.
func TestStatusesAndToolsHaveWords(t *testing.T) {
	keys, err := i18n.CatalogKeys()
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, k := range keys {
		have[k] = true
	}
	for _, s := range []Status{Pass, Fail, Missing, NeedsTool} {
		if !have["status."+string(s)] {
			t.Errorf("no words for status %s", s)
		}
	}
	for _, spec := range steptest.Lesson(t).Tools {
		if !have[spec.Get] {
			t.Errorf("tool %s: no %s string", spec.Name, spec.Get)
		}
	}
}

// Every file of the lesson names a kind of check that has a judge.
func TestEveryLessonFileNamesARegisteredCheck(t *testing.T) {
	l := steptest.Lesson(t)
	for _, s := range l.Sections {
		for _, f := range s.Files {
			if judges[f.Check] == nil {
				t.Errorf("%s: check %q has no judge (kinds: %v)", f.Name, f.Check, Kinds())
			}
		}
	}
}

package lesson

import (
	"testing"

	"ist2-boot/content"
	"ist2-boot/steps"
	"ist2-boot/ui/page"
)

func testLesson(t *testing.T) *steps.Lesson {
	t.Helper()
	l, err := steps.LoadLesson(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// The finish page reads the file the lesson judges as the report (code review W10: no file name
// written here).
func TestTheReportIsTheLessonsOwn(t *testing.T) {
	l := testLesson(t)
	file := reportFile(l)
	sec, spec := l.ProducerOf(file)
	if file == "" || sec == nil || spec.Check != "report" {
		t.Errorf("report file %q (section %v)", file, sec)
	}
}

// The kind owns the lesson's pages and no other; a and N fire on the finish page only, not under
// the tools page.
func TestPagesAndFinishKeys(t *testing.T) {
	l := testLesson(t)
	p := New(l)
	for _, id := range l.PageIDs() {
		if !p.Owns(id) {
			t.Errorf("does not own %s", id)
		}
	}
	if p.Owns("drill") {
		t.Error("owns the drill page")
	}
	on := func(at page.At) bool {
		bs := p.EnableKeys(at).Bindings()
		return bs[0].Enabled() && bs[1].Enabled()
	}
	if !on(page.At{ID: l.Finish.ID, Keys: true}) || on(page.At{ID: l.Intro.ID, Keys: true}) || on(page.At{ID: l.Finish.ID, Keys: true, Tools: true}) {
		t.Error("a and N are not on the finish page alone")
	}
}

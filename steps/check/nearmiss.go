package check

import (
	"os"
	"strings"

	"ist2-boot/steps/bootcheck"
)

// nearMiss is a regular file of the work dir whose name is the expected one misspelt —
// boot_typo.yaml for boot-typo.yaml, bootstrap.yml for bootstrap.yaml (newcomer L16) — and not
// the name of another file the lesson expects; "" when there is none.
func (c *checker) nearMiss(name string) string {
	if c.workEntries == nil {
		c.workEntries = []string{}
		entries, _ := os.ReadDir(c.env.WorkDir)
		for _, e := range entries {
			if e.Type().IsRegular() {
				c.workEntries = append(c.workEntries, e.Name())
			}
		}
	}
	want := normalName(name)
	for _, have := range c.workEntries {
		if have == name || c.lessonFile(have) {
			continue
		}
		if got := normalName(have); got == want || (len(want) >= 8 && bootcheck.EditDistance(got, want) <= 2) {
			return have
		}
	}
	return ""
}

// lessonFile: name is a file some section of the lesson produces.
func (c *checker) lessonFile(name string) bool {
	_, spec := c.lesson.ProducerOf(name)
	return spec != nil
}

// normalName folds what a typist confuses: case, and _ for -.
func normalName(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "-") }

package drill

import (
	"regexp"
	"strings"
	"testing"
	"unicode"

	"ist2-boot/steps/i18n"
)

// lineZero is a verdict that names line 0 (a field the fault removed has no line).
var lineZero = regexp.MustCompile(`(^|\D)0 行目|第 0 行|(^|\D)0번째`)

// Every explanation a drill gives — the class, the field, the fix, right or wrong — is written in
// the learner's language (no line of English prose), never names line 0 for a removed field, and
// never leaves a value blank.
func TestDrillTextsAreInTheLearnersLanguage(t *testing.T) {
	for seed := uint64(0); seed < 40; seed++ {
		d, err := New(base(t), testLab(t), seed, "", "")
		if err != nil {
			t.Fatal(err)
		}
		r := NewRound(d)
		r.AnswerClass(Rejected)
		wrongClass := d.JudgeClass(NotReady)
		r.AnswerField("not-a-field")
		unchanged := d.JudgeFix([]byte(d.Bootstrap))
		texts := []Verdict{r.Class, wrongClass, r.Field, d.JudgeField(d.Field), unchanged, d.JudgeFix(base(t))}
		for _, lang := range i18n.Langs {
			for _, v := range texts {
				text := v.Why.In(lang)
				if !hasCJK(text) {
					t.Errorf("seed %d %s (%s): not in %s: %q", seed, d.Fault, v.Why.Key, lang, text)
				}
				if lineZero.MatchString(text) {
					t.Errorf("seed %d %s %s: names line 0: %q", seed, d.Fault, lang, text)
				}
				if strings.Contains(text, "、今は ）") || strings.Contains(text, "现在 ）") || strings.Contains(text, "지금 )") {
					t.Errorf("seed %d %s %s: a blank value: %q", seed, d.Fault, lang, text)
				}
			}
			if d.AdminLines() == nil && !hasCJK(i18n.T(lang, "drill.admin_none", nil)) {
				t.Errorf("%s: Envoy's exit is not said in %s", d.Fault, lang)
			}
		}
	}
}

func hasCJK(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			return true
		}
	}
	return false
}

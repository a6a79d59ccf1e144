package cli

import (
	"strings"
	"testing"

	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/i18n"
)

// Every kind of check the validator cannot make offline is named in words in every language:
// validate --help never shows a message key (r7 H1).
func TestEveryGapHasWords(t *testing.T) {
	_, _, gaps, err := bootcheck.Coverage()
	if err != nil {
		t.Fatal(err)
	}
	if len(gaps) == 0 {
		t.Fatal("no gaps: the inventory was not read")
	}
	for _, lang := range i18n.Langs {
		text := validatorCoverage(lang)
		for _, g := range gaps {
			if key := "usage.validate.gap." + g.Category; strings.Contains(text, key) || i18n.T(lang, key, map[string]string{"n": "1"}) == key {
				t.Errorf("%s: no words for %s", lang, key)
			}
		}
	}
}

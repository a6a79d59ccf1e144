package i18n

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// Every message key the Go code uses exists in strings.yaml, in all three languages.
func TestEveryUsedStringIsInTheCatalog(t *testing.T) {
	keys, err := CatalogKeys()
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, k := range keys {
		have[k] = true
	}
	// Every string literal shaped like a catalog key (one of the catalog's own prefixes, a dot, a
	// name), wherever it is used: M, T, say, Ref, Label, help rows, prompts. A literal ending in
	// "." is a prefix completed at run time (status. + a status) and is checked below instead.
	// The prefixes come from the catalog, so a new family of keys is covered as it is added.
	prefixes := map[string]bool{}
	for _, k := range keys {
		if p, _, ok := strings.Cut(k, "."); ok {
			prefixes[regexp.QuoteMeta(p)] = true
		}
	}
	used := regexp.MustCompile(`"((?:` + strings.Join(slices.Sorted(maps.Keys(prefixes)), "|") + `)\.[a-z_.-]*[a-z_-]|get_[a-z]+)"`)
	var files []string // every Go file of the engine and the front ends
	for _, root := range []string{"..", "../../ui"} {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.Contains(path, "testdata") {
				files = append(files, path)
			}
			return err
		})
	}
	count := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range used.FindAllStringSubmatch(string(raw), -1) {
			count++
			key := m[1]
			if strings.HasSuffix(key, ".yaml") || strings.HasSuffix(key, ".json") || strings.HasSuffix(key, ".lock") {
				continue // a file name, not a key
			}
			if !have[key] {
				t.Errorf("%s uses %q, which strings.yaml lacks", f, key)
			}
		}
	}
	if count < 100 {
		t.Errorf("found only %d uses: the pattern no longer matches the code", count)
	}
}

func TestLang(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if l, ok := LangFromLocale(env(map[string]string{"LANG": "ja_JP.UTF-8"})); !ok || l != Japanese {
		t.Errorf("LANG ja: %v %v", l, ok)
	}
	if l, _ := LangFromLocale(env(map[string]string{"LC_ALL": "zh_CN.UTF-8", "LANG": "ko_KR.UTF-8"})); l != Chinese {
		t.Errorf("LC_ALL wins: %v", l)
	}
	if _, ok := LangFromLocale(env(map[string]string{"LANG": "C.UTF-8"})); ok {
		t.Error("C locale taken for a language")
	}
	if _, err := ParseLang("xx"); err == nil {
		t.Error("xx accepted")
	}
	if got := M("reason.depends", "file", "a", "dep", "b", "status", Ref("status.fail")).In(Japanese); !strings.Contains(got, "不合格") {
		t.Errorf("nested key not put into words: %s", got)
	}
}

// Durations are written as each language writes them, not as Go's "7m10s" (issue 32).
func TestDurationsInWords(t *testing.T) {
	for _, c := range []struct {
		seconds int
		want    map[Lang]string
	}{
		{430, map[Lang]string{Korean: "7분 10초", Chinese: "7 分 10 秒", Japanese: "7 分 10 秒"}},
		{9, map[Lang]string{Korean: "9초", Chinese: "9 秒", Japanese: "9 秒"}},
		{3720, map[Lang]string{Korean: "1시간 2분", Chinese: "1 小时 2 分", Japanese: "1 時間 2 分"}},
	} {
		for lang, want := range c.want {
			if got := Duration(lang, c.seconds); got != want {
				t.Errorf("%s %ds: %q, want %q", lang, c.seconds, got, want)
			}
		}
	}
	for d, want := range map[time.Duration]string{300 * time.Millisecond: "1 秒未満", 2600 * time.Millisecond: "3 秒"} {
		if got := Elapsed(Japanese, d); got != want {
			t.Errorf("ja %v: %q, want %q", d, got, want)
		}
	}
	// A kept line says its time in the language it is shown in, not the one it was made in.
	took := M("run.took", append([]string{"code", "0"}, ElapsedArgs("took", 70*time.Second)...)...)
	if got := took.In(Korean); !strings.Contains(got, "1분 10초") {
		t.Errorf("ko took: %q", got)
	}
	if got := took.In(Chinese); !strings.Contains(got, "1 分 10 秒") {
		t.Errorf("zh took: %q", got)
	}
	if got := ListOf(Chinese, []string{"1", "2"}); got != "1、2" {
		t.Errorf("zh list: %q", got)
	}
}

// The language rule every front end follows: the flag, the saved choice, the locale, Korean.
func TestChoose(t *testing.T) {
	for _, tt := range []struct{ flag, saved, locale, want Lang }{
		{Japanese, Chinese, Korean, Japanese},
		{"", Chinese, Japanese, Chinese},
		{"", "", Japanese, Japanese},
		{"", "", "", Korean},
	} {
		if got := Choose(tt.flag, tt.saved, tt.locale); got != tt.want {
			t.Errorf("%q %q %q: %s, want %s", tt.flag, tt.saved, tt.locale, got, tt.want)
		}
	}
	env := map[string]string{"LANG": "ja_JP.UTF-8"}
	if got := Locale(func(k string) string { return env[k] }); got != Japanese {
		t.Errorf("LANG=ja_JP.UTF-8: %q", got)
	}
}

// ja r21 M1: no half-width space between Japanese or Chinese and a worded value; a code value
// keeps its spaces.
func TestNoSpaceAroundAWordedValue(t *testing.T) {
	for _, c := range []struct{ in, got, want string }{
		{"（元は {want}、今は {got}）", "なし", "（元は 15012、今はなし）"},
		{"（元は {want}、今は {got}）", "15016", "（元は 15012、今は 15016）"},
		{"实际为 {got} 。", "没有", "实际为没有。"},
		{"值 {got} 和 x", "无", "值无和 x"},
	} {
		s := closeUpWide(c.in, map[string]string{"want": "15012", "got": c.got})
		s = strings.NewReplacer("{want}", "15012", "{got}", c.got).Replace(s)
		if s != c.want {
			t.Errorf("%q with %q: %q, want %q", c.in, c.got, s, c.want)
		}
	}
}

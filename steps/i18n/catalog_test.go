package i18n

import (
	"reflect"
	"strings"
	"testing"

	"ist2-boot/content"
)

// The catalog cut at its keys says exactly what the whole file parsed says, for every key, and
// every string is there in every language.
func TestCutCatalogIsTheWholeCatalog(t *testing.T) {
	whole, err := loadCatalog(content.FS)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := CatalogKeys()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != len(whole) {
		t.Fatalf("the cut finds %d keys, the parse %d", len(keys), len(whole))
	}
	for _, k := range keys {
		got, err := entry(k)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, whole[k]) {
			t.Errorf("%s: cut %q, whole %q", k, got, whole[k])
		}
	}
}

// The cut refuses what it cannot cut safely, rather than misfiling lines.
func TestCutAtKeys(t *testing.T) {
	idx, err := cutAtKeys([]byte("# c\na: {ko: x}\n\nb:\n  ko: |\n    y\n# between\nc: z"))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(idx["b"]); got != "b:\n  ko: |\n    y\n# between\n" {
		t.Errorf("b is %q", got)
	}
	if got := string(idx["c"]); got != "c: z" {
		t.Errorf("c is %q", got)
	}
	for _, bad := range []string{"a: 1\na: 2\n", "a: 1\n- x\n"} {
		if _, err := cutAtKeys([]byte(bad)); err == nil || !strings.Contains(err.Error(), "strings.yaml") {
			t.Errorf("%q: cut without a word (%v)", bad, err)
		}
	}
}

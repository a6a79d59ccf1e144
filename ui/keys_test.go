package ui

import (
	"reflect"
	"slices"
	"testing"

	"charm.land/bubbles/v2/key"
)

// Every binding is documented once, and no key is bound twice in a state where both could fire
// (n is Next on a page and No in a question; ctrl+c is Cancel while a run goes and Quit otherwise).
func TestKeysAreDocumentedAndNeverCollide(t *testing.T) {
	k := newKeyMap()
	v := reflect.ValueOf(k)
	var fields []key.Binding
	for i := range v.NumField() {
		fields = append(fields, v.Field(i).Interface().(key.Binding))
	}
	if len(keyDocs) != len(fields) {
		t.Errorf("%d bindings, %d documented", len(fields), len(keyDocs))
	}
	for i, d := range keyDocs {
		b := d.of(k)
		for j, other := range keyDocs[:i] {
			if slices.Equal(other.of(k).Keys(), b.Keys()) {
				t.Errorf("keyDocs %d and %d document the same binding %v", j, i, b.Keys())
			}
		}
		if len(d.states) == 0 {
			t.Errorf("binding %v fires nowhere", b.Keys())
		}
	}
	for _, st := range keyStates {
		owner := map[string][]string{}
		for _, d := range keyDocs {
			if !slices.Contains(d.states, st) {
				continue
			}
			b := d.of(k)
			for _, key := range b.Keys() {
				owner[key] = append(owner[key], b.Keys()[0])
			}
		}
		for key, bindings := range owner {
			if len(bindings) > 1 {
				t.Errorf("state %d: %q fires %v", st, key, bindings)
			}
		}
	}
}

// The help screen lists every binding that has help, each with a catalog description.
func TestHelpRowsComeFromTheBindings(t *testing.T) {
	rows := newKeyMap().helpRows()
	if len(rows) < 10 {
		t.Fatalf("only %d help rows", len(rows))
	}
	for _, r := range rows {
		if r[0] == "" || r[1] == "" {
			t.Errorf("row %q", r)
		}
	}
}

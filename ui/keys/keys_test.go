package keys

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// Each scroll key asks for its own move, in the order of Scroll's fields; a disabled one, none.
func TestScrollKeysMove(t *testing.T) {
	k := NewScroll()
	for key, want := range map[string]Move{"k": LineUp, "j": LineDown, "b": PageUp, "f": PageDown, "g": ToTop, "G": ToBottom, "x": NoScroll} {
		if got := k.Move(tea.KeyPressMsg{Code: rune(key[0]), Text: key}); got != want {
			t.Errorf("%s: move %d, want %d", key, got, want)
		}
	}
	Enable(false, k.All()...)
	if got := k.Move(tea.KeyPressMsg{Code: 'j', Text: "j"}); got != NoScroll {
		t.Errorf("a disabled key moved %d", got)
	}
}

// A binding is listed among the actions unless it says otherwise; its key line form is kept.
func TestBindingGroupAndKeyLine(t *testing.T) {
	b := New("r", "help.run", "r", "keys.run", "r")
	if b.Group() != Actions || b.In(Answers).Group() != Answers || b.Short() != "r" || b.Label() != "keys.run" {
		t.Errorf("group %d, short %q, label %q", b.Group(), b.Short(), b.Label())
	}
	b.SetLabel("keys.yes.run")
	if b.Label() != "keys.yes.run" {
		t.Errorf("label %q", b.Label())
	}
}

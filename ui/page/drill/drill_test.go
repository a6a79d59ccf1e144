package drill

import (
	"slices"
	"strconv"
	"testing"

	drills "ist2-boot/steps/drill"
	"ist2-boot/ui/page"
)

// The class keys are one per class the drills offer, 1 to n, and the help screen and key line say
// so: a class added to steps/drill is a key more, with no change here.
func TestClassKeysComeFromTheClasses(t *testing.T) {
	k := New().keys.Class
	var want []string
	for i := range drills.ClassChoices {
		want = append(want, strconv.Itoa(i+1))
	}
	if !slices.Equal(k.Keys(), want) || k.Help().Key == "" || k.Short() == "" {
		t.Errorf("keys %v, help %q, short %q; classes %v", k.Keys(), k.Help().Key, k.Short(), drills.ClassChoices)
	}
}

// Off the drill page, or while a drill is drawn, none of its keys fires; on it with no drill yet,
// only r (draw one).
func TestKeysFollowThePage(t *testing.T) {
	enabled := func(p page.Page) []string {
		var on []string
		for _, b := range p.Bindings() {
			if b.Enabled() {
				on = append(on, b.Keys()[0])
			}
		}
		return on
	}
	p := New()
	if on := enabled(p.EnableKeys(page.At{ID: "args", Keys: true, Reading: true})); len(on) != 0 {
		t.Errorf("on another page: %v", on)
	}
	if on := enabled(p.EnableKeys(page.At{ID: ID, Keys: true, Reading: true})); !slices.Equal(on, []string{"r"}) {
		t.Errorf("no drill yet: %v", on)
	}
	p.drawing = true
	if on := enabled(p.EnableKeys(page.At{ID: ID, Keys: true, Reading: true})); len(on) != 0 || !p.Busy() {
		t.Errorf("while drawing: %v, busy %v", on, p.Busy())
	}
}

package ui

import (
	"testing"
	"time"

	"ist2-boot/ui/common"
)

// A status message goes after the engine's MessageTTL; an expiry meant for an older message leaves
// a newer one alone; an error is a message like any other, not a line that outranks what follows.
func TestStatusMessagesTimeOut(t *testing.T) {
	eng := testEngine(t)
	eng.MessageTTL = 20 * time.Millisecond
	m := sized(t, eng, 100, 30)
	cmd := m.sendKey("c") // on the intro: "not a section"
	if m.status.message.Key != "ui.not_a_section" {
		t.Fatalf("message %q", m.status.message.Key)
	}
	nm, _ := m.Update(messageExpiredMsg{id: m.status.id - 1})
	if kept := nm.(Model); kept.status.message.Key != "ui.not_a_section" {
		t.Errorf("an older expiry cleared the newer message")
	}
	m = drain(t, m, cmd)
	if m.status.message.Key != "" {
		t.Errorf("message %q still shown after its time", m.status.message.Key)
	}
	nm, _ = m.Update(common.SavedMsg{Err: errTest("disk full")})
	m = nm.(Model)
	if m.status.message.Key != "ui.error" || m.status.message.Args["error"] != "disk full" {
		t.Errorf("error shown as %+v", m.status.message)
	}
}

type errTest string

func (e errTest) Error() string { return string(e) }

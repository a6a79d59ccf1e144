package tools

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps"
	"ist2-boot/steps/setup"
	"ist2-boot/ui/common"
	"ist2-boot/ui/task"
)

// An install's events come back as output items, its end as the tools found; the status line
// has its part only while it runs.
func TestInstallReportsItsEventsAndItsEnd(t *testing.T) {
	c := common.Common{Eng: &common.Engine{Tick: time.Hour}}
	p, begin := New().Install(c, func(ctx context.Context, emit func(setup.SetupEvent)) Result {
		emit(setup.SetupEvent{Kind: setup.SetupStart, Tool: "yq"})
		emit(setup.SetupEvent{Kind: setup.SetupDone, Tool: "yq"})
		return Result{Tools: steps.Tools{{Name: "yq", Found: true}}}
	})
	if !p.Installing() {
		t.Fatal("not installing")
	}
	var msg tea.Msg
	for _, cmd := range begin().(tea.BatchMsg) { // the start; the hour's tick is not waited for
		got := make(chan tea.Msg, 1)
		go func() { got <- cmd() }()
		select {
		case m := <-got:
			if _, ok := m.(task.StartedMsg[setup.SetupEvent, Result]); ok {
				msg = m
			}
		case <-time.After(time.Second):
		}
	}
	var items int
	for msg != nil {
		next, its, done, cmd := p.Update(msg)
		p, items = next, items+len(its)
		if done != nil {
			if !done.Tools.Get("yq").Found || items != 2 || p.Installing() {
				t.Errorf("end: %+v after %d items, installing %v", done, items, p.Installing())
			}
			return
		}
		msg = cmd()
	}
	t.Fatal("the install did not end")
}

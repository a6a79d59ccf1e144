package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ist2-boot/ui/page/tools"

	"ist2-boot/ui/task"

	tea "charm.land/bubbletea/v2"

	"ist2-boot/steps/check"
	"ist2-boot/steps/progress"
	"ist2-boot/steps/setup"
	"ist2-boot/steps/watch"
)

// D20: q while an install runs stops it and quits only once it has ended (its build's process
// group stopped), never leaving it behind.
func TestQuitWaitsForTheInstall(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	cancelled := make(chan struct{})
	var begin tea.Cmd
	m.toolsPage, begin = m.toolsPage.Install(m.Common, func(ctx context.Context, emit func(setup.SetupEvent)) tools.Result {
		<-ctx.Done()
		close(cancelled)
		return tools.Result{}
	})
	install := m.toolsPage.Task()
	for _, c := range begin().(tea.BatchMsg) { // the job starts; its first tick is left
		if started, ok := c().(task.StartedMsg[setup.SetupEvent, tools.Result]); ok {
			nm, _ := m.Update(started)
			m = nm.(Model)
		}
	}
	nm, cmd := m.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	m = nm.(Model)
	if quits(cmd) {
		t.Fatal("quit while the install runs")
	}
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the install was not stopped")
	}
	_, cmd = m.Update(task.DoneMsg[tools.Result]{ID: install.ID()})
	if !quits(cmd) {
		t.Error("did not quit once the install ended")
	}
}

// D9: the work dir gone is said, and when it is back the open section is judged again.
func TestTheWatchSaysWhenTheDirGoes(t *testing.T) {
	m := sized(t, testEngine(t), 100, 30)
	m = press(t, m, "n")
	nm, _ := m.Update(watchMsg{names: []string{watch.DirGone}, open: true})
	m = nm.(Model)
	if m.status.message.Key != "ui.watch_gone" {
		t.Errorf("gone: %q", m.status.message.Key)
	}
	nm, cmd := m.Update(watchMsg{names: []string{watch.DirBack}, open: true})
	if nm.(Model).status.message.Key != "ui.watch_back" || cmd == nil {
		t.Errorf("back: %q", nm.(Model).status.message.Key)
	}
}

// D11: a corrupt progress file a command put aside is said by the tutorial's next start, once.
func TestTheTutorialSaysAPutAsideFile(t *testing.T) {
	eng := testEngine(t)
	os.WriteFile(filepath.Join(eng.Store.Dir, "progress.json"), []byte("{not json"), 0o644)
	if _, err := progress.NewStore(eng.Store.Dir); err != nil {
		t.Fatal(err)
	}
	other, _ := progress.NewStore(eng.Store.Dir) // a command: it moves the file aside
	other.Load()
	m := sized(t, eng, 100, 30) // the tutorial's next start
	if m.status.message.Key != "progress.corrupt" || !strings.Contains(m.status.message.Args["file"], "progress.json.corrupt-") {
		t.Errorf("start: %+v", m.status.message)
	}
	if again := sized(t, eng, 100, 30); again.status.message.Key == "progress.corrupt" {
		t.Error("said twice")
	}
}

// zh r18 M4: a file saved from outside while another page is open is judged for its own section,
// so that page, opened later, shows the file as it is now, not its last verdict.
func TestAFileSavedForAnotherPageIsJudgedForIt(t *testing.T) {
	eng := testEngine(t)
	m := sized(t, eng, 100, 30) // the intro is open
	if err := os.MkdirAll(eng.Env.WorkDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(eng.Env.Path("02-env.txt"), []byte("TRUST_DOMAIN=example.org\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	nm, cmd := m.Update(watchMsg{names: []string{"02-env.txt"}, open: true})
	m = nm.(Model)
	batch, _ := cmd().(tea.BatchMsg)
	judged := false
	for _, c := range batch[1:] { // the first waits for the next change
		if msg, ok := c().(checkedMsg); ok && msg.section == "env" {
			nm, _ = m.Update(msg)
			m, judged = nm.(Model), true
		}
	}
	if !judged {
		t.Fatal("02-env.txt saved while the intro was open: its section was not judged")
	}
	if r, ok := m.Results["env"]; !ok || r.Status == check.Pass || r.Status == "" {
		t.Errorf("env after a wrong 02-env.txt: %+v", r)
	}
}

package ui

import (
	"strings"

	"ist2-boot/steps/i18n"

	"charm.land/bubbles/v2/key"
)

// keyMap is every binding of the tutorial. Each carries its help (the keys as the help screen
// shows them, and the catalog key of what it does); keyDocs says where each fires and keyLine
// what the bottom line shows, so the help screen and the key line are derived, never hand-kept.
type keyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Next, Prev, Focus, Open                 key.Binding
	Lang, Run, Cancel, Shell, Check, Diff   key.Binding
	Hint, Glossary, Help, Quit, QuitCtrlC   key.Binding
	Again                                   key.Binding // on the finish page: the first section the review marks
	NewLab                                  key.Binding // on the finish page: a fresh lab (sandbox mode)
	Yes, No, Close, Doctor, Install         key.Binding
}

// keyState is a state of the tutorial in which a set of bindings can fire: two bindings that
// share a key must never fire in the same state.
type keyState int

const (
	stateIdle     keyState = iota // a page, nothing running
	stateRunning                  // a page while a section's commands run
	stateTools                    // the tools page
	stateQuestion                 // a y/n question is asked
	stateHelp                     // the help screen
	stateDiff                     // the diff view
)

var keyStates = []keyState{stateIdle, stateRunning, stateTools, stateQuestion, stateHelp, stateDiff}

func newKeyMap() keyMap {
	k := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return keyMap{
		// The scroll keys share one help row, on Up.
		Up: k("↑/↓ j/k PgUp/PgDn g/G", "help.scroll", "up", "k"), Down: k("", "", "down", "j"),
		PageUp: k("", "", "pgup", "b"), PageDown: k("", "", "pgdown", "space", "f"),
		Top: k("", "", "g", "home"), Bottom: k("", "", "G", "end"),
		Next: k("n / p", "help.page", "n"), Prev: k("", "", "p"),
		Focus: k("tab", "help.focus", "tab"), Open: k("enter", "help.open", "enter"),
		Lang: k("l", "help.lang", "l"), Run: k("r", "help.run", "r"),
		Cancel: k("x / ctrl+c", "help.cancel", "x", "ctrl+c"), Shell: k("s", "help.shell", "s"),
		Check: k("c", "help.check", "c"), Diff: k("d", "help.diff", "d"),
		Hint: k("h", "help.hint", "h"), Glossary: k("t", "help.glossary", "t"),
		Doctor: k("D, i", "help.doctor", "D"), Install: k("", "", "i"),
		Again: k("a", "help.again", "a"), NewLab: k("N", "help.newlab", "N"),
		Help: k("?", "help.help", "?"), Quit: k("q", "help.quit", "q"),
		// ctrl+c quits when nothing runs; while a run goes, Cancel has it.
		QuitCtrlC: k("", "", "ctrl+c"),
		Yes:       k("", "", "y", "Y"), No: k("", "", "n", "N", "esc", "q"), Close: k("", "", "esc", "q", "d"),
	}
}

// keyDoc says where a binding fires.
type keyDoc struct {
	of     func(keyMap) key.Binding
	states []keyState
}

var (
	onPages = []keyState{stateIdle, stateRunning, stateTools}
	scrolls = []keyState{stateIdle, stateRunning, stateTools, stateDiff}
)

// keyDocs lists every binding, in the help screen's order.
var keyDocs = []keyDoc{
	{func(k keyMap) key.Binding { return k.Up }, scrolls},
	{func(k keyMap) key.Binding { return k.Down }, scrolls},
	{func(k keyMap) key.Binding { return k.PageUp }, scrolls},
	{func(k keyMap) key.Binding { return k.PageDown }, scrolls},
	{func(k keyMap) key.Binding { return k.Top }, scrolls},
	{func(k keyMap) key.Binding { return k.Bottom }, scrolls},
	{func(k keyMap) key.Binding { return k.Next }, onPages},
	{func(k keyMap) key.Binding { return k.Prev }, onPages},
	{func(k keyMap) key.Binding { return k.Focus }, scrolls}, // in the diff view: the next file
	{func(k keyMap) key.Binding { return k.Open }, onPages},
	{func(k keyMap) key.Binding { return k.Lang }, scrolls},
	{func(k keyMap) key.Binding { return k.Run }, onPages},
	{func(k keyMap) key.Binding { return k.Cancel }, []keyState{stateRunning}},
	{func(k keyMap) key.Binding { return k.Shell }, onPages},
	{func(k keyMap) key.Binding { return k.Check }, onPages},
	{func(k keyMap) key.Binding { return k.Diff }, onPages},
	{func(k keyMap) key.Binding { return k.Hint }, onPages},
	{func(k keyMap) key.Binding { return k.Glossary }, onPages},
	{func(k keyMap) key.Binding { return k.Doctor }, onPages},
	{func(k keyMap) key.Binding { return k.Install }, []keyState{stateTools}},
	{func(k keyMap) key.Binding { return k.Again }, []keyState{stateIdle}},
	{func(k keyMap) key.Binding { return k.NewLab }, []keyState{stateIdle}},
	{func(k keyMap) key.Binding { return k.Help }, append([]keyState{stateHelp}, onPages...)},
	{func(k keyMap) key.Binding { return k.Quit }, onPages},
	{func(k keyMap) key.Binding { return k.QuitCtrlC }, []keyState{stateIdle, stateTools}},
	{func(k keyMap) key.Binding { return k.Yes }, []keyState{stateQuestion}},
	{func(k keyMap) key.Binding { return k.No }, []keyState{stateQuestion}},
	{func(k keyMap) key.Binding { return k.Close }, []keyState{stateHelp, stateDiff}},
}

// keyLine is the bottom line: the keys as shown there, and the catalog key of each label.
var keyLine = [][2]string{
	{"↑↓", "keys.scroll"}, {"n/p", "keys.page"}, {"r", "keys.run"}, {"s", "keys.shell"},
	{"c", "keys.check"}, {"d", "keys.diff"}, {"h", "keys.hint"}, {"l", "keys.lang"},
	{"?", "keys.help"}, {"q", "keys.quit"},
}

// helpRows are the help screen's rows: each binding with help, its keys and catalog key.
func (k keyMap) helpRows() [][2]string {
	var rows [][2]string
	for _, d := range keyDocs {
		if h := d.of(k).Help(); h.Desc != "" {
			rows = append(rows, [2]string{h.Key, h.Desc})
		}
	}
	return rows
}

// shortHelp is the key line in lang.
func shortHelp(lang i18n.Lang) string {
	parts := make([]string, len(keyLine))
	for i, item := range keyLine {
		parts[i] = item[0] + " " + i18n.T(lang, item[1], nil)
	}
	return strings.Join(parts, " · ")
}

package ui

import (
	"ist2-boot/steps/i18n"

	"charm.land/bubbles/v2/key"
)

// keyMap is every binding of the tutorial. Each carries its help (the keys as the help screen
// shows them, and the catalog key of what it does); keyDocs says where each fires and how the key
// line names it, so the help screen, the key line and the collision test are derived from the same
// bindings, never hand-kept.
type keyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Next, Prev, Focus, Open                 key.Binding
	Lang, Run, Cancel, Shell, Check, Diff   key.Binding
	Hint, Glossary, Help, Quit, QuitCtrlC   key.Binding
	Again                                   key.Binding // on the finish page: the first section the review marks
	NewLab                                  key.Binding // on the finish page: a fresh lab (sandbox mode)
	Yes, No, Close, Doctor, Install, Back   key.Binding
	DrillClass, DrillField                  key.Binding // the drill page's answers: 1/2, then 1–4
	DrillFix, DrillNext                     key.Binding // judge the fixed file; draw the next drill
	NextFile                                key.Binding // the diff view's next file
	Suspend                                 key.Binding // ctrl+z: back to the shell; fg returns
}

// keyState is a state of the tutorial in which a set of bindings can fire: two bindings that
// share a key must never fire in the same state.
type keyState int

const (
	stateIdle       keyState = iota // a page, nothing running
	stateRunning                    // a page while a section's commands run
	stateTools                      // the tools page
	stateQuestion                   // a y/n question is asked
	stateHelp                       // the help screen
	stateDiff                       // the diff view
	stateDrillClass                 // the drill page, the class asked
	stateDrillField                 // the drill page, the field asked
	stateDrillFix                   // the drill page, the fix asked (or judged)
)

var keyStates = []keyState{stateIdle, stateRunning, stateTools, stateQuestion, stateHelp, stateDiff,
	stateDrillClass, stateDrillField, stateDrillFix}

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
		Doctor: k("D, i", "help.doctor", "D"), Install: k("", "", "i"), Back: k("esc", "help.back", "esc"),
		Again: k("a", "help.again", "a"), NewLab: k("N", "help.newlab", "N"),
		Help: k("?", "help.help", "?"), Quit: k("q", "help.quit", "q"),
		// ctrl+c quits when nothing runs; while a run goes, Cancel has it.
		QuitCtrlC: k("", "", "ctrl+c"),
		Yes:       k("", "", "y", "Y"), No: k("", "", "n", "N", "esc", "q"), Close: k("", "", "esc", "q", "d"),
		NextFile:   k("tab", "help.next_file", "tab"),
		Suspend:    k("ctrl+z", "help.suspend", "ctrl+z"),
		DrillClass: k("1 / 2", "help.drill_class", "1", "2"), DrillField: k("1–4", "help.drill_field", "1", "2", "3", "4"),
		DrillFix: k("c", "help.drill_fix", "c"), DrillNext: k("r", "help.drill_next", "r"),
	}
}

// keyDoc says where a binding fires, and how the key line shows it there ("" for not at all).
type keyDoc struct {
	of     func(keyMap) key.Binding
	states []keyState
	short  string // the key as the key line writes it
	label  string // the catalog key of its word on the key line
}

var (
	drillStates = []keyState{stateDrillClass, stateDrillField, stateDrillFix}
	onPages     = []keyState{stateIdle, stateRunning, stateTools}
	anyPage     = append(append([]keyState{}, onPages...), drillStates...)
	scrolls     = append([]keyState{stateDiff, stateHelp}, anyPage...)
)

// keyDocs lists every binding, in the help screen's and the key line's order.
var keyDocs = []keyDoc{
	{func(k keyMap) key.Binding { return k.Yes }, []keyState{stateQuestion}, "y", "keys.yes"},
	{func(k keyMap) key.Binding { return k.No }, []keyState{stateQuestion}, "n/esc", "keys.no"},
	{func(k keyMap) key.Binding { return k.DrillClass }, []keyState{stateDrillClass}, "1/2", "keys.answer"},
	{func(k keyMap) key.Binding { return k.DrillField }, []keyState{stateDrillField}, "1–4", "keys.answer"},
	{func(k keyMap) key.Binding { return k.DrillFix }, []keyState{stateDrillFix}, "c", "keys.judge_fix"},
	{func(k keyMap) key.Binding { return k.DrillNext }, drillStates, "r", "keys.next_drill"},
	{func(k keyMap) key.Binding { return k.Cancel }, []keyState{stateRunning}, "x", "keys.cancel"},
	{func(k keyMap) key.Binding { return k.Install }, []keyState{stateTools}, "i", "keys.install"},
	{func(k keyMap) key.Binding { return k.Back }, []keyState{stateTools}, "esc", "keys.back"},
	{func(k keyMap) key.Binding { return k.NextFile }, []keyState{stateDiff}, "tab", "keys.next_file"},
	{func(k keyMap) key.Binding { return k.Close }, []keyState{stateHelp, stateDiff}, "esc/q", "keys.close"},
	{func(k keyMap) key.Binding { return k.Up }, scrolls, "↑↓", "keys.scroll"},
	{func(k keyMap) key.Binding { return k.Down }, scrolls, "", ""},
	{func(k keyMap) key.Binding { return k.PageUp }, scrolls, "", ""},
	{func(k keyMap) key.Binding { return k.PageDown }, scrolls, "", ""},
	{func(k keyMap) key.Binding { return k.Top }, scrolls, "", ""},
	{func(k keyMap) key.Binding { return k.Bottom }, scrolls, "", ""},
	{func(k keyMap) key.Binding { return k.Next }, anyPage, "n/p", "keys.page"},
	{func(k keyMap) key.Binding { return k.Prev }, anyPage, "", ""},
	{func(k keyMap) key.Binding { return k.Focus }, anyPage, "", ""},
	{func(k keyMap) key.Binding { return k.Open }, anyPage, "", ""},
	{func(k keyMap) key.Binding { return k.Run }, onPages, "r", "keys.run"},
	{func(k keyMap) key.Binding { return k.Shell }, onPages, "s", "keys.shell"},
	{func(k keyMap) key.Binding { return k.Check }, onPages, "c", "keys.check"},
	{func(k keyMap) key.Binding { return k.Diff }, onPages, "d", "keys.diff"},
	{func(k keyMap) key.Binding { return k.Hint }, onPages, "h", "keys.hint"},
	{func(k keyMap) key.Binding { return k.Lang }, append([]keyState{stateDiff}, anyPage...), "l", "keys.lang"},
	{func(k keyMap) key.Binding { return k.Glossary }, anyPage, "", ""},
	{func(k keyMap) key.Binding { return k.Doctor }, anyPage, "", ""},
	{func(k keyMap) key.Binding { return k.Again }, []keyState{stateIdle}, "", ""},
	{func(k keyMap) key.Binding { return k.NewLab }, []keyState{stateIdle}, "", ""},
	{func(k keyMap) key.Binding { return k.Suspend }, anyPage, "", ""},
	{func(k keyMap) key.Binding { return k.Help }, append([]keyState{stateHelp, stateDiff}, anyPage...), "?", "keys.help"},
	{func(k keyMap) key.Binding { return k.Quit }, anyPage, "q", "keys.quit"},
	{func(k keyMap) key.Binding { return k.QuitCtrlC }, []keyState{stateIdle, stateTools, stateDrillClass, stateDrillField, stateDrillFix}, "", ""},
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

// keyLineItems are the key line's items in a state, each "key word" in lang: what fires there, in
// keyDocs' order, with ? and q (help, and quit or close) last so that cutting from the middle
// keeps them.
func keyLineItems(st keyState, lang i18n.Lang) (items, pinned []string) {
	for _, d := range keyDocs {
		if d.short == "" || !contains(d.states, st) {
			continue
		}
		item := d.short + " " + i18n.T(lang, d.label, nil)
		if d.label == "keys.help" || d.label == "keys.quit" || d.label == "keys.close" {
			pinned = append(pinned, item)
			continue
		}
		items = append(items, item)
	}
	return items, pinned
}

func contains(states []keyState, st keyState) bool {
	for _, s := range states {
		if s == st {
			return true
		}
	}
	return false
}

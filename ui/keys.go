package ui

import "charm.land/bubbles/v2/key"

// keyMap is every binding of the tutorial; help text comes from the catalog in the current
// language, so bindings carry only their keys here.
type keyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Next, Prev, Focus, Open                 key.Binding
	Lang, Run, Cancel, Shell, Check, Diff   key.Binding
	Hint, Glossary, Help, Quit, Yes, No     key.Binding
	Close, Doctor, Install                  key.Binding
}

func newKeyMap() keyMap {
	k := func(keys ...string) key.Binding { return key.NewBinding(key.WithKeys(keys...)) }
	return keyMap{
		Up: k("up", "k"), Down: k("down", "j"), PageUp: k("pgup", "b"), PageDown: k("pgdown", "space", "f"),
		Top: k("g", "home"), Bottom: k("G", "end"),
		Next: k("n"), Prev: k("p"), Focus: k("tab"), Open: k("enter"),
		Lang: k("l"), Run: k("r"), Cancel: k("x", "ctrl+c"), Shell: k("s"), Check: k("c"), Diff: k("d"),
		Hint: k("h"), Glossary: k("t"), Help: k("?"), Quit: k("q", "ctrl+c"),
		Yes: k("y", "Y"), No: k("n", "N", "esc"), Close: k("esc", "q", "d"),
		Doctor: k("D"), Install: k("i"),
	}
}

// helpRows pairs each key, as the learner types it, with its catalog description.
var helpRows = [][2]string{
	{"↑/↓ j/k PgUp/PgDn g/G", "help.scroll"},
	{"n / p", "help.page"},
	{"tab", "help.focus"},
	{"enter", "help.open"},
	{"l", "help.lang"},
	{"r", "help.run"},
	{"x / ctrl+c", "help.cancel"},
	{"s", "help.shell"},
	{"c", "help.check"},
	{"d", "help.diff"},
	{"h", "help.hint"},
	{"t", "help.glossary"},
	{"D, i", "help.doctor"},
	{"?", "help.help"},
	{"q", "help.quit"},
}

package drill

import (
	"reflect"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// A drill's file is the base with one fault in it, and `diff bootstrap.yaml drill-bootstrap.yaml`
// is the first thing an operator tries: it must show the fault and nothing else (newcomer L12).
// Re-encoding the whole document would re-indent it, so the fault is carried into the base's own
// text instead — a value or a key replaced where it stands, a block entry's lines removed — and
// the result is used only when it reads as the very document the fault made; else the encoding.

// nodeState is what a fault can change of a node: a scalar's text, a collection's children.
type nodeState struct {
	value   string
	content []*yaml.Node
}

// snapshot records every node of doc as it is before the fault.
func snapshot(doc *yaml.Node) map[*yaml.Node]nodeState {
	seen := map[*yaml.Node]nodeState{}
	var visit func(n *yaml.Node)
	visit = func(n *yaml.Node) {
		if _, ok := seen[n]; ok {
			return
		}
		seen[n] = nodeState{value: n.Value, content: slices.Clone(n.Content)}
		for _, c := range n.Content {
			visit(c)
		}
	}
	visit(doc)
	return seen
}

// textEdit replaces what stands from one position of the base to another, both as (line, rune
// column) from 1, the end exclusive.
type textEdit struct {
	fromLine, fromCol, toLine, toCol int
	text                             string
}

// carried is the faulty document written as the base's text with the fault's edits in it; false
// when the fault's change cannot be carried so (a key added, a flow-style entry removed).
func carried(base []byte, before map[*yaml.Node]nodeState, doc *yaml.Node, encoded []byte) ([]byte, bool) {
	lines := strings.SplitAfter(string(base), "\n")
	var edits []textEdit
	for n, was := range before {
		if n.Kind == yaml.ScalarNode && n.Value != was.value {
			e, ok := scalarEdit(lines, n, was.value, n.Value)
			if !ok {
				return nil, false
			}
			edits = append(edits, e)
		}
		if n.Kind != yaml.MappingNode || slices.Equal(n.Content, was.content) {
			continue
		}
		for i := 0; i+1 < len(was.content); i += 2 {
			key, val := was.content[i], was.content[i+1]
			at := slices.Index(n.Content, key)
			switch {
			case at < 0: // the entry is gone
				e, ok := entryRemoval(lines, key)
				if !ok {
					return nil, false
				}
				edits = append(edits, e)
			case n.Content[at+1] != val: // its value replaced by a new scalar (set)
				if val.Kind != yaml.ScalarNode || n.Content[at+1].Kind != yaml.ScalarNode {
					return nil, false
				}
				e, ok := scalarEdit(lines, val, val.Value, n.Content[at+1].Value)
				if !ok {
					return nil, false
				}
				edits = append(edits, e)
			}
		}
		for _, c := range n.Content {
			if _, known := before[c]; !known && c.Line == 0 && !isReplacement(n, c, was) {
				return nil, false // a key added: no place in the text to say where
			}
		}
	}
	out, ok := applyEdits(lines, edits)
	if !ok || !sameDocument(out, encoded) {
		return nil, false
	}
	return out, true
}

// isReplacement: c is the new value a set() put in place of an entry's old one.
func isReplacement(m, c *yaml.Node, was nodeState) bool {
	at := slices.Index(m.Content, c)
	if at < 1 || at%2 == 0 {
		return false
	}
	return slices.Contains(was.content, m.Content[at-1])
}

// scalarEdit replaces a one-line plain or quoted scalar where it stands, keeping its quotes.
func scalarEdit(lines []string, n *yaml.Node, old, value string) (textEdit, bool) {
	if n.Line < 1 || n.Line > len(lines) || strings.ContainsAny(old+value, "\n\"'\\") {
		return textEdit{}, false
	}
	line := []rune(lines[n.Line-1])
	from := n.Column - 1
	token := old
	switch n.Style {
	case yaml.DoubleQuotedStyle:
		token = `"` + old + `"`
		value = `"` + value + `"`
	case yaml.SingleQuotedStyle:
		token = "'" + old + "'"
		value = "'" + value + "'"
	case 0, yaml.TaggedStyle:
	default:
		return textEdit{}, false
	}
	to := from + len([]rune(token))
	if from < 0 || to > len(line) || string(line[from:to]) != token {
		return textEdit{}, false
	}
	return textEdit{n.Line, from + 1, n.Line, to + 1, value}, true
}

// entryRemoval removes a block mapping entry whole: its key's line and the lines indented below it.
func entryRemoval(lines []string, key *yaml.Node) (textEdit, bool) {
	if key.Line < 1 || key.Line > len(lines) {
		return textEdit{}, false
	}
	indent := key.Column - 1
	if strings.TrimSpace(string([]rune(lines[key.Line-1])[:min(indent, len([]rune(lines[key.Line-1])))])) != "" {
		return textEdit{}, false // something before the key on its line: a "- " or a flow mapping
	}
	last := key.Line
	for i := key.Line; i < len(lines); i++ { // lines[i] is line i+1
		body := strings.TrimRight(lines[i], "\r\n")
		trimmed := strings.TrimLeft(body, " ")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if len(body)-len(trimmed) <= indent {
			break
		}
		last = i + 1
	}
	return textEdit{key.Line, 1, last + 1, 1, ""}, true
}

// applyEdits makes the edits, last first so that positions hold; false if two overlap.
func applyEdits(lines []string, edits []textEdit) ([]byte, bool) {
	slices.SortFunc(edits, func(a, b textEdit) int {
		if a.fromLine != b.fromLine {
			return b.fromLine - a.fromLine
		}
		return b.fromCol - a.fromCol
	})
	text := slices.Clone(lines)
	for i, e := range edits {
		if i > 0 {
			prev := edits[i-1]
			if e.toLine > prev.fromLine || (e.toLine == prev.fromLine && e.toCol > prev.fromCol) {
				return nil, false
			}
		}
		before := strings.Join(text[:e.fromLine-1], "") + string([]rune(text[e.fromLine-1])[:e.fromCol-1])
		after := ""
		if e.toLine <= len(text) {
			after = string([]rune(text[e.toLine-1])[e.toCol-1:]) + strings.Join(text[e.toLine:], "")
		}
		text = strings.SplitAfter(before+e.text+after, "\n")
	}
	return []byte(strings.Join(text, "")), true
}

// sameDocument: two YAML texts decode to the same data.
func sameDocument(a, b []byte) bool {
	var x, y any
	if yaml.Unmarshal(a, &x) != nil || yaml.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

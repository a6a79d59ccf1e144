package bootcheck

import (
	"bytes"
	"encoding/json"
	"fmt"

	"gopkg.in/yaml.v3"
)

// toJSON writes a YAML tree as the JSON Envoy's YAML loader makes of it: quoted scalars are
// strings, plain ones booleans or numbers where yaml-cpp reads them as such.
func toJSON(n *yaml.Node) ([]byte, error) { return toJSONTyped(n, envoyScalar) }

// toJSONTyped writes the tree with its scalars typed by typed (yaml-cpp's way, or JSON's own).
func toJSONTyped(n *yaml.Node, typed func(*yaml.Node) envoyValue) ([]byte, error) {
	w := jsonWriter{typed: typed}
	if err := w.write(n, 0); err != nil {
		return nil, err
	}
	return w.b.Bytes(), nil
}

// Bounds of the JSON made from a YAML tree. Without aliases the JSON is at most about three times
// the YAML (a learner file is at most 1 MiB), so maxJSON is only a backstop; what aliases add is
// bounded on its own (a few aliases of aliases make gigabytes), so a large real bootstrap passes
// while an alias bomb stops early.
const (
	maxJSON      = 8 << 20
	maxAliasJSON = 1 << 20
	maxDepth     = 200
)

// jsonWriter counts what alias expansions write, apart from the rest.
type jsonWriter struct {
	b          bytes.Buffer
	inAlias    int // alias expansions open around the node being written
	aliasStart int // where the outermost open expansion began
	aliased    int // bytes written by finished outermost expansions
	typed      func(*yaml.Node) envoyValue
}

func (w *jsonWriter) write(n *yaml.Node, depth int) error {
	b := &w.b
	if depth > maxDepth {
		return fmt.Errorf("the configuration nests deeper than %d levels", maxDepth)
	}
	if w.inAlias > 0 && w.aliased+b.Len()-w.aliasStart > maxAliasJSON {
		return fmt.Errorf("the configuration's aliases expand to more than %d bytes of JSON", maxAliasJSON)
	}
	if b.Len() > maxJSON {
		return fmt.Errorf("the configuration is more than %d bytes as JSON; a bootstrap is kilobytes", maxJSON)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			b.WriteString("null")
			return nil
		}
		return w.write(n.Content[0], depth+1)
	case yaml.AliasNode:
		if w.inAlias == 0 {
			w.aliasStart = b.Len()
		}
		w.inAlias++
		err := w.write(n.Alias, depth+1)
		w.inAlias--
		if w.inAlias == 0 {
			w.aliased += b.Len() - w.aliasStart // nested expansions are inside this one: counted once
		}
		return err
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			key, _ := json.Marshal(n.Content[i].Value)
			b.Write(key)
			b.WriteByte(':')
			if err := w.write(n.Content[i+1], depth+1); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, e := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := w.write(e, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		writeScalar(b, w.typed(n))
	}
	return nil
}

// writeScalar writes a typed scalar as JSON.
func writeScalar(b *bytes.Buffer, v envoyValue) {
	switch v.kind {
	case jsonNull:
		b.WriteString("null")
	case jsonBool, jsonNumber:
		b.WriteString(v.text)
	default:
		q, _ := json.Marshal(v.text)
		b.Write(q)
	}
}

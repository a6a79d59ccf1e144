package bootcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"gopkg.in/yaml.v3"
)

// toJSON writes a YAML tree as the JSON Envoy's YAML loader makes of it: quoted scalars are
// strings, plain ones numbers or booleans where they read as such.
func toJSON(n *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	if err := writeJSON(&b, n, 0); err != nil {
		return nil, err
	}
	if b.Len() > maxJSON {
		return nil, fmt.Errorf("the configuration expands to more than %d bytes of JSON (aliases?)", maxJSON)
	}
	return b.Bytes(), nil
}

// maxJSON bounds what aliases may expand to: a bootstrap is kilobytes, a learner file at most 1 MiB.
const maxJSON = 1 << 20

const maxDepth = 200

func writeJSON(b *bytes.Buffer, n *yaml.Node, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("the configuration nests deeper than %d levels", maxDepth)
	}
	if b.Len() > maxJSON {
		return fmt.Errorf("the configuration expands to more than %d bytes of JSON (aliases?)", maxJSON)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			b.WriteString("null")
			return nil
		}
		return writeJSON(b, n.Content[0], depth+1)
	case yaml.AliasNode:
		return writeJSON(b, n.Alias, depth+1)
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			key, _ := json.Marshal(n.Content[i].Value)
			b.Write(key)
			b.WriteByte(':')
			if err := writeJSON(b, n.Content[i+1], depth+1); err != nil {
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
			if err := writeJSON(b, e, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		writeScalar(b, n)
	}
	return nil
}

func writeScalar(b *bytes.Buffer, n *yaml.Node) {
	switch n.Tag {
	case "!!null":
		b.WriteString("null")
	case "!!bool":
		v, _ := strconv.ParseBool(n.Value)
		b.WriteString(strconv.FormatBool(v))
	case "!!int":
		if i, err := strconv.ParseInt(n.Value, 0, 64); err == nil {
			b.WriteString(strconv.FormatInt(i, 10))
			return
		}
		if u, err := strconv.ParseUint(n.Value, 0, 64); err == nil {
			b.WriteString(strconv.FormatUint(u, 10))
			return
		}
		q, _ := json.Marshal(n.Value)
		b.Write(q)
	case "!!float":
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil && !isSpecial(f) {
			b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
			return
		}
		q, _ := json.Marshal(n.Value)
		b.Write(q)
	default:
		q, _ := json.Marshal(n.Value)
		b.Write(q)
	}
}

func isSpecial(f float64) bool {
	return f != f || f > 1.7976931348623157e308 || f < -1.7976931348623157e308
}

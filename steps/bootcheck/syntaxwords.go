package bootcheck

import (
	"encoding/json"
	"errors"
	"strings"

	"gopkg.in/yaml.v3"

	"ist2-boot/steps/i18n"
)

// YAMLErrorWords is a yaml.v3 error as a learner reads it: the line it names (0 when it names
// none), the catalog key that says what is wrong in their language, and the parser's English,
// kept beside those words as {original} (what a search for the error finds).
func YAMLErrorWords(err error, data []byte) (line int, key, original string) {
	p := tabLine(yamlLine(err), data) // a tab error named at the tab, as validate names it (ko r18 H1)
	key = "yaml.other"
	var te *yaml.TypeError
	if errors.As(err, &te) {
		key = "yaml.types"
	}
	for _, w := range yamlWords {
		if strings.HasPrefix(p.Message, w.message) {
			key = w.key
		}
	}
	return p.Line, key, p.Message
}

// JSONErrorWords is an encoding/json error as a learner reads it: the line it stops at (0 when
// unknown), a catalog key for what is wrong, and its arguments. A top-level value of another
// kind is said with that kind in the learner's words (no Go type names); a syntax error keeps
// the decoder's English as {original}.
func JSONErrorWords(err error, data []byte) (line int, key string, args []string) {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field == "" {
		return 0, "json.top_kind", []string{"kind", i18n.Ref("json.kind." + te.Value)}
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		if strings.TrimSpace(string(data)) == "" {
			return 0, "json.empty", nil
		}
		line = 1 + strings.Count(string(data[:min(int(se.Offset), len(data))]), "\n")
		if se.Error() == "unexpected end of JSON input" {
			return line, "json.truncated", []string{"original", se.Error()}
		}
		return line, "json.syntax", []string{"original", se.Error()}
	}
	return 0, "json.other", []string{"original", err.Error()}
}

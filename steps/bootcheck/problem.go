package bootcheck

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"ist2-boot/steps/i18n"
)

// Problem is one thing Envoy would refuse (or, for a warning, accept but trip over at run time).
type Problem struct {
	Path    string // field path as written: static_resources.clusters[0].name
	Line    int    // 1-based YAML line, 0 when unknown
	Col     int
	Message string // Envoy's wording where Envoy has one
	Hint    string // a closer valid name for a misspelled one
	stage   stage  // where in Envoy's start-up it is met: Envoy stops at the first
	// jsonTail: Envoy ends the message with the JSON it parsed (MessageUtil::loadFromJson),
	// appended once the walk has made it, from echoAt on.
	jsonTail bool
	echoAt   int
	// ours: the message is this validator's, not Envoy's — a catalog key that words it in the
	// learner's language around detail (yaml.v3's or encoding/json's own words, kept as they are).
	ours, detail string
	detailKey    string // detail in the learner's words (a catalog key taking {original}), if we have them
}

// maxEcho is how much of the JSON echoed at the end of a parse failure a one-line report shows:
// the whole of it is in Message, but a bootstrap's worth of JSON would bury the line.
const maxEcho = 72

// String is the problem as one line: line:col: path: message (did you mean …?), in English (tests,
// and comparisons with Envoy's own line).
func (p Problem) String() string { return p.Say("") }

// Say is the problem as one line for a learner reading lang: Envoy's words as Envoy prints them;
// this validator's own (a hint, a syntax error in yaml.v3's words) in lang. "" is English.
func (p Problem) Say(lang i18n.Lang) string { return p.place() + p.Words(lang) }

// Ours: the message is this validator's own (advice, a syntax error in a parser's words), not a
// line Envoy prints.
func (p Problem) Ours() bool { return p.ours != "" }

// place is where the problem is, as a report line starts it: "line:col: path: ".
func (p Problem) place() string {
	var b strings.Builder
	if p.Line > 0 {
		fmt.Fprintf(&b, "%d:%d: ", p.Line, p.Col)
	}
	if p.Path != "" {
		b.WriteString(p.Path + ": ")
	}
	return b.String()
}

// Words is the problem's message without its place, for lang ("" English): what a check's reason
// quotes.
func (p Problem) Words(lang i18n.Lang) string {
	if lang == "" {
		msg := p.envoyWords()
		if p.Hint != "" {
			msg += " (did you mean " + p.Hint + "?)"
		}
		return msg
	}
	key, args := p.worded()
	if key == "" {
		return p.envoyWords()
	}
	return i18n.M(key, append(args, "place", "")...).In(lang)
}

// Worded is the message as a check's reason carries it, to be put into words in whatever language
// the learner reads it: Envoy's words as they are, or (this validator's own words) a reference to
// the catalog string and the arguments it takes (i18n.Ref).
func (p Problem) Worded() (message string, args []string) {
	key, args := p.worded()
	if key == "" {
		return p.place() + p.envoyWords(), nil
	}
	return i18n.Ref(key), append(args, "place", p.place())
}

// WordedHere is Worded without the place, for a reason that says the line itself.
func (p Problem) WordedHere() (message string, args []string) {
	key, args := p.worded()
	if key == "" {
		return p.envoyWords(), nil
	}
	return i18n.Ref(key), append(args, "place", "")
}

func (p Problem) worded() (key string, args []string) {
	switch {
	case p.ours != "" && p.detailKey != "":
		return p.ours, []string{"error", i18n.Ref(p.detailKey), "original", p.detail}
	case p.ours != "":
		return p.ours, []string{"error", p.detail}
	case p.Hint != "":
		return "validate.problem_hint", []string{"problem", p.envoyWords(), "hint", p.Hint}
	}
	return "", nil
}

// envoyWords is the message as Envoy words it, its echoed JSON cut to a line.
func (p Problem) envoyWords() string {
	msg := p.Message
	if p.echoAt > 0 && len(msg)-p.echoAt > maxEcho {
		cut := p.echoAt + maxEcho
		for cut > p.echoAt && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "…"
	}
	if p.echoAt > 0 && p.echoAt <= len(msg) { // the echoed text on the one line of the report
		msg = msg[:p.echoAt] + strings.ReplaceAll(msg[p.echoAt:], "\n", `\n`)
	}
	return msg
}

package bootcheck

import (
	"errors"
	"regexp/syntax"

	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
)

// re2Texts are RE2's words for the errors Go's regexp parser finds (RE2's regexp.cc,
// kErrorStrings): Envoy throws RE2's own error text when a regex does not compile
// (Regex::CompiledGoogleReMatcher).
var re2Texts = map[syntax.ErrorCode]string{
	syntax.ErrInternalError:         "unexpected error",
	syntax.ErrInvalidEscape:         "invalid escape sequence",
	syntax.ErrInvalidCharClass:      "invalid character class",
	syntax.ErrInvalidCharRange:      "invalid character class range",
	syntax.ErrMissingBracket:        "missing ]",
	syntax.ErrMissingParen:          "missing )",
	syntax.ErrUnexpectedParen:       "unexpected )",
	syntax.ErrTrailingBackslash:     "trailing \\",
	syntax.ErrMissingRepeatArgument: "no argument for repetition operator",
	syntax.ErrInvalidRepeatSize:     "invalid repetition size",
	syntax.ErrInvalidRepeatOp:       "bad repetition operator",
	syntax.ErrInvalidPerlOp:         "invalid perl operator",
	syntax.ErrInvalidUTF8:           "invalid UTF-8",
	syntax.ErrInvalidNamedCapture:   "invalid named capture group",
}

// regexChecks compiles every RegexMatcher of the bootstrap, in its Anys too, as RE2 would, and
// reports one that does not compile in RE2's words: "<error>: <the offending part>".
func regexChecks(tree []visited, add addFunc) {
	for _, n := range tree {
		path := n.path
		rm, ok := n.m.Interface().(*matcherv3.RegexMatcher)
		if !ok {
			continue
		}
		_, err := syntax.Parse(rm.GetRegex(), syntax.Perl)
		var se *syntax.Error
		if !errors.As(err, &se) {
			continue
		}
		text, known := re2Texts[se.Code]
		if !known {
			text = se.Code.String()
		}
		if se.Expr != "" {
			text += ": " + se.Expr
		}
		add(stageOfAny(path), path+".regex", text) // compiled when what holds it is built
	}
}

package bootcheck

import (
	"maps"
	"slices"

	xdsmatcher "github.com/cncf/xds/go/xds/type/matcher/v3"
)

// firstBadInput walks a match tree in the order MatchTreeFactory builds it (source/common/matcher/
// matcher.h:143-300: a list's predicates and their on_match in order, then on_no_match; a tree's
// input, its on_no_match, then its map entries) and gives the type URL of the first data input
// allowed refuses, "" when there is none. Envoy keeps every violation and reports the first.
func firstBadInput(m *xdsmatcher.Matcher, allowed func(typeURL string) bool) string {
	if m == nil {
		return ""
	}
	var bad string
	input := func(url string) bool {
		if !allowed(url) {
			bad = url
			return true
		}
		return false
	}
	var predicate func(p *xdsmatcher.Matcher_MatcherList_Predicate) bool
	predicate = func(p *xdsmatcher.Matcher_MatcherList_Predicate) bool {
		switch {
		case p.GetSinglePredicate() != nil:
			return input(p.GetSinglePredicate().GetInput().GetTypedConfig().GetTypeUrl())
		case p.GetNotMatcher() != nil:
			return predicate(p.GetNotMatcher())
		}
		list := p.GetOrMatcher().GetPredicate()
		if p.GetAndMatcher() != nil {
			list = p.GetAndMatcher().GetPredicate()
		}
		return slices.ContainsFunc(list, predicate)
	}
	onMatch := func(o *xdsmatcher.Matcher_OnMatch) bool {
		if o.GetMatcher() == nil {
			return false
		}
		bad = firstBadInput(o.GetMatcher(), allowed)
		return bad != ""
	}
	if tree := m.GetMatcherTree(); tree != nil {
		if input(tree.GetInput().GetTypedConfig().GetTypeUrl()) || onMatch(m.GetOnNoMatch()) {
			return bad
		}
		entries := tree.GetExactMatchMap().GetMap()
		if tree.GetPrefixMatchMap() != nil {
			entries = tree.GetPrefixMatchMap().GetMap()
		}
		for _, k := range slices.Sorted(maps.Keys(entries)) {
			if onMatch(entries[k]) {
				return bad
			}
		}
		return ""
	}
	for _, fm := range m.GetMatcherList().GetMatchers() {
		if predicate(fm.GetPredicate()) || onMatch(fm.GetOnMatch()) {
			return bad
		}
	}
	onMatch(m.GetOnNoMatch())
	return bad
}

// celMapProblem: a tree that maps an input's value must read a string, and the CEL input gives
// "cel_data_input" (cel_input.h:57): MapMatcher's constructor refuses it as the tree is built
// (map_matcher.h:48-55), before the visitor that checks which inputs the owner allows says
// anything (its errors are thrown once the whole tree is made).
func celMapProblem(m *xdsmatcher.Matcher) string {
	const msg = "Unsupported data input type: cel_data_input, currently only string type is supported in map matcher"
	if m == nil {
		return ""
	}
	sub := func(o *xdsmatcher.Matcher_OnMatch) bool {
		return o.GetMatcher() != nil && celMapProblem(o.GetMatcher()) != ""
	}
	if tree := m.GetMatcherTree(); tree != nil {
		typ := typeName(tree.GetInput().GetTypedConfig())
		if typ == "xds.type.matcher.v3.HttpAttributesCelMatchInput" && (tree.GetExactMatchMap() != nil || tree.GetPrefixMatchMap() != nil) {
			return msg
		}
		entries := tree.GetExactMatchMap().GetMap()
		if tree.GetPrefixMatchMap() != nil {
			entries = tree.GetPrefixMatchMap().GetMap()
		}
		if sub(m.GetOnNoMatch()) || slices.ContainsFunc(slices.Collect(maps.Values(entries)), sub) {
			return msg
		}
		return ""
	}
	for _, fm := range m.GetMatcherList().GetMatchers() {
		if sub(fm.GetOnMatch()) {
			return msg
		}
	}
	if sub(m.GetOnNoMatch()) {
		return msg
	}
	return ""
}

// firstUnknownAction is the first action of a match tree, in the order the tree is built (a
// list's matchers then its on_no_match; a map's on_no_match then its entries), whose type known
// does not take: its name and type, "" when there is none.
func firstUnknownAction(m *xdsmatcher.Matcher, known func(typ string) bool) (name, typ string) {
	if m == nil {
		return "", ""
	}
	visit := func(o *xdsmatcher.Matcher_OnMatch) bool {
		switch {
		case o.GetMatcher() != nil:
			name, typ = firstUnknownAction(o.GetMatcher(), known)
			return typ != ""
		case o.GetAction() != nil && !known(factoryType(o.GetAction().GetTypedConfig())):
			name, typ = o.GetAction().GetName(), factoryType(o.GetAction().GetTypedConfig())
			return true
		}
		return false
	}
	if tree := m.GetMatcherTree(); tree != nil {
		entries := tree.GetExactMatchMap().GetMap()
		if tree.GetPrefixMatchMap() != nil {
			entries = tree.GetPrefixMatchMap().GetMap()
		}
		if visit(m.GetOnNoMatch()) {
			return name, typ
		}
		for _, k := range slices.Sorted(maps.Keys(entries)) {
			if visit(entries[k]) {
				return name, typ
			}
		}
		return "", ""
	}
	for _, fm := range m.GetMatcherList().GetMatchers() {
		if visit(fm.GetOnMatch()) {
			return name, typ
		}
	}
	visit(m.GetOnNoMatch())
	return name, typ
}

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

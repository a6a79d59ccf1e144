package bootcheck

import (
	"slices"
	"sort"
	"strconv"
	"strings"
)

// listenerOrder puts the problems met while the static listeners are built in the order Envoy
// meets them — by listener, then in the ListenerImpl constructor's order (listener_impl.cc:
// 313-470), each filter chain's transport socket before its network filters
// (filter_chain_manager_impl.cc:916-925) — where the file's line order would differ; and drops
// those of listeners Envoy never builds (a second static listener of a name).
type listenerOrder struct {
	skipped []int          // indexes of static listeners never built
	phase   map[string]int // the phase of a problem listenerChecks puts where its path would not say
}

const listenersPrefix = "static_resources.listeners["

// listenerPhases: where in the constructor a listener's field is built. A problem at the
// listener itself is met once it is built (its socket factory, its connection balancer).
var listenerPhases = map[string]int{
	"name": -2, "api_listener": -1, // addOrUpdateListener, before the listener is made
	"metadata": 0, "address": 1, "additional_addresses": 2, "access_log": 3, "enable_mptcp": 4,
	"udp_listener_config": 5, "listener_filters": 6, "filter_chains": 7, "default_filter_chain": 9,
	"filter_chain_matcher": 10, "internal_listener": 11, "": 100,
}

// chainPhases: where in building a filter chain its field is met: the duplicate-match check (at
// the chain itself), a QUIC chain's check of its filters as a whole (before the transport socket's
// config is made, filter_chain_manager_impl.cc:900-908), the transport socket, each network
// filter, then the match indexed.
var chainPhases = map[string]int{"": 0, "filters": 1, "transport_socket": 2, "filter_chain_match": 4, "name": 4}

// key is a problem's place in the build order: listener, phase, index within the phase, then the
// chain's phase and index.
func listenerKey(path string, explicit map[string]int) []int {
	rest, ok := strings.CutPrefix(path, "static_resources.listeners")
	if !ok || !strings.HasPrefix(rest, "[") {
		return []int{1 << 30}
	}
	i, rest := leadingIndex(rest)
	field, rest := nextField(rest)
	phase, ok := listenerPhases[field]
	if !ok {
		phase = 50 // socket options and the like: built after the filter chains
	}
	if p, ok := explicit[path]; ok {
		return []int{i, p}
	}
	key := []int{i, phase}
	if field != "filter_chains" && field != "default_filter_chain" {
		j, _ := leadingIndex(rest)
		return append(key, j)
	}
	j := 0
	if field == "filter_chains" {
		if strings.HasPrefix(rest, "[") {
			key[1] = 8 // a chain: built after validateFilterChains
		}
		j, rest = leadingIndex(rest)
	}
	sub, rest := nextField(rest)
	cp, ok := chainPhases[sub]
	if !ok {
		cp = 3
	}
	k := 1 << 20 // the filters as a whole (the QUIC check), before each filter
	if sub == "filters" {
		if strings.HasPrefix(rest, "[") {
			cp = 3
		}
		k, _ = leadingIndex(rest)
	}
	return append(key, j, cp, k)
}

// leadingIndex reads "[n]" at the start of s: n and what follows; -1 when there is none.
func leadingIndex(s string) (int, string) {
	if !strings.HasPrefix(s, "[") {
		return -1, s
	}
	end := strings.IndexByte(s, ']')
	n, err := strconv.Atoi(s[1:end])
	if err != nil {
		return -1, s[end+1:]
	}
	return n, s[end+1:]
}

// nextField reads ".name" at the start of s: name and what follows.
func nextField(s string) (string, string) {
	s = strings.TrimPrefix(s, ".")
	end := strings.IndexAny(s, ".[")
	if end < 0 {
		return s, ""
	}
	return s[:end], s[end:]
}

// order reorders the listeners' block of problems (already in stage, then line order).
func (o listenerOrder) order(problems []Problem) []Problem {
	out := problems[:0]
	for _, p := range problems {
		// Whatever the stage: all of a listener (its RDS subscription too) is made as it is built.
		if len(o.skipped) > 0 {
			if i, _ := leadingIndex(strings.TrimPrefix(p.Path, "static_resources.listeners")); strings.HasPrefix(p.Path, listenersPrefix) && slices.Contains(o.skipped, i) {
				continue
			}
		}
		out = append(out, p)
	}
	start := slices.IndexFunc(out, func(p Problem) bool { return p.stage == stageListeners })
	if start < 0 {
		return out
	}
	end := start
	for end < len(out) && out[end].stage == stageListeners {
		end++
	}
	block := out[start:end]
	keys := make([][]int, len(block))
	for i, p := range block {
		keys[i] = listenerKey(p.Path, o.phase)
	}
	idx := make([]int, len(block))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return slices.Compare(keys[idx[a]], keys[idx[b]]) < 0 })
	sorted := make([]Problem, len(block))
	for i, j := range idx {
		sorted[i] = block[j]
	}
	copy(block, sorted)
	return out
}

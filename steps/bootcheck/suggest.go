package bootcheck

import (
	"strings"
	"sync"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// suggestField is the field of md whose name is closest to a misspelled one, if any is close.
func suggestField(name string, md protoreflect.MessageDescriptor) string {
	var names []string
	for i := 0; i < md.Fields().Len(); i++ {
		names = append(names, string(md.Fields().Get(i).Name()))
	}
	return closest(name, names)
}

// closest is the candidate nearest to s by edit distance (ignoring case and the _ of snake
// case), when it is near enough to be a typo: at most a third of the name's length, and 3.
func closest(s string, candidates []string) string {
	norm := func(x string) string { return strings.ToLower(strings.ReplaceAll(x, "_", "")) }
	best, bestD := "", 1<<30
	for _, c := range candidates {
		if d := EditDistance(norm(s), norm(c)); d < bestD {
			best, bestD = c, d
		}
	}
	if bestD == 0 || bestD <= min(3, max(1, len(s)/3)) {
		return best
	}
	return ""
}

// Closest is the candidate a misspelt name was meant to be, or "" (check's key=value files use it
// as the validator does for fields).
func Closest(s string, candidates []string) string { return closest(s, candidates) }

var typeNames = sync.OnceValue(func() []string {
	var names []string
	protoregistry.GlobalTypes.RangeMessages(func(mt protoreflect.MessageType) bool {
		names = append(names, string(mt.Descriptor().FullName()))
		return true
	})
	return names
})

// closestType is the registered message type nearest to a misspelled @type.
func closestType(name string) string {
	if c := closest(name, typeNames()); c != "" {
		return "type.googleapis.com/" + c
	}
	return ""
}

// EditDistance is the edit distance in runes, a swap of two neighbours counting as one edit as
// the other edits do (optimal string alignment: "GRCP" is one from "GRPC", zh r7 L26); also how
// check finds a near file name.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	rows := [3][]int{make([]int, len(rb)+1), make([]int, len(rb)+1), make([]int, len(rb)+1)}
	for j := range rows[1] {
		rows[1][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		before, prev, cur := rows[0], rows[1], rows[2]
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], before[j-2]+1)
			}
		}
		rows[0], rows[1], rows[2] = prev, cur, before
	}
	return rows[1][len(rb)]
}

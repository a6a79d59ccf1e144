package check

import (
	"fmt"
	"slices"

	"ist2-boot/steps/bootcheck"
)

// misspelling follows want and got to where they first differ, as firstDifference does, and
// says whether that difference is a key written wrong: one side has a key the other lacks, and
// the other has, in its place, a key spelt almost the same (conect_timeout for connect_timeout).
// It returns the path of the learner's key and the key meant, or "" — a copy that renames a key
// is told which it was meant to be, as a key=value file is (ja r22 L10).
func misspelling(want, got any, path string) (at, meant string) {
	wm, wok := asMap(want)
	gm, gok := asMap(got)
	if wok && gok {
		for _, k := range allKeys(wm, gm) {
			if firstDifference(wm[k], gm[k], "") == "" {
				continue
			}
			_, inWant := wm[k]
			_, inGot := gm[k]
			switch {
			case inWant && inGot:
				return misspelling(wm[k], gm[k], joinPath(path, k))
			case inGot: // the learner's key is not in bootstrap.yaml: the one meant is missing
				if m := bootcheck.Closest(k, onlyIn(wm, gm)); m != "" {
					return joinPath(path, k), m
				}
			default: // a key of bootstrap.yaml is gone: the learner's is spelt otherwise
				for _, g := range onlyIn(gm, wm) {
					if bootcheck.Closest(g, []string{k}) == k {
						return joinPath(path, g), k
					}
				}
			}
			return "", ""
		}
		return "", ""
	}
	wl, wok := want.([]any)
	gl, gok := got.([]any)
	if wok && gok {
		for i := range min(len(wl), len(gl)) {
			if firstDifference(wl[i], gl[i], "") != "" {
				return misspelling(wl[i], gl[i], fmt.Sprintf("%s[%d]", path, i))
			}
		}
	}
	return "", ""
}

// onlyIn is the keys of a that b lacks, sorted.
func onlyIn(a, b map[string]any) []string {
	var keys []string
	for k := range a {
		if _, ok := b[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

package check

import (
	"slices"
	"strconv"
	"strings"

	"ist2-boot/steps/bootcheck"
	"ist2-boot/steps/i18n"
)

// kv is one expected key of a key=value file, with its value and an optional looser test.
type kv struct {
	Key  string
	Want string
	OK   func(got string) bool
}

// kvLine is one line of a learner's key=value file.
type kvLine struct {
	N     int // 1-based
	Text  string
	Key   string
	Value string
	IsKV  bool
}

func parseKV(text string) []kvLine {
	var out []kvLine
	// An editor's UTF-8 byte order mark is not part of the first key (hostile L12), as CRLF is not
	// part of a value.
	text = strings.TrimPrefix(text, "\ufeff")
	for i, l := range textLines(text) {
		line := kvLine{N: i + 1, Text: l}
		if k, v, ok := strings.Cut(l, "="); ok && strings.TrimSpace(k) != "" {
			line.Key, line.Value, line.IsKV = strings.TrimSpace(k), strings.TrimSpace(v), true
		}
		out = append(out, line)
	}
	return out
}

func wantKeys(want []kv) []string {
	keys := make([]string, len(want))
	for i, w := range want {
		keys[i] = w.Key
	}
	return keys
}

// judgeKV judges a key=value file as a set of keys: order does not matter; a line that is not
// key=value, a repeated key, an unknown key, a wrong value or a missing key each fails with its
// own reason, the first in line order winning (missing keys come last).
func judgeKV(file, text string, want []kv) FileResult {
	return judgeKVLines(file, parseKV(text), want)
}

// judgeKVLines judges lines already parsed, so a file whose key lines sit among other text
// (08-report.md) names each by its own line number.
func judgeKVLines(file string, lines []kvLine, want []kv) FileResult {
	byKey := map[string]kv{}
	for _, w := range want {
		byKey[w.Key] = w
	}
	r := FileResult{File: file, Status: Pass}
	fail := func(m i18n.Msg) {
		if r.Status == Pass {
			r.Status, r.Reason = Fail, m
		}
	}
	seen := map[string]int{}
	at := map[string]int{} // where each key's line stands in expected
	var expected, produced []string
	for _, l := range lines {
		produced = append(produced, l.Text)
		switch {
		case strings.TrimSpace(l.Text) == "":
			expected = append(expected, "")
		case !l.IsKV:
			fail(i18n.M("reason.not_kv", "file", file, "line", strconv.Itoa(l.N), "text", l.Text))
		case seen[l.Key] > 0:
			fail(i18n.M("reason.dup_key", "file", file, "key", l.Key, "line", strconv.Itoa(l.N), "first", strconv.Itoa(seen[l.Key])))
		default:
			seen[l.Key] = l.N
			w, known := byKey[l.Key]
			if !known {
				// A misspelt key says which it was meant to be, as the validator does (zh r17 M6).
				if maybe := bootcheck.Closest(l.Key, wantKeys(want)); maybe != "" {
					fail(i18n.M("reason.extra_key_maybe", "file", file, "key", l.Key, "line", strconv.Itoa(l.N), "maybe", maybe))
				} else {
					fail(i18n.M("reason.extra_key", "file", file, "key", l.Key, "line", strconv.Itoa(l.N)))
				}
				continue
			}
			ok := l.Value == w.Want
			if w.OK != nil {
				ok = w.OK(l.Value)
			}
			at[l.Key] = len(expected)
			if ok {
				expected = append(expected, l.Text)
			} else {
				expected = append(expected, w.Key+"="+w.Want)
				key := "reason.wrong_value"
				if l.Value == "" { // nothing after "=": said as empty, not as a blank in the sentence (ja r19 H1)
					key = "reason.empty_value"
				}
				fail(i18n.M(key, "file", file, "key", l.Key, "line", strconv.Itoa(l.N), "want", w.Want, "got", l.Value))
			}
		}
	}
	for i, w := range want {
		if seen[w.Key] > 0 {
			continue
		}
		// A missing key is expected where the task lists it, after the key before it, not at the
		// end: the diff must not teach an order (zh r22 L16).
		pos := 0
		for j := i - 1; j >= 0; j-- {
			if p, ok := at[want[j].Key]; ok {
				pos = p + 1
				break
			}
		}
		expected = slices.Insert(expected, pos, w.Key+"="+w.Want)
		for k, p := range at {
			if p >= pos {
				at[k] = p + 1
			}
		}
		at[w.Key] = pos
		fail(i18n.M("reason.missing_key", "file", file, "key", w.Key, "want", w.Want))
	}
	r.Expected, r.Produced = joinLines(expected), joinLines(produced)
	return r.withDiff()
}

func joinLines(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

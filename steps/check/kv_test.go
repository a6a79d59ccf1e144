package check

import "testing"

// A missing key is expected where the task lists it, not appended: the diff shows no order the
// task does not ask for (zh r22 L16). The first key missing goes first.
func TestMissingKeysStandInTheTasksOrder(t *testing.T) {
	want := []kv{{Key: "a", Want: "1"}, {Key: "b", Want: "2"}, {Key: "c", Want: "3"}, {Key: "d", Want: "4"}}
	for _, tc := range []struct{ file, expected string }{
		{"a=1\nc=3\nd=4\n", "a=1\nb=2\nc=3\nd=4\n"},
		{"d=4\nc=3\na=1\n", "d=4\nc=3\na=1\nb=2\n"}, // the learner's order kept, b after a
		{"b=2\nc=3\nd=4\n", "a=1\nb=2\nc=3\nd=4\n"},
		{"c=3\n", "a=1\nb=2\nc=3\nd=4\n"},
	} {
		if r := judgeKV("f.txt", tc.file, want); r.Expected != tc.expected {
			t.Errorf("%q: expected\n%s, want\n%s", tc.file, r.Expected, tc.expected)
		}
	}
}

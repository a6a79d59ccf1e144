package bootcheck

import "testing"

// A swap of two neighbours is one edit, so the enum a learner mistyped is named (zh r7 L26).
func TestEditDistanceCountsASwapOnce(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"GRCP", "GRPC", 1}, {"GRPC", "GRPC", 0}, {"kitten", "sitting", 3}, {"", "abc", 3}, {"ab", "ba", 1}, {"abc", "ca", 3}} {
		if got := EditDistance(c.a, c.b); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	if got := closest("GRCP", []string{"GRPC", "DELTA_GRPC", "REST"}); got != "GRPC" {
		t.Errorf("closest GRCP: %q", got)
	}
}

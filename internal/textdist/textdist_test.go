package textdist

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDistance(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"max_turns", "max_turnz", 1}, {"majorty_pass", "majority_pass", 1}, {"ab", "ba", 1},
		{"stirng_contains", "string_contains", 1}, {"héllo", "hello", 1},
		{"all_pass", "all_pas", 1}, {"flaw", "lawn", 2},
	} {
		assert.Equal(t, tc.want, Distance(tc.a, tc.b), "%q %q", tc.a, tc.b)
		assert.Equal(t, tc.want, Distance(tc.b, tc.a), "symmetric %q %q", tc.b, tc.a)
	}
}

func FuzzDistance(f *testing.F) {
	f.Add("max_turns", "max_turnz")
	f.Fuzz(func(t *testing.T, a, b string) {
		d := Distance(a, b)
		if d < 0 || (a == b && d != 0) || d != Distance(b, a) {
			t.Fatalf("Distance(%q, %q) = %d", a, b, d)
		}
	})
}

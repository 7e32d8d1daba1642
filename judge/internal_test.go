package judge

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
		ok     bool
	}{
		{"absent", nil, 0, false},
		{"seconds", map[string]string{"Retry-After": "3"}, 3 * time.Second, true},
		{"fractional seconds", map[string]string{"Retry-After": "0.25"}, 250 * time.Millisecond, true},
		{"http date", map[string]string{"Retry-After": now.Add(7 * time.Second).Format(http.TimeFormat)}, 7 * time.Second, true},
		{"date in the past", map[string]string{"Retry-After": now.Add(-time.Minute).Format(http.TimeFormat)}, 0, true},
		{"milliseconds win", map[string]string{"Retry-After": "3", "Retry-After-Ms": "40"}, 40 * time.Millisecond, true},
		{"garbage", map[string]string{"Retry-After": "soon"}, 0, false},
		{"negative", map[string]string{"Retry-After": "-1"}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			got, ok := retryAfter(h, now)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestBackoffGrowsWithinBounds(t *testing.T) {
	t.Parallel()
	base, maxD := 100*time.Millisecond, time.Second
	for attempt := 1; attempt <= 10; attempt++ {
		full := base << (attempt - 1)
		if full > maxD || full <= 0 {
			full = maxD
		}
		for range 50 {
			d := backoff(attempt, base, maxD)
			assert.GreaterOrEqual(t, d, full/2, "attempt %d", attempt)
			assert.LessOrEqual(t, d, full, "attempt %d", attempt)
		}
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "key [redacted] bad", redact("key sk-1 bad", "sk-1"))
	assert.Equal(t, "nothing", redact("nothing", ""))
}

func TestLevenshtein(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"all_pass", "all_pas", 1}, {"flaw", "lawn", 2}, {"héllo", "hello", 1},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, levenshtein(tt.a, tt.b), "%q vs %q", tt.a, tt.b)
		assert.Equal(t, tt.want, levenshtein(tt.b, tt.a), "%q vs %q", tt.b, tt.a)
	}
}

func TestClosest(t *testing.T) {
	t.Parallel()
	names := []string{"all_pass", "any_pass", "majority_pass", "weighted"}
	tests := []struct{ in, want string }{
		{"all-pass", "all_pass"},
		{"majority", "majority_pass"},
		{"a", ""},
		{"majorty_pass", "majority_pass"},
		{"Weighted", "weighted"},
		{"wieghted", "weighted"},
		{"unanimous", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, closest(tt.in, names), tt.in)
	}
	assert.Empty(t, closest("x", nil))
}

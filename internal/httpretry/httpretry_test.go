package httpretry

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
		{"github reset", map[string]string{"X-Ratelimit-Remaining": "0", "X-Ratelimit-Reset": "1767323075"}, 30 * time.Second, true},
		{"retry-after wins over the reset", map[string]string{"X-Ratelimit-Remaining": "0", "X-Ratelimit-Reset": "1767323075", "Retry-After": "7"}, 7 * time.Second, true},
		{"reset with requests left", map[string]string{"X-Ratelimit-Remaining": "3", "X-Ratelimit-Reset": "1767323075"}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			got, ok := RetryAfter(h, now)
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
			d := Backoff(attempt, base, maxD)
			assert.GreaterOrEqual(t, d, full/2, "attempt %d", attempt)
			assert.LessOrEqual(t, d, full, "attempt %d", attempt)
		}
	}
}

// server answers request i with statuses[i] (the last one repeats).
func server(t *testing.T, h func(n int, w http.ResponseWriter)) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		h(int(n.Add(1)), w)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestTransportRetriesAndCounts(t *testing.T) {
	t.Parallel()
	srv, calls := server(t, func(n int, w http.ResponseWriter) {
		if n < 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = io.WriteString(w, "ok")
	})
	var retries []int
	c := &http.Client{Transport: &Transport{Policy: Policy{Base: time.Millisecond, OnRetry: func(a int, _ time.Duration, reason error) {
		retries = append(retries, a)
		assert.EqualError(t, reason, "HTTP 503")
	}}}}
	ctx, attempts := WithAttempts(t.Context())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader("body"))
	resp, err := c.Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, "ok", string(b))
	assert.Equal(t, int32(3), calls.Load())
	assert.Equal(t, 3, attempts())
	assert.Equal(t, []int{1, 2}, retries)
}

func TestTransportAttemptTimeout(t *testing.T) {
	t.Parallel()
	srv, calls := server(t, func(n int, w http.ResponseWriter) {
		if n == 1 {
			time.Sleep(time.Second)
		}
		_, _ = io.WriteString(w, "ok")
	})
	c := &http.Client{Transport: &Transport{Policy: Policy{Base: time.Millisecond, AttemptTimeout: 50 * time.Millisecond}}}
	resp, err := c.Get(srv.URL)
	require.NoError(t, err)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err, "the attempt's context lives as long as its body")
	resp.Body.Close()
	assert.Equal(t, "ok", string(b))
	assert.Equal(t, int32(2), calls.Load(), "a timed-out attempt is retried")
}

func TestTransportCancelWhileWaiting(t *testing.T) {
	t.Parallel()
	srv, calls := server(t, func(_ int, w http.ResponseWriter) {
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	c := &http.Client{Transport: &Transport{}}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	start := time.Now()
	_, err := c.Do(req)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "while waiting to retry (last error: HTTP 429)")
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.Equal(t, int32(1), calls.Load())
}

func TestTransportGivesUpOnLongWaits(t *testing.T) {
	t.Parallel()
	srv, calls := server(t, func(_ int, w http.ResponseWriter) {
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	limited := errors.New("limited")
	var gotWait time.Duration
	c := &http.Client{Transport: &Transport{Policy: Policy{MaxWait: time.Second, Limited: func(_ *http.Response, _ Verdict, wait time.Duration) error {
		gotWait = wait
		return limited
	}}}}
	_, err := c.Get(srv.URL)
	require.ErrorIs(t, err, limited)
	assert.Equal(t, time.Hour, gotWait)
	assert.Equal(t, int32(1), calls.Load())

	var slept []time.Duration
	c = &http.Client{Transport: &Transport{Policy: Policy{Attempts: 2, MaxWait: time.Second, ClampWait: true,
		Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }}}}
	resp, err := c.Get(srv.URL)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, "the last response, once the attempts ran out")
	assert.Equal(t, []time.Duration{time.Second}, slept, "clamped to MaxWait")
}

func TestTransportDoesNotRetryWhatItCannotReplay(t *testing.T) {
	t.Parallel()
	srv, calls := server(t, func(_ int, w http.ResponseWriter) { w.WriteHeader(http.StatusBadGateway) })
	req, _ := http.NewRequest(http.MethodPost, srv.URL, io.NopCloser(strings.NewReader("once")))
	resp, err := (&Transport{Policy: Policy{Base: time.Millisecond}}).RoundTrip(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, int32(1), calls.Load())
}

// fakeClock is a Policy's Now and Sleep on a clock that only sleeping
// moves, with the waits it was asked for.
type fakeClock struct {
	now   time.Time
	waits []time.Duration
}

func (c *fakeClock) policy(p Policy) Policy {
	c.now = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	p.Now = func() time.Time { return c.now }
	p.Sleep = func(_ context.Context, d time.Duration) error {
		c.waits = append(c.waits, d)
		c.now = c.now.Add(d)
		return nil
	}
	return p
}

// TestDeadlineBoundsRetriesByTime: with a Deadline and no Attempts, a
// server that keeps refusing is retried until the next wait would end past
// the deadline, however many attempts that takes; the count alone never
// stops it.
func TestDeadlineBoundsRetriesByTime(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	var c fakeClock
	tr := &Transport{Policy: c.policy(Policy{Deadline: time.Minute, Base: time.Second, MaxWait: time.Second})}
	req, err := http.NewRequest(http.MethodGet, srv.URL, nil)
	require.NoError(t, err)
	resp, err := tr.RoundTrip(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	assert.Greater(t, hits.Load(), int64(5), "more than the default 5 attempts")
	var waited time.Duration
	for _, w := range c.waits {
		waited += w
	}
	assert.LessOrEqual(t, waited, time.Minute)
	assert.Equal(t, int64(len(c.waits)+1), hits.Load())
}

// TestFullJitterDrawsFromZeroToTheWait: each wait is uniform in [0, the
// server's Retry-After or the backoff cap]: never above it, and not always
// in its upper half as equal jitter would be.
func TestFullJitterDrawsFromZeroToTheWait(t *testing.T) {
	t.Parallel()
	p := Policy{FullJitter: true, Base: time.Millisecond, MaxWait: time.Minute}.withDefaults()
	low := 0
	for range 1000 {
		d, ok := p.wait(1, Verdict{Retry: true, After: time.Second})
		require.True(t, ok)
		require.GreaterOrEqual(t, d, time.Duration(0))
		require.LessOrEqual(t, d, time.Second)
		if d < 500*time.Millisecond {
			low++
		}
	}
	assert.Greater(t, low, 300, "about half the draws fall in the lower half")
}

// TestGateQueuedRetryDoesNotWait: a Gate sees every attempt with its
// verdict, and a retry it says it queues is made without the Transport's
// own wait.
func TestGateQueuedRetryDoesNotWait(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if hits.Add(1) < 3 {
			w.Header().Set("Retry-After", "30")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	var c fakeClock
	var gated, judged []int
	p := c.policy(Policy{MaxWait: time.Minute, Gate: func(*http.Request) (func(*http.Response, Verdict) bool, error) {
		gated = append(gated, len(gated)+1)
		return func(resp *http.Response, v Verdict) bool {
			judged = append(judged, resp.StatusCode)
			return v.Retry
		}, nil
	}})
	resp, err := (&Transport{Policy: p}).RoundTrip(httptest.NewRequest(http.MethodGet, srv.URL, nil).WithContext(context.Background()))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, []int{1, 2, 3}, gated)
	assert.Equal(t, []int{429, 429, 200}, judged)
	assert.Equal(t, []time.Duration{0, 0}, c.waits, "queued by the gate: no wait of the Transport's own")
}

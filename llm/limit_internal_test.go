package llm

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBurstRefusalsLearnTheProvidersLevel: --concurrency requests leave at
// once and reach the provider in any order, so one sent early (few in
// flight when it was sent) may be refused for ones sent after it. The
// window learns what the provider held when it refused, not the early
// count: here 32 sent, the provider serves 8 and refuses the rest, the
// refusal of the 3rd sent arriving first. The window ends at 8, not 2.
func TestBurstRefusalsLearnTheProvidersLevel(t *testing.T) {
	t.Parallel()
	l := &limiter{owner: &Limits{}, now: time.Now}
	permits := make([]*permit, 32)
	l.mu.Lock()
	for i := range permits {
		permits[i] = l.admit()
	}
	l.mu.Unlock()
	refused := &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"1"}}}
	// Served: the 1st, 2nd and 4th..9th sent; refused: the 3rd and 10th..32nd.
	order := append([]int{2}, func() []int {
		var r []int
		for i := 9; i < 32; i++ {
			r = append(r, i)
		}
		return r
	}()...)
	for _, i := range order {
		assert.True(t, l.release(permits[i], refused), "the %dth sent is retried in its turn, not after Retry-After", i+1)
	}
	assert.Equal(t, 8, l.bound(), "the window is what the provider held")
	assert.Equal(t, 8, l.inflight)
}

// TestTokensPerMinutePaces: a configured tokens-per-minute lets a
// minute's worth of tokens through at once, then holds each request back
// until the tokens it is expected to use (a running estimate from the
// answers) have been earned again, and an answer that used more or fewer
// tokens than expected settles the difference.
func TestTokensPerMinutePaces(t *testing.T) {
	t.Parallel()
	now := time.Unix(1e9, 0)
	l := &limiter{owner: &Limits{}, now: func() time.Time { return now }, tpm: 6000, bucket: 6000, refilled: now}
	send := func() *permit {
		t.Helper()
		l.mu.Lock()
		defer l.mu.Unlock()
		ok, wake := l.canAdmit(now)
		require.True(t, ok, "held back %v", wake)
		return l.admit()
	}
	wait := func() time.Duration {
		l.mu.Lock()
		defer l.mu.Unlock()
		ok, wake := l.canAdmit(now)
		require.False(t, ok)
		return wake
	}
	// The first answer sets the estimate: 1,000 tokens a request.
	p := send()
	l.finish(p)
	l.settle(p, 1000)
	// 5,000 tokens left: five more at once.
	for range 5 {
		p := send()
		l.finish(p)
		l.settle(p, 1000)
	}
	// The bucket is empty: 1,000 tokens at 100 a second is 10 s.
	assert.InDelta(t, 10*time.Second, wait(), float64(time.Millisecond))
	now = now.Add(4 * time.Second)
	assert.InDelta(t, 6*time.Second, wait(), float64(time.Millisecond))
	now = now.Add(6 * time.Second)
	p = send()
	l.finish(p)
	// It used 3,000, not the 1,000 expected: 2,000 more to earn back
	// before the next (whose estimate is now 1,400).
	l.settle(p, 3000)
	assert.InDelta(t, 1400, l.estimate(), 1e-9)
	assert.InDelta(t, 34*time.Second, wait(), float64(time.Millisecond))
	// A request larger than a minute's tokens waits for a full bucket, not forever.
	l.tokensPerRequest = 1e6
	assert.InDelta(t, 80*time.Second, wait(), float64(time.Millisecond))
}

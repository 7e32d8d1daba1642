package llm_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
)

// completeAll makes calls calls from workers goroutines through models
// (round robin) and returns how many failed.
func completeAll(t *testing.T, models []llm.Model, workers, calls int) int {
	t.Helper()
	var next, failed atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= calls {
					return
				}
				if _, err := models[i%len(models)].Complete(context.Background(), llm.Request{Messages: userMsg(fmt.Sprint(i))}); err != nil {
					t.Logf("call %d: %v", i, err)
					failed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return int(failed.Load())
}

// limitedModels are n clients of srv sharing limits, with retries bounded
// by time only (llm's default), as a run's agent, user and judge are.
func limitedModels(t *testing.T, srv *llmtest.Server, limits *llm.Limits, n int) []llm.Model {
	t.Helper()
	models := make([]llm.Model, n)
	for i := range models {
		models[i] = newOpenAI(t, srv, func(c *llm.OpenAIConfig) {
			c.MaxRetries = 0
			c.Limits = limits
		})
	}
	return models
}

// TestLimitsNoCallLostUnderInFlightLimit: a provider that refuses beyond K
// requests in flight (429 with Retry-After) loses no call of three clients
// sharing one Limits, and the shared limiter learns K: far fewer refusals
// than calls, a bound of about K.
func TestLimitsNoCallLostUnderInFlightLimit(t *testing.T) {
	t.Parallel()
	const k, workers, calls = 4, 24, 120
	srv := llmtest.NewServer(t)
	srv.SetLimit(llmtest.Limit{MaxInFlight: k, RetryAfter: time.Second})
	srv.Handle(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: "ok", Delay: 10 * time.Millisecond} })
	limits := llm.NewLimits(llm.EndpointLimits{})

	failed := completeAll(t, limitedModels(t, srv, limits, 3), workers, calls)

	require.Zero(t, failed, "a rate limit never loses a call while the provider answers")
	st := srv.LimitStats()
	assert.Equal(t, calls, st.Admitted)
	assert.LessOrEqual(t, st.MaxInFlight, k)
	assert.Positive(t, st.Refused, "the limit was hit")
	// Without a limiter every round refuses workers-k of workers calls:
	// far more refusals than calls.
	assert.Less(t, st.Refused, calls/2, "the limiter learned the limit")
	ts := limits.Stats()
	assert.Equal(t, int64(st.Refused), ts.Refused)
	assert.Positive(t, ts.Waits)
	assert.GreaterOrEqual(t, ts.Limit, 1)
	assert.LessOrEqual(t, ts.Limit, k+1, "the learned bound is K, or K+1 while probing")
	assert.Zero(t, ts.InFlight)
}

// TestLimitsMaxRequestsNeverExceeded: a configured bound is never exceeded
// and is shared by every client of the endpoint.
func TestLimitsMaxRequestsNeverExceeded(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.SetLimit(llmtest.Limit{})
	srv.Handle(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: "ok", Delay: 5 * time.Millisecond} })
	limits := llm.NewLimits(llm.EndpointLimits{})
	models := []llm.Model{
		newOpenAI(t, srv, func(c *llm.OpenAIConfig) { c.Limits, c.MaxRequests = limits, 3 }),
		newOpenAI(t, srv, func(c *llm.OpenAIConfig) { c.Limits = limits }),
	}
	require.Zero(t, completeAll(t, models, 12, 60))
	st := srv.LimitStats()
	assert.Equal(t, 60, st.Admitted)
	assert.LessOrEqual(t, st.MaxInFlight, 3)
	assert.Equal(t, 3, limits.Stats().Limit)
}

// TestLimitsPaceByRatelimitHeaders: a provider that allows R requests per
// window and says so in x-ratelimit-* headers is (almost) never refused:
// the limiter holds requests until the reset once the remaining are spent.
// The same provider without the headers refuses many more. As many
// workers as the window admits, and a window long enough that the one
// after them is sent within it however loaded the machine (at 8 workers
// and 100 ms a loaded machine sent fewer than the window admits, and the
// provider without headers refused none).
func TestLimitsPaceByRatelimitHeaders(t *testing.T) {
	t.Parallel()
	const perWindow, workers, calls = 10, 10, 40
	run := func(headers bool) llmtest.LimitStats {
		srv := llmtest.NewServer(t)
		srv.SetLimit(llmtest.Limit{Requests: perWindow, Window: 500 * time.Millisecond, Headers: headers})
		srv.Handle(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: "ok", Delay: time.Millisecond} })
		require.Zero(t, completeAll(t, limitedModels(t, srv, llm.NewLimits(llm.EndpointLimits{}), 1), workers, calls))
		return srv.LimitStats()
	}
	with, without := run(true), run(false)
	t.Logf("refused with headers %d, without %d (of %d calls)", with.Refused, without.Refused, calls)
	assert.Equal(t, calls, with.Admitted)
	assert.Equal(t, calls, without.Admitted)
	// At most one a window: the provider's window starts at the first
	// request after the last one ended, the limiter's when the last reset
	// said, so a window's first request may come a little early.
	assert.LessOrEqual(t, with.Refused, calls/perWindow, "paced by the headers before a 429")
	assert.Greater(t, without.Refused, with.Refused)
}

func TestNewOpenAIRejectsNegativeLimits(t *testing.T) {
	t.Parallel()
	for _, cfg := range []llm.OpenAIConfig{{Model: "m", MaxRequests: -1}, {Model: "m", TokensPerMinute: -5}} {
		_, err := llm.NewOpenAI(cfg)
		assert.ErrorContains(t, err, "negative")
	}
}

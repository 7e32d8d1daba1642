package github

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/internal/githubfake"
	"github.com/agenteval/agenteval/internal/httpretry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeSleeper records waits instead of sleeping.
type fakeSleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (f *fakeSleeper) sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	f.waits = append(f.waits, d)
	f.mu.Unlock()
	return ctx.Err()
}

func newLimitedEnv(t *testing.T, maxWait time.Duration, sleep func(context.Context, time.Duration) error) (*githubfake.Server, checkpoint.Executor) {
	t.Helper()
	s := githubfake.NewServer(t)
	s.AddRepo("acme/demo").AddWorkflow(githubfake.Workflow{Name: "CI", Path: ".github/workflows/ci.yml"})
	return s, NewExecutor(NewClient(Config{GraphQLURL: s.GraphQLURL(), Transport: s.Client().Transport, MaxWait: maxWait, sleep: sleep}), ExecutorOptions{})
}

var demo = map[string]any{"owner": "acme", "name": "demo"}

func TestRateLimitWaitThenSuccess(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		task     string
		limit    githubfake.RateLimit
		resetIn  time.Duration
		min, max time.Duration
	}{
		{"primary 403 graphql", "repo.view", githubfake.RateLimit{Requests: 1}, 30 * time.Second, 28 * time.Second, 31 * time.Second},
		{"primary 403 rest", "workflow.list", githubfake.RateLimit{Requests: 2}, 20 * time.Second, 18 * time.Second, 21 * time.Second},
		{"429 retry-after", "repo.view", githubfake.RateLimit{Requests: 1, Status: http.StatusTooManyRequests, RetryAfter: 7 * time.Second}, time.Hour, 7 * time.Second, 7 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fs := &fakeSleeper{}
			s, ex := newLimitedEnv(t, time.Minute, fs.sleep)
			tc.limit.Reset = time.Now().Add(tc.resetIn)
			s.SimulateRateLimit(tc.limit)
			data, err := ex.Execute(context.Background(), tc.task, demo)
			require.NoError(t, err)
			require.NotNil(t, data)
			require.Len(t, fs.waits, tc.limit.Requests)
			for _, w := range fs.waits {
				assert.GreaterOrEqual(t, w, tc.min)
				assert.LessOrEqual(t, w, tc.max)
			}
			assert.Equal(t, tc.limit.Requests+1, s.RequestCount(""))
		})
	}
}

func TestRateLimitBeyondMaxWait(t *testing.T) {
	t.Parallel()
	fs := &fakeSleeper{}
	s, ex := newLimitedEnv(t, 10*time.Second, fs.sleep)
	reset := time.Now().Add(time.Hour)
	s.SimulateRateLimit(githubfake.RateLimit{Requests: 5, Reset: reset})
	_, err := ex.Execute(context.Background(), "repo.view", demo)
	require.ErrorIs(t, err, ErrRateLimited)
	var rl *Error
	require.ErrorAs(t, err, &rl)
	assert.Equal(t, "repo.view", rl.Task)
	assert.Equal(t, http.StatusForbidden, rl.Status)
	assert.WithinDuration(t, reset, rl.Reset, time.Second)
	assert.Equal(t, 10*time.Second, rl.MaxWait)
	assert.Empty(t, fs.waits, "no waiting when the reset is too far")
	assert.Equal(t, 1, s.RequestCount(""))
}

func TestRateLimitRetriesBounded(t *testing.T) {
	t.Parallel()
	fs := &fakeSleeper{}
	s, ex := newLimitedEnv(t, time.Minute, fs.sleep)
	s.SimulateRateLimit(githubfake.RateLimit{Requests: 100, RetryAfter: time.Second})
	_, err := ex.Execute(context.Background(), "repo.view", demo)
	require.ErrorIs(t, err, ErrRateLimited)
	assert.Len(t, fs.waits, 4, "the client's five attempts in all")
	assert.Equal(t, 5, s.RequestCount(""))
}

func TestRateLimitWaitCancelled(t *testing.T) {
	t.Parallel()
	s, ex := newLimitedEnv(t, time.Minute, httpretry.Sleep)
	s.SimulateRateLimit(githubfake.RateLimit{Requests: 1, RetryAfter: 30 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := ex.Execute(ctx, "repo.view", demo)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 5*time.Second)
}

// TestRateLimitRealWait waits for real once: Retry-After: 1.
func TestRateLimitRealWait(t *testing.T) {
	t.Parallel()
	s, ex := newLimitedEnv(t, time.Minute, httpretry.Sleep)
	s.SimulateRateLimit(githubfake.RateLimit{Requests: 1, Status: http.StatusTooManyRequests, RetryAfter: time.Second})
	start := time.Now()
	_, err := ex.Execute(context.Background(), "repo.view", demo)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(start), time.Second)
}

// TestGraphQLRateLimitedError covers GitHub's other shape: HTTP 200 with a
// RATE_LIMITED GraphQL error and reset headers.
func TestGraphQLRateLimitedError(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if n == 1 {
			w.Header().Set("X-Ratelimit-Remaining", "0")
			w.Header().Set("X-Ratelimit-Reset", "2000000000")
			_, _ = w.Write([]byte(`{"errors":[{"type":"RATE_LIMITED","message":"API rate limit exceeded"}]}`))
			return
		}
		_, _ = w.Write([]byte(`{"data":{"repository":{"id":"R_1","name":"demo","nameWithOwner":"acme/demo","isPrivate":false,"stargazerCount":0,"forkCount":0,"url":"u","defaultBranchRef":null}}}`))
	}))
	t.Cleanup(srv.Close)
	fs := &fakeSleeper{}
	now := func() time.Time { return time.Unix(2000000000-5, 0) }
	ex := NewExecutor(NewClient(Config{GraphQLURL: srv.URL + "/graphql", Transport: srv.Client().Transport, sleep: fs.sleep, now: now}), ExecutorOptions{})
	data, err := ex.Execute(context.Background(), "repo.view", demo)
	require.NoError(t, err)
	assert.Equal(t, "acme/demo", data.(map[string]any)["nameWithOwner"])
	assert.Equal(t, []time.Duration{5 * time.Second}, fs.waits)
}

// TestNonRateLimitFailures checks that a 403 without rate-limit signs is a
// permission error (no waiting) and a 502, once retried, an Error of no kind with
// the status.
func TestNonRateLimitFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		body   string
		want   string
		waits  int
	}{
		{"forbidden", http.StatusForbidden, `{"message":"Resource not accessible by integration"}`, "repo.view: github HTTP 403: Resource not accessible by integration", 0},
		{"bad gateway", http.StatusBadGateway, `{"message":"Server Error"}`, "repo.view: github HTTP 502: Server Error", 4},
		{"graphql forbidden", http.StatusOK, `{"data":{"repository":null},"errors":[{"type":"FORBIDDEN","message":"no access"}]}`, "repo.view: github FORBIDDEN: no access", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}))
			t.Cleanup(srv.Close)
			fs := &fakeSleeper{}
			ex := NewExecutor(NewClient(Config{GraphQLURL: srv.URL + "/graphql", Transport: srv.Client().Transport, sleep: fs.sleep}), ExecutorOptions{})
			_, err := ex.Execute(context.Background(), "repo.view", demo)
			var api *Error
			require.ErrorAs(t, err, &api)
			assert.Nil(t, api.Kind)
			assert.Equal(t, tc.want, err.Error())
			assert.Len(t, fs.waits, tc.waits)
		})
	}
}

package llmtest_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
)

func ask(t *testing.T, m llm.Model, text string) (llm.Response, error) {
	t.Helper()
	return m.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: text}}})
}

func TestQueueThenFallback(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Text("one"), llmtest.JSON(map[string]int{"n": 2}))
	srv.EnqueueFunc(func(r llmtest.Request) llmtest.Reply { return llmtest.Text("echo " + r.LastUserMessage()) })
	m := srv.Model()
	assert.Equal(t, 3, srv.Pending())

	for _, want := range []string{"one", `{"n":2}`, "echo three"} {
		resp, err := ask(t, m, "three")
		require.NoError(t, err)
		assert.Equal(t, want, resp.Content)
	}
	assert.Zero(t, srv.Pending())

	_, err := ask(t, m, "unscripted")
	var apiErr *llm.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Equal(t, "llmtest_unscripted", apiErr.Type)

	srv.Handle(func(llmtest.Request) llmtest.Reply { return llmtest.Text("fallback") })
	resp, err := ask(t, m, "x")
	require.NoError(t, err)
	assert.Equal(t, "fallback", resp.Content)

	reqs := srv.Requests()
	require.Len(t, reqs, 5)
	for i, r := range reqs {
		assert.Equal(t, i, r.Index)
		assert.Equal(t, http.MethodPost, r.Method)
		assert.NoError(t, r.DecodeError)
	}
}

func TestScriptedFailuresAndHeaders(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{Status: http.StatusServiceUnavailable, Header: http.Header{"X-Test": {"1"}}, RetryAfterMs: 5},
		llmtest.Reply{Content: "slow", Delay: 30 * time.Millisecond, Usage: &llm.Usage{TotalTokens: 9}, Model: "m2"},
	)
	start := time.Now()
	resp, err := ask(t, srv.Model(), "x")
	require.NoError(t, err)
	assert.Equal(t, "slow", resp.Content)
	assert.Equal(t, "m2", resp.Model)
	assert.Equal(t, 9, resp.Usage.TotalTokens)
	assert.GreaterOrEqual(t, time.Since(start), 30*time.Millisecond)
	assert.Len(t, srv.Requests(), 2)
}

func TestRateLimitedHeaders(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "2", llmtest.RateLimited(2*time.Second).RetryAfter)
	r := llmtest.RateLimited(250 * time.Millisecond)
	assert.Equal(t, 250, r.RetryAfterMs)
	assert.Empty(t, r.RetryAfter)
	assert.Equal(t, http.StatusTooManyRequests, r.Status)
}

func TestUnknownPath(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	resp, err := http.Get(srv.URL + "/files")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}

func TestMalformedRequestIsRecorded(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Handle(func(llmtest.Request) llmtest.Reply { return llmtest.Text("ok") })
	resp, err := http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader("{not json"))
	require.NoError(t, err)
	resp.Body.Close()
	reqs := srv.Requests()
	require.Len(t, reqs, 1)
	assert.Error(t, reqs[0].DecodeError)
	assert.Equal(t, "{not json", string(reqs[0].Body))
}

func TestConcurrentRequests(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	for range 50 {
		srv.Enqueue(llmtest.Text("q"))
	}
	srv.Handle(func(r llmtest.Request) llmtest.Reply { return llmtest.Text("h") })
	m := srv.Model()
	var wg sync.WaitGroup
	var mu sync.Mutex
	counts := map[string]int{}
	for range 100 {
		wg.Go(func() {
			resp, err := ask(t, m, "x")
			if assert.NoError(t, err) {
				mu.Lock()
				counts[resp.Content]++
				mu.Unlock()
			}
			_ = srv.Requests()
			_ = srv.Pending()
		})
	}
	wg.Wait()
	assert.Equal(t, map[string]int{"q": 50, "h": 50}, counts, "each queued reply is used exactly once")
	assert.Len(t, srv.Requests(), 100)
}

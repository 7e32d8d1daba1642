package llmtest_test

import (
	"bufio"
	"context"
	"encoding/json"
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

// TestStreamedReplies: a request with "stream": true is answered as OpenAI
// streams: server-sent chunks whose deltas add up to the scripted text and
// tool calls, the finish reason, the usage when stream_options asks for
// it, and [DONE].
func TestStreamedReplies(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	u := llm.Usage{PromptTokens: 12, CompletionTokens: 5, TotalTokens: 17, CacheReadTokens: 4}
	srv.Enqueue(
		llmtest.Reply{Content: "Hello, wörld", Usage: &u},
		llmtest.Calls(llm.ToolCall{ID: "c1", Name: "bash", Arguments: json.RawMessage(`{"command":"ls"}`)}),
	)
	for i, tc := range []struct {
		usage          bool
		text, finish   string
		call, callArgs string
	}{
		{usage: true, text: "Hello, wörld", finish: "stop"},
		{usage: false, finish: "tool_calls", call: "bash", callArgs: `{"command":"ls"}`},
	} {
		body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]`
		if tc.usage {
			body += `,"stream_options":{"include_usage":true}`
		}
		resp, err := http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader(body+"}"))
		require.NoError(t, err)
		assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
		sc := bufio.NewScanner(resp.Body)
		var text, finish, name, args string
		var usage map[string]any
		done := false
		for sc.Scan() {
			line, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			if line == "[DONE]" {
				done = true
				continue
			}
			var chunk struct {
				Choices []struct {
					Delta struct {
						Content   string `json:"content"`
						ToolCalls []struct {
							Function struct{ Name, Arguments string } `json:"function"`
						} `json:"tool_calls"`
					} `json:"delta"`
					FinishReason *string `json:"finish_reason"`
				} `json:"choices"`
				Usage map[string]any `json:"usage"`
			}
			require.NoError(t, json.Unmarshal([]byte(line), &chunk), line)
			if chunk.Usage != nil {
				usage = chunk.Usage
			}
			for _, c := range chunk.Choices {
				text += c.Delta.Content
				for _, call := range c.Delta.ToolCalls {
					name += call.Function.Name
					args += call.Function.Arguments
				}
				if c.FinishReason != nil {
					finish = *c.FinishReason
				}
			}
		}
		resp.Body.Close()
		assert.True(t, done, "case %d ends with [DONE]", i)
		assert.Equal(t, tc.text, text, "case %d", i)
		assert.Equal(t, tc.finish, finish, "case %d", i)
		assert.Equal(t, tc.call, name, "case %d", i)
		assert.Equal(t, tc.callArgs, args, "case %d", i)
		if tc.usage {
			assert.EqualValues(t, 12, usage["prompt_tokens"])
			assert.EqualValues(t, map[string]any{"cached_tokens": 4.0}, usage["prompt_tokens_details"])
		} else {
			assert.Nil(t, usage)
		}
	}
}

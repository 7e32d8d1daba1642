package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/openaiwire"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
	"github.com/agenteval/agenteval/redact"
)

func newOpenAI(t *testing.T, srv *llmtest.Server, edit func(*llm.OpenAIConfig)) llm.Model {
	t.Helper()
	cfg := srv.Config()
	if edit != nil {
		edit(&cfg)
	}
	m, err := llm.NewOpenAI(cfg)
	require.NoError(t, err)
	return m
}

func userMsg(s string) []llm.Message {
	return []llm.Message{{Role: llm.RoleUser, Content: s}}
}

func TestOpenAICompleteSendsRequestAndReadsReply(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Content: "hello", Usage: &llm.Usage{PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5}, Model: "served-model"})
	m := newOpenAI(t, srv, nil)

	temp, seed := 0.0, int64(7)
	resp, err := m.Complete(context.Background(), llm.Request{
		Messages:    []llm.Message{{Role: llm.RoleSystem, Content: "sys"}, {Role: llm.RoleUser, Content: "hi", Name: "alice"}},
		Temperature: &temp, Seed: &seed, MaxTokens: 64,
	})
	require.NoError(t, err)
	assert.Equal(t, "hello", resp.Content)
	assert.Equal(t, "served-model", resp.Model)
	assert.Equal(t, "stop", resp.FinishReason)
	assert.Equal(t, llm.Usage{PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5}, resp.Usage)

	reqs := srv.Requests()
	require.Len(t, reqs, 1)
	r := reqs[0]
	require.NoError(t, r.DecodeError)
	assert.Equal(t, "/v1/chat/completions", r.Path)
	assert.Equal(t, "Bearer "+srv.Config().APIKey, r.Header.Get("Authorization"))
	assert.Equal(t, srv.Config().Model, r.Chat.Model)
	require.NotNil(t, r.Chat.Temperature, "an explicit 0 temperature must be sent, not dropped")
	assert.Equal(t, 0.0, *r.Chat.Temperature)
	require.NotNil(t, r.Chat.Seed)
	assert.Equal(t, int64(7), *r.Chat.Seed)
	assert.Equal(t, 64, r.Chat.MaxTokens)
	assert.Nil(t, r.Chat.JSONSchema)
	var wire map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &wire))
	assert.EqualValues(t, 64, wire["max_completion_tokens"], "the length bound goes as max_completion_tokens")
	assert.NotContains(t, wire, "max_tokens")
	require.Len(t, r.Chat.Messages, 2)
	assert.Equal(t, "alice", r.Chat.Messages[1].Name)
	assert.Equal(t, "hi", r.LastUserMessage())
}

func TestOpenAIStructuredOutputBodyShape(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Text(`{"ok":true}`))
	m := newOpenAI(t, srv, nil)

	schema := json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"],"additionalProperties":false}`)
	_, err := m.Complete(context.Background(), llm.Request{
		Messages:   userMsg("x"),
		JSONSchema: &llm.JSONSchema{Name: "thing", Schema: schema, Strict: true},
	})
	require.NoError(t, err)

	var body map[string]any
	require.NoError(t, json.Unmarshal(srv.Requests()[0].Body, &body))
	rf, ok := body["response_format"].(map[string]any)
	require.True(t, ok, "response_format missing: %s", srv.Requests()[0].Body)
	assert.Equal(t, "json_schema", rf["type"])
	js := rf["json_schema"].(map[string]any)
	assert.Equal(t, "thing", js["name"])
	assert.Equal(t, true, js["strict"])
	assert.Equal(t, "object", js["schema"].(map[string]any)["type"])
	_, hasTemp := body["temperature"]
	assert.False(t, hasTemp, "an unset temperature must be omitted")
}

func TestOpenAIToolCallsRoundTrip(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Calls(
			llm.ToolCall{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)},
			llm.ToolCall{ID: "call_2", Name: "broken", Arguments: json.RawMessage(`{"city":`)},
		),
		llmtest.Text("It is sunny in Oslo."),
	)
	m := newOpenAI(t, srv, nil)
	tools := []llm.Tool{{Name: "get_weather", Description: "Weather by city",
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}}
	ctx := context.Background()

	msgs := userMsg("Weather in Oslo?")
	first, err := m.Complete(ctx, llm.Request{Messages: msgs, Tools: tools})
	require.NoError(t, err)
	assert.Equal(t, "tool_calls", first.FinishReason)
	require.Len(t, first.ToolCalls, 2)
	assert.Equal(t, llm.ToolCall{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)}, first.ToolCalls[0])
	assert.JSONEq(t, `"{\"city\":"`, string(first.ToolCalls[1].Arguments), "invalid argument JSON is kept as a string")

	msgs = append(msgs,
		llm.Message{Role: llm.RoleAssistant, ToolCalls: first.ToolCalls},
		llm.Message{Role: llm.RoleTool, ToolCallID: "call_1", Content: `{"sky":"clear"}`},
		llm.Message{Role: llm.RoleTool, ToolCallID: "call_2", Content: `error: bad arguments`},
	)
	second, err := m.Complete(ctx, llm.Request{Messages: msgs, Tools: tools})
	require.NoError(t, err)
	assert.Equal(t, "It is sunny in Oslo.", second.Content)

	reqs := srv.Requests()
	require.Len(t, reqs, 2)
	require.Len(t, reqs[0].Chat.Tools, 1)
	assert.Equal(t, tools[0].Name, reqs[0].Chat.Tools[0].Name)
	var wire [2]openaiwire.Request
	for i := range wire {
		require.NoError(t, json.Unmarshal(reqs[i].Body, &wire[i]))
	}
	assert.Equal(t, "function", wire[0].Tools[0].Type)
	assert.Equal(t, "get_weather", wire[0].Tools[0].Function.Name)

	sent := wire[1].Messages
	require.Len(t, sent, 4)
	assert.Nil(t, sent[1].Content, "a tool-calling assistant message carries null content")
	require.Len(t, sent[1].ToolCalls, 2)
	assert.Equal(t, "get_weather", sent[1].ToolCalls[0].Function.Name)
	assert.Equal(t, `{"city":"Oslo"}`, sent[1].ToolCalls[0].Function.Arguments)
	assert.Equal(t, `{"city":`, sent[1].ToolCalls[1].Function.Arguments, "arguments go back exactly as the model sent them")
	assert.Equal(t, "call_1", sent[2].ToolCallID)
	assert.Equal(t, "tool", sent[2].Role)
}

// TestOpenAIRetryWaitsDrawnUnderRetryAfter: a 429's wait is drawn with full
// jitter from zero to the server's Retry-After (retry-after-ms or seconds),
// capped by MaxBackoff, never from the much shorter backoff alone.
func TestOpenAIRetryWaitsDrawnUnderRetryAfter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		reply      llmtest.Reply
		maxBackoff time.Duration
		ceiling    time.Duration
	}{
		{"retry-after-ms", llmtest.RateLimited(60 * time.Millisecond), time.Second, 60 * time.Millisecond},
		{"Retry-After seconds capped by MaxBackoff", llmtest.Reply{Status: 429, RetryAfter: "1"}, 80 * time.Millisecond, 80 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t)
			const refusals = 5 // the backoff (1 ms doubled) stays under the ceilings
			for range refusals {
				srv.Enqueue(tt.reply)
			}
			srv.Enqueue(llmtest.Text("ok"))
			var mu sync.Mutex
			var waits []time.Duration
			m := newOpenAI(t, srv, func(c *llm.OpenAIConfig) {
				c.Backoff = time.Millisecond
				c.MaxBackoff = tt.maxBackoff
				c.MaxRetries = refusals
				c.OnRetry = func(_ int, wait time.Duration, _ error) {
					mu.Lock()
					defer mu.Unlock()
					waits = append(waits, wait)
				}
			})
			resp, err := m.Complete(context.Background(), llm.Request{Messages: userMsg("x")})
			require.NoError(t, err)
			assert.Equal(t, "ok", resp.Content)
			assert.Len(t, srv.Requests(), refusals+1)
			require.Len(t, waits, refusals)
			longest := time.Duration(0)
			for _, w := range waits {
				assert.GreaterOrEqual(t, w, time.Duration(0))
				assert.LessOrEqual(t, w, tt.ceiling)
				longest = max(longest, w)
			}
			// Five draws from [0, ceiling] all under 2 ms would
			// mean the server's wait was ignored (chance under 1e-7).
			assert.Greater(t, longest, 2*time.Millisecond)
		})
	}
}

func TestOpenAIServerErrorsExhaustRetries(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Handle(func(llmtest.Request) llmtest.Reply {
		return llmtest.Error(http.StatusBadGateway, "server_error", "upstream down")
	})
	m := newOpenAI(t, srv, func(c *llm.OpenAIConfig) { c.MaxRetries = 2 })
	_, err := m.Complete(context.Background(), llm.Request{Messages: userMsg("x")})
	require.Error(t, err)
	var apiErr *llm.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusBadGateway, apiErr.StatusCode)
	assert.Equal(t, "server_error", apiErr.Type)
	assert.Contains(t, err.Error(), "gave up after 3 attempts")
	assert.Len(t, srv.Requests(), 3)
}

func TestOpenAIDoesNotRetryClientErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
	}{
		{"bad request", http.StatusBadRequest},
		{"unauthorized", http.StatusUnauthorized},
		{"not found", http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t)
			srv.Handle(func(llmtest.Request) llmtest.Reply {
				return llmtest.Error(tt.status, "invalid_request_error", "nope")
			})
			_, err := newOpenAI(t, srv, nil).Complete(context.Background(), llm.Request{Messages: userMsg("x")})
			var apiErr *llm.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, tt.status, apiErr.StatusCode)
			assert.NotContains(t, err.Error(), "gave up", "a single attempt is not reported as retries")
			assert.Len(t, srv.Requests(), 1)
		})
	}
}

func TestOpenAINegativeMaxRetriesFailsFast(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.RateLimited(time.Millisecond), llmtest.Text("never"))
	m := newOpenAI(t, srv, func(c *llm.OpenAIConfig) { c.MaxRetries = -1 })
	_, err := m.Complete(context.Background(), llm.Request{Messages: userMsg("x")})
	var apiErr *llm.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
	assert.Len(t, srv.Requests(), 1)
}

func TestOpenAIAttemptTimeout(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	// The delay outlasts the attempts by far, and each attempt is long
	// enough to reach the server on a loaded machine (30 ms was not: the
	// second request was sometimes cut off before the server saw it).
	srv.Handle(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: "late", Delay: 10 * time.Second} })
	m := newOpenAI(t, srv, func(c *llm.OpenAIConfig) {
		c.Timeout = 300 * time.Millisecond
		c.MaxRetries = 1
	})
	start := time.Now()
	_, err := m.Complete(context.Background(), llm.Request{Messages: userMsg("x")})
	require.Error(t, err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.Len(t, srv.Requests(), 2, "a timed-out attempt is retried")
}

func TestOpenAICancelWhileWaitingToRetry(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Handle(func(llmtest.Request) llmtest.Reply { return llmtest.RateLimited(10 * time.Second) })
	m := newOpenAI(t, srv, func(c *llm.OpenAIConfig) { c.MaxBackoff = time.Minute })
	// The deadline must come after the first 429 has arrived (a loaded
	// machine took over 50 ms to answer it) and long before the 10 s the
	// server asks to wait: the call must end at the deadline, not after it.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	_, err := m.Complete(ctx, llm.Request{Messages: userMsg("x")})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	var apiErr *llm.APIError
	require.ErrorAs(t, err, &apiErr, "the last API error stays reachable")
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
	assert.Less(t, time.Since(start), 8*time.Second, "the wait for Retry-After (10 s) was cut short by the deadline")
}

func TestOpenAIMalformedResponses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		want string
	}{
		{"not json", `<html>oops</html>`, "decode response"},
		{"no choices", `{"choices":[]}`, "no choices"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t)
			srv.Enqueue(llmtest.Reply{Body: tt.body})
			_, err := newOpenAI(t, srv, nil).Complete(context.Background(), llm.Request{Messages: userMsg("x")})
			require.ErrorContains(t, err, tt.want)
			assert.Len(t, srv.Requests(), 1, "a malformed 200 is not retried")
		})
	}
}

func TestOpenAIErrorsNeverContainTheKey(t *testing.T) {
	t.Parallel()
	const key = "sk-test-SECRET-0123456789"
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Error(http.StatusUnauthorized, "invalid_request_error", "Incorrect API key provided: "+key))
	srv.Enqueue(llmtest.Reply{Status: http.StatusBadRequest, Body: "raw text echoing " + key})
	m := newOpenAI(t, srv, func(c *llm.OpenAIConfig) { c.APIKey = key })
	for range 2 {
		_, err := m.Complete(context.Background(), llm.Request{Messages: userMsg("x")})
		require.Error(t, err)
		assert.NotContains(t, err.Error(), key)
		assert.Contains(t, err.Error(), redact.Mask)
	}
	assert.Equal(t, "Bearer "+key, srv.Requests()[0].Header.Get("Authorization"))
}

func TestNewOpenAIEnvironment(t *testing.T) {
	// Not parallel: it sets environment variables.
	srv := llmtest.NewServer(t)
	srv.Handle(func(llmtest.Request) llmtest.Reply { return llmtest.Text("ok") })
	t.Setenv("OPENAI_BASE_URL", srv.URL)
	t.Setenv("MY_KEY", "from-env")

	m, err := llm.NewOpenAI(llm.OpenAIConfig{Model: "m", APIKeyEnv: "MY_KEY"})
	require.NoError(t, err)
	_, err = m.Complete(context.Background(), llm.Request{Messages: userMsg("x")})
	require.NoError(t, err)
	assert.Equal(t, "Bearer from-env", srv.Requests()[0].Header.Get("Authorization"))
	assert.Equal(t, "m", m.(llm.Namer).Name(), "the model names itself by its configured name")

	t.Setenv("OPENAI_API_KEY", "")
	m, err = llm.NewOpenAI(llm.OpenAIConfig{Model: "m"})
	require.NoError(t, err)
	_, err = m.Complete(context.Background(), llm.Request{Messages: userMsg("x")})
	require.NoError(t, err)
	assert.Empty(t, srv.Requests()[1].Header.Get("Authorization"), "no key, no Authorization header")
}

func TestNewOpenAIRejectsBadConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  llm.OpenAIConfig
		want string
	}{
		{"no model", llm.OpenAIConfig{BaseURL: "http://x"}, "Model is required"},
		{"bad url", llm.OpenAIConfig{BaseURL: "ftp://x", Model: "m"}, "must start with http"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := llm.NewOpenAI(tt.cfg)
			require.ErrorContains(t, err, tt.want)
		})
	}
}

func TestOpenAIRequestModelOverride(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Text("ok"))
	_, err := newOpenAI(t, srv, nil).Complete(context.Background(), llm.Request{Messages: userMsg("x"), Model: "other"})
	require.NoError(t, err)
	assert.Equal(t, "other", srv.Requests()[0].Chat.Model)
}

func TestOpenAIRefusal(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Refusal: "I can't help with that."})
	resp, err := newOpenAI(t, srv, nil).Complete(context.Background(), llm.Request{Messages: userMsg("x")})
	require.NoError(t, err)
	assert.Equal(t, "I can't help with that.", resp.Refusal)
	assert.True(t, strings.TrimSpace(resp.Content) == "")
}

func TestAPIErrorMessage(t *testing.T) {
	t.Parallel()
	err := error(&llm.APIError{StatusCode: 429, Type: "rate_limit_exceeded", Message: "slow down"})
	assert.Equal(t, "model API: 429 Too Many Requests (rate_limit_exceeded): slow down", err.Error())
	var target *llm.APIError
	assert.True(t, errors.As(err, &target))
}

func TestOpenAIMaxRequests(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	var mu sync.Mutex
	inFlight, peak := 0, 0
	release := make(chan struct{})
	srv.Handle(func(llmtest.Request) llmtest.Reply {
		mu.Lock()
		inFlight++
		peak = max(peak, inFlight)
		mu.Unlock()
		<-release
		mu.Lock()
		inFlight--
		mu.Unlock()
		return llmtest.Text("ok")
	})
	m := newOpenAI(t, srv, func(c *llm.OpenAIConfig) { c.MaxRequests = 2 })
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			_, err := m.Complete(context.Background(), llm.Request{Messages: userMsg("x")})
			assert.NoError(t, err)
		})
	}
	require.Eventually(t, func() bool { return len(srv.Requests()) == 2 }, 2*time.Second, time.Millisecond)
	time.Sleep(20 * time.Millisecond) // give a third request the chance to slip through, if it could
	assert.Len(t, srv.Requests(), 2)
	close(release)
	wg.Wait()
	assert.Equal(t, 2, peak)
	assert.Len(t, srv.Requests(), 6)

	_, err := llm.NewOpenAI(llm.OpenAIConfig{Model: "m", MaxRequests: -1})
	assert.Error(t, err)
}

func TestOpenAIOnRetry(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Error(500, "server_error", "a"), llmtest.RateLimited(20*time.Millisecond), llmtest.Text("ok"))
	var mu sync.Mutex
	var attempts []int
	var waits []time.Duration
	m := newOpenAI(t, srv, func(c *llm.OpenAIConfig) {
		c.OnRetry = func(attempt int, wait time.Duration, err error) {
			mu.Lock()
			defer mu.Unlock()
			attempts = append(attempts, attempt)
			waits = append(waits, wait)
			var apiErr *llm.APIError
			assert.ErrorAs(t, err, &apiErr)
		}
	})
	_, err := m.Complete(context.Background(), llm.Request{Messages: userMsg("x")})
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2}, attempts)
	assert.LessOrEqual(t, waits[1], 20*time.Millisecond, "drawn from zero to the server's Retry-After")
}

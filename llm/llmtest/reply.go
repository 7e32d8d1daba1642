package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/agenteval/agenteval/llm"
)

// Reply scripts one answer of the server. The zero Reply is a 200 with empty
// content.
type Reply struct {
	// Content is the assistant message text.
	Content string
	// ToolCalls, when set, make the reply a tool-calling message. Each
	// call's Arguments go out as the JSON text the model would send (a JSON
	// string, as llm keeps text that is not JSON, goes out as that text); an
	// empty ID gets one made up.
	ToolCalls []llm.ToolCall
	// Refusal is sent as the message's refusal field.
	Refusal string
	// Reasoning, when set, is the model's reasoning before its answer, as
	// each protocol carries it: chat completions' reasoning_content (in
	// the stream, deltas before the content's), a Responses reasoning item
	// with the text as its summary, an Anthropic thinking block (with a
	// signature), a Gemini part marked thought.
	Reasoning string
	// FinishReason defaults to "stop", or "tool_calls" with ToolCalls.
	FinishReason string
	// Usage defaults to a token count derived from the texts' lengths.
	// CacheReadTokens and ReasoningTokens, when not zero, are sent as OpenAI
	// sends them: prompt_tokens_details.cached_tokens and
	// completion_tokens_details.reasoning_tokens (CacheWriteTokens, which
	// OpenAI does not report, is not sent).
	Usage *llm.Usage
	// Model is echoed as the answering model; empty echoes the request's.
	Model string

	// Status, when not 0 or 200, sends an OpenAI-style error instead.
	Status int
	// ErrorType and ErrorMessage fill the error body of a non-200 Status.
	ErrorType    string
	ErrorMessage string
	// RetryAfter is sent as the Retry-After header when not empty; use
	// RetryAfterMs for sub-second waits (OpenAI's retry-after-ms header).
	RetryAfter   string
	RetryAfterMs int
	// Header adds arbitrary response headers.
	Header http.Header

	// Body, when not empty, is sent verbatim instead of a generated body
	// (with Status, or 200), to script malformed responses.
	Body string
	// Delay holds the reply back, for timeout tests. The wait ends early
	// when the client goes away.
	Delay time.Duration
}

// Text returns a reply whose content is s.
func Text(s string) Reply { return Reply{Content: s} }

// JSON returns a reply whose content is v encoded as JSON, as a model
// answering with structured output would send it. It panics if v cannot be
// encoded, which is a bug in the test.
func JSON(v any) Reply {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("llmtest.JSON: %v", err))
	}
	return Reply{Content: string(b)}
}

// Calls returns a reply that asks for the given tool calls.
func Calls(calls ...llm.ToolCall) Reply { return Reply{ToolCalls: calls} }

// Error returns an OpenAI-style error reply.
func Error(status int, errType, message string) Reply {
	return Reply{Status: status, ErrorType: errType, ErrorMessage: message}
}

// RateLimited returns a 429 that asks the client to wait d. Whole seconds go
// into Retry-After; anything shorter goes into retry-after-ms, so tests can
// use tiny waits.
func RateLimited(d time.Duration) Reply {
	r := Reply{Status: http.StatusTooManyRequests, ErrorType: "rate_limit_exceeded", ErrorMessage: "Rate limit reached"}
	if d%time.Second == 0 {
		r.RetryAfter = strconv.Itoa(int(d / time.Second))
	} else {
		r.RetryAfterMs = int(d / time.Millisecond)
	}
	return r
}

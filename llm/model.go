package llm

import (
	"context"
	"encoding/json"
)

// Roles used in [Message.Role]. They are the OpenAI chat roles; other
// providers map them as they need.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Model is a chat model. It is deliberately one method wide so that a test
// double, a recording proxy or a provider other than OpenAI fits in a few
// lines (see [ModelFunc]). Implementations must be safe for concurrent use.
type Model interface {
	Complete(ctx context.Context, req Request) (Response, error)
}

// ModelFunc adapts a function to the [Model] interface.
type ModelFunc func(ctx context.Context, req Request) (Response, error)

// Complete calls f.
func (f ModelFunc) Complete(ctx context.Context, req Request) (Response, error) {
	return f(ctx, req)
}

// Request is one chat completion request.
type Request struct {
	// Messages is the conversation so far, oldest first.
	Messages []Message `json:"messages"`
	// Model overrides the implementation's configured model name for this
	// request, for endpoints that serve several models. Empty keeps the
	// configured one.
	Model string `json:"model,omitempty"`
	// Temperature is a pointer so that an explicit 0 (deterministic) is
	// distinguishable from "use the provider's default".
	Temperature *float64 `json:"temperature,omitempty"`
	// MaxTokens bounds the completion length; 0 leaves it to the provider.
	MaxTokens int `json:"max_tokens,omitempty"`
	// Seed asks the provider for reproducible sampling where supported.
	Seed *int64 `json:"seed,omitempty"`
	// JSONSchema, when set, asks for structured output that matches it.
	JSONSchema *JSONSchema `json:"json_schema,omitempty"`
	// Tools the model may call.
	Tools []Tool `json:"tools,omitempty"`
}

// JSONSchema describes the structured output a [Request] asks for.
type JSONSchema struct {
	// Name identifies the schema to the provider (OpenAI requires one);
	// letters, digits, '_' and '-' only.
	Name string `json:"name"`
	// Description tells the model what the object is for.
	Description string `json:"description,omitempty"`
	// Schema is the JSON Schema document itself.
	Schema json.RawMessage `json:"schema"`
	// Strict asks the provider to guarantee conformance. OpenAI's strict mode
	// accepts only a subset of JSON Schema (every property required,
	// additionalProperties false), so it is off for schemas written by users.
	Strict bool `json:"strict,omitempty"`
}

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content,omitempty"`
	// Name optionally names the author of a message.
	Name string `json:"name,omitempty"`
	// ToolCalls are the calls an assistant message asks for.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID links a RoleTool message to the call it answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
}

// Tool is a function the model may call.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Parameters is the JSON Schema of the arguments object; nil means none.
	Parameters json.RawMessage `json:"parameters,omitempty"`
}

// ToolCall is a model's request to call a [Tool].
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is the JSON the model produced. Models sometimes emit text
	// that is not valid JSON; such text is kept as a JSON string so that the
	// value stays marshalable and nothing is lost.
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// Response is a model's reply.
type Response struct {
	Content   string     `json:"content,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// Refusal is set when the provider reports that the model declined.
	Refusal string `json:"refusal,omitempty"`
	Usage   Usage  `json:"usage"`
	// Model is the model that actually answered, as the provider names it.
	Model        string `json:"model,omitempty"`
	FinishReason string `json:"finish_reason,omitempty"`
}

// Usage counts tokens. Prompt tokens include those read from the cache,
// completion tokens the reasoning ones (as OpenAI counts them).
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	// ReasoningTokens are the completion tokens spent reasoning
	// (OpenAI's completion_tokens_details.reasoning_tokens).
	ReasoningTokens int `json:"reasoning_tokens,omitempty"`
	// CacheReadTokens are prompt tokens served from the provider's cache
	// (OpenAI's prompt_tokens_details.cached_tokens).
	CacheReadTokens int `json:"cache_read_tokens,omitempty"`
	// CacheWriteTokens are prompt tokens written to the provider's cache
	// (providers that charge for it report them; an exec agent may too).
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
	// CostUSD is what the calls cost in US dollars as whoever made them
	// reported it (a coding-agent CLI's own figure: Claude Code's
	// total_cost_usd, OpenCode's step cost); 0 when not reported. A job's
	// agent cost (results.Cost) is this figure when it is not 0, the price
	// table's otherwise.
	CostUSD float64 `json:"cost_usd,omitempty"`
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + v.PromptTokens,
		CompletionTokens: u.CompletionTokens + v.CompletionTokens,
		TotalTokens:      u.TotalTokens + v.TotalTokens,
		ReasoningTokens:  u.ReasoningTokens + v.ReasoningTokens,
		CacheReadTokens:  u.CacheReadTokens + v.CacheReadTokens,
		CacheWriteTokens: u.CacheWriteTokens + v.CacheWriteTokens,
		CostUSD:          u.CostUSD + v.CostUSD,
	}
}

// Namer is implemented by models that can name themselves. The judge and
// [Recorded] use the name in their cache keys, so two models never share
// cached answers.
type Namer interface {
	Name() string
}

// nameOf returns m's own name (see [Namer]), or "".
func nameOf(m Model) string {
	if n, ok := m.(Namer); ok {
		return n.Name()
	}
	return ""
}

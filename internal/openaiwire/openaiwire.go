// Package openaiwire is the OpenAI chat-completions request as it travels on
// the wire, in one place: package llm's client encodes it and llm/llmtest's
// server decodes it. It is kept apart from llm's public types because the
// wire shape (tool calls nested under "function", arguments as a JSON
// string, a null content) is awkward to work with.
package openaiwire

import "encoding/json"

// Request is a chat-completions request body.
type Request struct {
	Model    string    `json:"model"`
	Messages []Message `json:"messages"`
	// Temperature is a pointer so that an explicit 0 is sent.
	Temperature *float64 `json:"temperature,omitempty"`
	// MaxTokens is the older name of MaxCompletionTokens, which our client
	// sends; a server reads either.
	MaxTokens           int             `json:"max_tokens,omitempty"`
	MaxCompletionTokens int             `json:"max_completion_tokens,omitempty"`
	Seed                *int64          `json:"seed,omitempty"`
	Tools               []Tool          `json:"tools,omitempty"`
	ResponseFormat      *ResponseFormat `json:"response_format,omitempty"`
}

// Message is a chat message. Content is nil when the wire carries null (an
// assistant message that only calls tools).
type Message struct {
	Role       string     `json:"role"`
	Content    *string    `json:"content"`
	Name       string     `json:"name,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Refusal    *string    `json:"refusal,omitempty"`
}

// Tool is a tool offered to the model.
type Tool struct {
	Type     string   `json:"type"`
	Function Function `json:"function"`
}

// Function is the function a Tool describes.
type Function struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// ToolCall is a call a message asks for.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall is the function a ToolCall calls, with its arguments as the
// JSON text the model wrote.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ResponseFormat asks for structured output.
type ResponseFormat struct {
	Type       string      `json:"type"`
	JSONSchema *JSONSchema `json:"json_schema,omitempty"`
}

// JSONSchema is the schema structured output must match.
type JSONSchema struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Schema      json.RawMessage `json:"schema"`
	Strict      bool            `json:"strict"`
}

// RawArguments turns the wire's argument string into JSON, keeping text that
// is not valid JSON as a JSON string rather than dropping it.
func RawArguments(s string) json.RawMessage {
	if s == "" {
		return json.RawMessage("{}")
	}
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s) // marshalling a string cannot fail
	return b
}

// ArgumentText is RawArguments undone: the argument text as the model wrote
// it ("{}" for none).
func ArgumentText(raw json.RawMessage) string {
	args := string(raw)
	var s string
	if json.Unmarshal(raw, &s) == nil {
		// Arguments that were kept as a JSON string go back exactly as the
		// model produced them.
		args = s
	}
	if args == "" {
		args = "{}"
	}
	return args
}

package llmtest

import (
	"encoding/json"
	"net/http"
)

// Request is one request the server received, for assertions.
type Request struct {
	// Index counts requests from 0 in arrival order.
	Index  int
	Method string
	Path   string
	Header http.Header
	// Body is the raw request body.
	Body []byte
	// Chat is Body decoded as a chat-completions request. DecodeError is
	// set instead when the body was not valid JSON of that shape.
	Chat        ChatRequest
	DecodeError error
}

// ChatRequest is the OpenAI chat-completions request body, as sent on the
// wire.
type ChatRequest struct {
	Model               string          `json:"model"`
	Messages            []ChatMessage   `json:"messages"`
	Temperature         *float64        `json:"temperature,omitempty"`
	MaxTokens           *int            `json:"max_tokens,omitempty"`
	MaxCompletionTokens *int            `json:"max_completion_tokens,omitempty"`
	Seed                *int64          `json:"seed,omitempty"`
	Tools               []ChatTool      `json:"tools,omitempty"`
	ResponseFormat      *ResponseFormat `json:"response_format,omitempty"`
}

// ChatMessage is a message in a [ChatRequest].
type ChatMessage struct {
	Role string `json:"role"`
	// Content is nil when the wire carried null (a tool-calling assistant
	// message).
	Content    *string        `json:"content"`
	Name       string         `json:"name,omitempty"`
	ToolCalls  []ChatToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

// Text returns the message content, or "" when it was null.
func (m ChatMessage) Text() string {
	if m.Content == nil {
		return ""
	}
	return *m.Content
}

// ChatTool is a tool offered in a [ChatRequest].
type ChatTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters,omitempty"`
	} `json:"function"`
}

// ChatToolCall is a tool call echoed back in an assistant message.
type ChatToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// ResponseFormat is the structured-output request.
type ResponseFormat struct {
	Type       string `json:"type"`
	JSONSchema *struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Schema      json.RawMessage `json:"schema"`
		Strict      bool            `json:"strict"`
	} `json:"json_schema,omitempty"`
}

// LastUserMessage returns the text of the last user message, the usual
// thing a reply function looks at.
func (r Request) LastUserMessage() string {
	for i := len(r.Chat.Messages) - 1; i >= 0; i-- {
		if r.Chat.Messages[i].Role == "user" {
			return r.Chat.Messages[i].Text()
		}
	}
	return ""
}

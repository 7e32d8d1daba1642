package llmtest

import (
	"net/http"

	"github.com/agenteval/agenteval/internal/openaiwire"
	"github.com/agenteval/agenteval/llm"
)

// Request is one request the server received, for assertions.
type Request struct {
	// Index counts requests from 0 in arrival order.
	Index  int
	Method string
	Path   string
	Header http.Header
	// Body is the raw request body, for assertions on the wire format
	// itself.
	Body []byte
	// Chat is Body decoded as a chat-completions request, in package llm's
	// terms: the model's name, messages (a null content reads as ""), tools,
	// max_completion_tokens (or max_tokens) as MaxTokens, a json_schema
	// response format as JSONSchema. A Responses API body (Path ending in
	// /responses) reads the same way: instructions as a leading system
	// message, each input message's text parts joined, max_output_tokens as
	// MaxTokens. DecodeError is set instead when the
	// body was not valid JSON of that shape.
	Chat        llm.Request
	DecodeError error
}

// LastUserMessage returns the text of the last user message, the usual
// thing a reply function looks at.
func (r Request) LastUserMessage() string {
	for i := len(r.Chat.Messages) - 1; i >= 0; i-- {
		if r.Chat.Messages[i].Role == llm.RoleUser {
			return r.Chat.Messages[i].Content
		}
	}
	return ""
}

// fromWire turns a decoded request body into llm's terms.
func fromWire(w openaiwire.Request) llm.Request {
	r := llm.Request{Model: w.Model, Temperature: w.Temperature, Seed: w.Seed, MaxTokens: w.MaxCompletionTokens}
	if r.MaxTokens == 0 {
		r.MaxTokens = w.MaxTokens
	}
	for _, m := range w.Messages {
		msg := llm.Message{Role: m.Role, Name: m.Name, ToolCallID: m.ToolCallID}
		if m.Content != nil {
			msg.Content = *m.Content
		}
		for _, tc := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: tc.ID, Name: tc.Function.Name,
				Arguments: openaiwire.RawArguments(tc.Function.Arguments)})
		}
		r.Messages = append(r.Messages, msg)
	}
	for _, t := range w.Tools {
		r.Tools = append(r.Tools, llm.Tool{Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
	}
	if f := w.ResponseFormat; f != nil && f.JSONSchema != nil {
		s := f.JSONSchema
		r.JSONSchema = &llm.JSONSchema{Name: s.Name, Description: s.Description, Schema: s.Schema, Strict: s.Strict}
	}
	return r
}

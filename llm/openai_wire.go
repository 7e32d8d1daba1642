package llm

import (
	"encoding/json"
	"fmt"
)

// The OpenAI chat-completions wire format. It is kept apart from the public
// types because the wire shape (tool calls nested under "function", arguments
// as a JSON string, a null content) is awkward to work with.

type wireRequest struct {
	Model               string              `json:"model"`
	Messages            []wireMessage       `json:"messages"`
	Temperature         *float64            `json:"temperature,omitempty"`
	MaxCompletionTokens int                 `json:"max_completion_tokens,omitempty"`
	Seed                *int64              `json:"seed,omitempty"`
	Tools               []wireTool          `json:"tools,omitempty"`
	ResponseFormat      *wireResponseFormat `json:"response_format,omitempty"`
}

type wireMessage struct {
	Role       string         `json:"role"`
	Content    *string        `json:"content"`
	Name       string         `json:"name,omitempty"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
	Refusal    *string        `json:"refusal,omitempty"`
}

type wireTool struct {
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

type wireToolCall struct {
	ID       string           `json:"id"`
	Type     string           `json:"type"`
	Function wireFunctionCall `json:"function"`
}

type wireFunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type wireResponseFormat struct {
	Type       string          `json:"type"`
	JSONSchema *wireJSONSchema `json:"json_schema,omitempty"`
}

type wireJSONSchema struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Schema      json.RawMessage `json:"schema"`
	Strict      bool            `json:"strict"`
}

type wireResponse struct {
	Model   string       `json:"model"`
	Choices []wireChoice `json:"choices"`
	Usage   *wireUsage   `json:"usage"`
}

// wireUsage is OpenAI's usage, with the details of reasoning and cached
// tokens.
type wireUsage struct {
	Usage
	PromptDetails *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionDetails *struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

type wireChoice struct {
	Message      wireMessage `json:"message"`
	FinishReason string      `json:"finish_reason"`
}

type wireErrorBody struct {
	Error *struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"`
	} `json:"error"`
}

func toWire(model string, req Request) wireRequest {
	w := wireRequest{
		Model:               model,
		Temperature:         req.Temperature,
		MaxCompletionTokens: req.MaxTokens,
		Seed:                req.Seed,
		Messages:            make([]wireMessage, 0, len(req.Messages)),
	}
	if req.Model != "" {
		w.Model = req.Model
	}
	for _, m := range req.Messages {
		wm := wireMessage{Role: m.Role, Name: m.Name, ToolCallID: m.ToolCallID}
		// An assistant message that only calls tools carries a null content;
		// every other message carries a string, even an empty one.
		if m.Content != "" || len(m.ToolCalls) == 0 {
			c := m.Content
			wm.Content = &c
		}
		for _, tc := range m.ToolCalls {
			args := string(tc.Arguments)
			var s string
			if json.Unmarshal(tc.Arguments, &s) == nil {
				// Arguments that were kept as a JSON string (see ToolCall)
				// go back exactly as the model produced them.
				args = s
			}
			if args == "" {
				args = "{}"
			}
			wm.ToolCalls = append(wm.ToolCalls, wireToolCall{
				ID: tc.ID, Type: "function",
				Function: wireFunctionCall{Name: tc.Name, Arguments: args},
			})
		}
		w.Messages = append(w.Messages, wm)
	}
	for _, t := range req.Tools {
		w.Tools = append(w.Tools, wireTool{Type: "function", Function: wireFunction{
			Name: t.Name, Description: t.Description, Parameters: t.Parameters,
		}})
	}
	if s := req.JSONSchema; s != nil {
		name := s.Name
		if name == "" {
			name = "response"
		}
		w.ResponseFormat = &wireResponseFormat{Type: "json_schema", JSONSchema: &wireJSONSchema{
			Name: name, Description: s.Description, Schema: s.Schema, Strict: s.Strict,
		}}
	}
	return w
}

func fromWire(w wireResponse) (Response, error) {
	if len(w.Choices) == 0 {
		return Response{}, fmt.Errorf("model API: response has no choices")
	}
	c := w.Choices[0]
	r := Response{Model: w.Model, FinishReason: c.FinishReason}
	if c.Message.Content != nil {
		r.Content = *c.Message.Content
	}
	if c.Message.Refusal != nil {
		r.Refusal = *c.Message.Refusal
	}
	if w.Usage != nil {
		r.Usage = w.Usage.Usage
		if d := w.Usage.PromptDetails; d != nil && r.Usage.CacheReadTokens == 0 {
			r.Usage.CacheReadTokens = d.CachedTokens
		}
		if d := w.Usage.CompletionDetails; d != nil && r.Usage.ReasoningTokens == 0 {
			r.Usage.ReasoningTokens = d.ReasoningTokens
		}
	}
	for _, tc := range c.Message.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, ToolCall{
			ID: tc.ID, Name: tc.Function.Name, Arguments: rawArguments(tc.Function.Arguments),
		})
	}
	return r, nil
}

// rawArguments turns the wire's argument string into JSON, keeping text that
// is not valid JSON as a JSON string rather than dropping it.
func rawArguments(s string) json.RawMessage {
	if s == "" {
		return json.RawMessage("{}")
	}
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s) // marshalling a string cannot fail
	return b
}

package llm

import (
	"fmt"

	"github.com/agenteval/agenteval/internal/openaiwire"
)

// The OpenAI chat-completions response as it travels on the wire; the
// request is internal/openaiwire's, shared with llmtest's server.

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
	Message      openaiwire.Message `json:"message"`
	FinishReason string             `json:"finish_reason"`
}

type wireErrorBody struct {
	Error *struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"`
	} `json:"error"`
}

func toWire(model string, req Request) openaiwire.Request {
	w := openaiwire.Request{
		Model:               model,
		Temperature:         req.Temperature,
		MaxCompletionTokens: req.MaxTokens,
		Seed:                req.Seed,
		Messages:            make([]openaiwire.Message, 0, len(req.Messages)),
	}
	if req.Model != "" {
		w.Model = req.Model
	}
	for _, m := range req.Messages {
		wm := openaiwire.Message{Role: m.Role, Name: m.Name, ToolCallID: m.ToolCallID}
		// An assistant message that only calls tools carries a null content;
		// every other message carries a string, even an empty one.
		if m.Content != "" || len(m.ToolCalls) == 0 {
			c := m.Content
			wm.Content = &c
		}
		for _, tc := range m.ToolCalls {
			wm.ToolCalls = append(wm.ToolCalls, openaiwire.ToolCall{
				ID: tc.ID, Type: "function",
				Function: openaiwire.FunctionCall{Name: tc.Name, Arguments: openaiwire.ArgumentText(tc.Arguments)},
			})
		}
		w.Messages = append(w.Messages, wm)
	}
	for _, t := range req.Tools {
		w.Tools = append(w.Tools, openaiwire.Tool{Type: "function", Function: openaiwire.Function{
			Name: t.Name, Description: t.Description, Parameters: t.Parameters,
		}})
	}
	if s := req.JSONSchema; s != nil {
		name := s.Name
		if name == "" {
			name = "response"
		}
		w.ResponseFormat = &openaiwire.ResponseFormat{Type: "json_schema", JSONSchema: &openaiwire.JSONSchema{
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
			ID: tc.ID, Name: tc.Function.Name, Arguments: openaiwire.RawArguments(tc.Function.Arguments),
		})
	}
	return r, nil
}

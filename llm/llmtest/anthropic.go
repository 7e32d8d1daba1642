package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/agenteval/agenteval/internal/openaiwire"
	"github.com/agenteval/agenteval/llm"
)

// serveMessages answers Anthropic's Messages API (POST /v1/messages, as
// Claude Code calls it at ANTHROPIC_BASE_URL) from the same script: the
// request is recorded in llm's terms (system as a leading system message,
// tool_use blocks as tool calls, tool_result blocks as tool messages) and
// the reply comes back as a message whose content blocks are its text and
// a tool_use block per tool call, streamed as Anthropic's events when the
// request asks.
func (s *Server) serveMessages(w http.ResponseWriter, r *http.Request) {
	s.serve(w, r, anthropicProtocol)
}

var anthropicProtocol = protocol{
	decode: func(_ *http.Request, body []byte) (llm.Request, error) { return decodeMessages(body) },
	write: func(w http.ResponseWriter, req Request, reply Reply, stream streamRequest) {
		msg := messageBody(req, reply)
		if stream.Stream {
			writeMessageStream(w, msg)
			return
		}
		writeJSON(w, http.StatusOK, msg)
	},
	fail: anthropicError,
}

// anthropicRequest is the part of a Messages API request the server reads.
type anthropicRequest struct {
	Model       string             `json:"model"`
	MaxTokens   int                `json:"max_tokens"`
	System      json.RawMessage    `json:"system"`
	Messages    []anthropicMessage `json:"messages"`
	Tools       []anthropicTool    `json:"tools"`
	Temperature *float64           `json:"temperature"`
}

type anthropicMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type anthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// anthropicBlock is one content block of a message.
type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// decodeMessages reads a Messages API body in llm's terms.
func decodeMessages(body []byte) (llm.Request, error) {
	var w anthropicRequest
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&w); err != nil {
		return llm.Request{}, err
	}
	r := llm.Request{Model: w.Model, MaxTokens: w.MaxTokens, Temperature: w.Temperature}
	if len(w.System) > 0 {
		if text := blocksText(w.System); text != "" {
			r.Messages = append(r.Messages, llm.Message{Role: llm.RoleSystem, Content: text})
		}
	}
	for i, m := range w.Messages {
		var text string
		if json.Unmarshal(m.Content, &text) == nil {
			r.Messages = append(r.Messages, llm.Message{Role: m.Role, Content: text})
			continue
		}
		var blocks []anthropicBlock
		if err := json.Unmarshal(m.Content, &blocks); err != nil {
			return llm.Request{}, fmt.Errorf("messages[%d].content is neither text nor a list of blocks: %w", i, err)
		}
		msg := llm.Message{Role: m.Role}
		var texts []string
		for _, b := range blocks {
			switch b.Type {
			case "text":
				texts = append(texts, b.Text)
			case "tool_use":
				msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: b.ID, Name: b.Name, Arguments: b.Input})
			case "tool_result":
				content := blocksText(b.Content)
				if b.IsError {
					content = "error: " + content
				}
				r.Messages = append(r.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: b.ToolUseID, Content: content})
			}
		}
		msg.Content = strings.Join(texts, "\n")
		if msg.Content != "" || len(msg.ToolCalls) > 0 {
			r.Messages = append(r.Messages, msg)
		}
	}
	for _, t := range w.Tools {
		r.Tools = append(r.Tools, llm.Tool{Name: t.Name, Description: t.Description, Parameters: t.InputSchema})
	}
	return r, nil
}

// blocksText is the text of a string or of a list of text blocks, joined.
func blocksText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []anthropicBlock
	_ = json.Unmarshal(raw, &blocks) // blocks of another shape have no text
	var texts []string
	for _, b := range blocks {
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// messageBody is reply as a Messages API message: its text block,
// then a tool_use block per call; the usage as Anthropic counts it, the
// cached prompt tokens apart from input_tokens.
func messageBody(req Request, reply Reply) map[string]any {
	model := reply.Model
	if model == "" {
		model = req.Chat.Model
	}
	var content []map[string]any
	if reply.Reasoning != "" {
		content = append(content, map[string]any{"type": "thinking", "thinking": reply.Reasoning, "signature": thinkingSignature})
	}
	if reply.Content != "" || len(reply.ToolCalls) == 0 {
		content = append(content, map[string]any{"type": "text", "text": reply.Content})
	}
	for i, c := range reply.ToolCalls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("toolu_llmtest_%d_%d", req.Index, i)
		}
		content = append(content, map[string]any{"type": "tool_use", "id": id, "name": c.Name, "input": argumentsObject(c.Arguments)})
	}
	stop := reply.FinishReason
	switch stop {
	case "":
		stop = "end_turn"
		if len(reply.ToolCalls) > 0 {
			stop = "tool_use"
		}
	case "stop":
		stop = "end_turn"
	case "tool_calls":
		stop = "tool_use"
	case "length":
		stop = "max_tokens"
	}
	u := replyUsage(req, reply)
	return map[string]any{
		"id": fmt.Sprintf("msg_llmtest_%d", req.Index), "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{
			"input_tokens":                u.PromptTokens - u.CacheReadTokens - u.CacheWriteTokens,
			"cache_creation_input_tokens": u.CacheWriteTokens,
			"cache_read_input_tokens":     u.CacheReadTokens,
			"output_tokens":               u.CompletionTokens,
		},
	}
}

// argumentsObject is a tool call's arguments as the JSON value a
// tool_use block's input holds: an object, or the text it was.
func argumentsObject(args json.RawMessage) any {
	var v any
	if json.Unmarshal(args, &v) == nil {
		return v
	}
	return openaiwire.ArgumentText(args)
}

// thinkingSignature signs the thinking blocks the server sends (Anthropic
// signs each so that it can check one a client sends back; the server
// checks nothing).
const thinkingSignature = "llmtest-signature"

// writeMessageStream sends a message as Anthropic streams one:
// message_start (the usage so far: input and cache tokens, one output
// token), each block's content_block_start, deltas (thinking in two
// thinking_delta pieces and its signature_delta, text in two pieces, a
// tool's input as input_json_delta pieces) and content_block_stop, then
// message_delta with the stop reason and the output tokens, and
// message_stop.
func writeMessageStream(w http.ResponseWriter, msg map[string]any) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	event := func(typ string, data map[string]any) {
		data["type"] = typ
		b, _ := json.Marshal(data) // maps of JSON values cannot fail
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	usage := msg["usage"].(map[string]any)
	startUsage := map[string]any{}
	for k, v := range usage {
		startUsage[k] = v
	}
	startUsage["output_tokens"] = 1
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"] = []any{}
	start["stop_reason"] = nil
	start["usage"] = startUsage
	event("message_start", map[string]any{"message": start})
	event("ping", map[string]any{})
	for i, block := range msg["content"].([]map[string]any) {
		switch block["type"] {
		case "thinking":
			event("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "thinking", "thinking": "", "signature": ""}})
			for _, piece := range halves(block["thinking"].(string)) {
				event("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "thinking_delta", "thinking": piece}})
			}
			event("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "signature_delta", "signature": block["signature"]}})
		case "text":
			event("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			for _, piece := range halves(block["text"].(string)) {
				event("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "text_delta", "text": piece}})
			}
		case "tool_use":
			event("content_block_start", map[string]any{"index": i, "content_block": map[string]any{
				"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}})
			b, _ := json.Marshal(block["input"]) // a decoded JSON value
			for _, piece := range halves(string(b)) {
				event("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": piece}})
			}
		}
		event("content_block_stop", map[string]any{"index": i})
	}
	event("message_delta", map[string]any{"delta": map[string]any{"stop_reason": msg["stop_reason"], "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": usage["output_tokens"]}})
	event("message_stop", map[string]any{})
}

// halves cuts s in two pieces at a rune boundary (one when it is shorter
// than two runes), so a client that keeps only the last delta is caught.
func halves(s string) []string {
	r := []rune(s)
	if len(r) < 2 {
		if s == "" {
			return nil
		}
		return []string{s}
	}
	return []string{string(r[:len(r)/2]), string(r[len(r)/2:])}
}

// anthropicError writes an error as Anthropic sends one. The error types
// of OpenAI's vocabulary a script may use are translated.
func anthropicError(w http.ResponseWriter, status int, errType, msg string) {
	switch {
	case errType == "" || errType == "invalid_request_error":
		errType = map[int]string{http.StatusUnauthorized: "authentication_error", http.StatusForbidden: "permission_error",
			http.StatusNotFound: "not_found_error", http.StatusTooManyRequests: "rate_limit_error", 529: "overloaded_error",
			http.StatusInternalServerError: "api_error"}[status]
		if errType == "" {
			errType = "invalid_request_error"
		}
	case errType == "rate_limit_exceeded":
		errType = "rate_limit_error"
	}
	writeJSON(w, status, map[string]any{"type": "error", "error": map[string]any{"type": errType, "message": msg}})
}

// serveCountTokens answers POST /v1/messages/count_tokens with a rough,
// deterministic count (about four bytes a token). Like embeddings, it
// takes no scripted reply and is not among Requests.
func serveCountTokens(w http.ResponseWriter, r *http.Request) {
	var body bytes.Buffer
	if _, err := body.ReadFrom(r.Body); err != nil {
		anthropicError(w, http.StatusBadRequest, "", "count_tokens: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"input_tokens": body.Len()/4 + 1})
}

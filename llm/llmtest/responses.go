package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"strings"

	"github.com/agenteval/agenteval/internal/openaiwire"
	"github.com/agenteval/agenteval/llm"
)

// responsesRequest is the part of an OpenAI Responses API request body
// (POST /v1/responses) the server reads: what clients built on it (the
// Vercel AI SDK's OpenAI provider, which ElizaOS's plugin-openai uses)
// send for a plain text generation.
type responsesRequest struct {
	Model           string          `json:"model"`
	Instructions    string          `json:"instructions,omitempty"`
	Input           json.RawMessage `json:"input"`
	Temperature     *float64        `json:"temperature,omitempty"`
	MaxOutputTokens int             `json:"max_output_tokens,omitempty"`
}

// responsesItem is one item of a Responses request's input list: a
// message whose content is text or a list of parts.
type responsesItem struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// decodeResponses turns a Responses API body into llm's terms, as Chat
// holds a chat-completions body: instructions become a leading system
// message, each input message's text parts are joined.
func decodeResponses(body []byte) (llm.Request, error) {
	var w responsesRequest
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&w); err != nil {
		return llm.Request{}, err
	}
	r := llm.Request{Model: w.Model, Temperature: w.Temperature, MaxTokens: w.MaxOutputTokens}
	if w.Instructions != "" {
		r.Messages = append(r.Messages, llm.Message{Role: llm.RoleSystem, Content: w.Instructions})
	}
	var text string
	if json.Unmarshal(w.Input, &text) == nil {
		r.Messages = append(r.Messages, llm.Message{Role: llm.RoleUser, Content: text})
		return r, nil
	}
	var items []responsesItem
	if err := json.Unmarshal(w.Input, &items); err != nil {
		return llm.Request{}, fmt.Errorf("input is neither text nor a list of messages: %w", err)
	}
	for _, it := range items {
		role := it.Role
		if role == "developer" {
			role = llm.RoleSystem
		}
		r.Messages = append(r.Messages, llm.Message{Role: role, Content: partsText(it.Content)})
	}
	return r, nil
}

// partsText is a message content's text: the string itself, or the text
// of its parts joined.
func partsText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts) // content of another shape has no text
	var b []byte
	for _, p := range parts {
		b = append(b, p.Text...)
	}
	return string(b)
}

// response is reply as a Responses API response body.
func response(req Request, reply Reply) map[string]any {
	model := reply.Model
	if model == "" {
		model = req.Chat.Model
	}
	usage := replyUsage(req, reply)
	var output []map[string]any
	if reply.Reasoning != "" {
		output = append(output, map[string]any{"type": "reasoning", "id": fmt.Sprintf("rs_llmtest_%d", req.Index),
			"summary": []map[string]any{{"type": "summary_text", "text": reply.Reasoning}}})
	}
	if reply.Content != "" || len(reply.ToolCalls) == 0 {
		output = append(output, map[string]any{
			"type": "message", "id": fmt.Sprintf("msg_llmtest_%d", req.Index), "status": "completed", "role": "assistant",
			"content": []map[string]any{{"type": "output_text", "text": reply.Content, "annotations": []any{}}},
		})
	}
	for i, c := range reply.ToolCalls {
		callID := c.ID
		if callID == "" {
			callID = fmt.Sprintf("call_%d_%d", req.Index, i)
		}
		item := map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_llmtest_%d_%d", req.Index, i),
			"call_id": callID, "name": c.Name, "arguments": openaiwire.ArgumentText(c.Arguments), "status": "completed"}
		if ns, name, ok := namespaced(req.Body, c.Name); ok {
			item["namespace"], item["name"] = ns, name
		}
		output = append(output, item)
	}
	return map[string]any{
		"id":         fmt.Sprintf("resp_llmtest_%d", req.Index),
		"object":     "response",
		"created_at": 0,
		"status":     "completed",
		"model":      model,
		"output":     output,
		"usage": map[string]any{
			"input_tokens": usage.PromptTokens, "output_tokens": usage.CompletionTokens, "total_tokens": usage.TotalTokens,
			"input_tokens_details":  map[string]int{"cached_tokens": usage.CacheReadTokens},
			"output_tokens_details": map[string]int{"reasoning_tokens": usage.ReasoningTokens},
		},
	}
}

// namespaced splits a scripted tool call NAMESPACE__NAME into the
// namespace and the function when the request offered a tool of type
// namespace so named holding that function (as Codex offers each MCP
// server's tools, mcp__SERVER with its tools inside): the model calls it
// by both.
func namespaced(body []byte, call string) (ns, name string, ok bool) {
	var r struct {
		Tools []struct {
			Type  string `json:"type"`
			Name  string `json:"name"`
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		} `json:"tools"`
	}
	if json.Unmarshal(body, &r) != nil {
		return "", "", false
	}
	for _, t := range r.Tools {
		rest, found := strings.CutPrefix(call, t.Name+"__")
		if t.Type != "namespace" || !found {
			continue
		}
		for _, f := range t.Tools {
			if f.Name == rest {
				return t.Name, rest, true
			}
		}
	}
	return "", "", false
}

// serveEmbeddings answers POST /v1/embeddings with a deterministic vector
// per input (the same text always gets the same vector; dimensions as
// asked, 1536 by default). Embeddings take no scripted reply and are not
// among Requests: they are the plumbing of agents that index their
// memories, not the conversation a test scripts.
func serveEmbeddings(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model      string          `json:"model"`
		Input      json.RawMessage `json:"input"`
		Dimensions int             `json:"dimensions"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "embeddings: "+err.Error())
		return
	}
	var inputs []string
	var one string
	if json.Unmarshal(body.Input, &one) == nil {
		inputs = []string{one}
	} else if err := json.Unmarshal(body.Input, &inputs); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "embeddings: input is neither text nor a list of texts")
		return
	}
	dims := body.Dimensions
	if dims <= 0 || dims > 8192 {
		dims = 1536
	}
	data := make([]map[string]any, len(inputs))
	tokens := 0
	for i, in := range inputs {
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": embedding(in, dims)}
		tokens += len(in)/4 + 1
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data, "model": body.Model,
		"usage": map[string]int{"prompt_tokens": tokens, "total_tokens": tokens}})
}

// embedding is a unit vector of dims numbers derived from text's hash.
func embedding(text string, dims int) []float64 {
	h := fnv.New64a()
	h.Write([]byte(text))
	x := h.Sum64() | 1
	v := make([]float64, dims)
	var norm float64
	for i := range v {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		v[i] = float64(int64(x>>11)%2001-1000) / 1000
		norm += v[i] * v[i]
	}
	norm = math.Sqrt(norm)
	for i := range v {
		v[i] /= norm
	}
	return v
}

// writeResponseStream sends a Responses API response as its events, as
// Codex reads them: response.created and in_progress, each output item
// added and done (a message's text as one delta), response.completed with
// the usage.
func writeResponseStream(w http.ResponseWriter, resp map[string]any) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	seq := 0
	event := func(typ string, data map[string]any) {
		data["type"] = typ
		data["sequence_number"] = seq
		seq++
		b, _ := json.Marshal(data) // maps of JSON values cannot fail
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	started := map[string]any{"id": resp["id"], "object": "response", "status": "in_progress", "model": resp["model"], "output": []any{}}
	event("response.created", map[string]any{"response": started})
	event("response.in_progress", map[string]any{"response": started})
	for i, item := range resp["output"].([]map[string]any) {
		if item["type"] == "reasoning" {
			added := map[string]any{"type": "reasoning", "id": item["id"], "summary": []any{}}
			event("response.output_item.added", map[string]any{"output_index": i, "item": added})
			text := item["summary"].([]map[string]any)[0]["text"].(string)
			part := map[string]any{"item_id": item["id"], "output_index": i, "summary_index": 0}
			event("response.reasoning_summary_part.added", with(part, "part", map[string]any{"type": "summary_text", "text": ""}))
			for _, piece := range halves(text) {
				event("response.reasoning_summary_text.delta", with(part, "delta", piece))
			}
			event("response.reasoning_summary_text.done", with(part, "text", text))
			event("response.reasoning_summary_part.done", with(part, "part", map[string]any{"type": "summary_text", "text": text}))
			event("response.output_item.done", map[string]any{"output_index": i, "item": item})
			continue
		}
		event("response.output_item.added", map[string]any{"output_index": i, "item": item})
		if item["type"] == "message" {
			text := item["content"].([]map[string]any)[0]["text"].(string)
			event("response.output_text.delta", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "delta": text})
			event("response.output_text.done", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "text": text})
		}
		event("response.output_item.done", map[string]any{"output_index": i, "item": item})
	}
	event("response.completed", map[string]any{"response": resp})
}

// with is a copy of m with k set to v.
func with(m map[string]any, k string, v any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for mk, mv := range m {
		out[mk] = mv
	}
	out[k] = v
	return out
}

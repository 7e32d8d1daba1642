package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/agenteval/agenteval/internal/openaiwire"
)

// response is a scripted reply as OpenAI's Responses API returns it
// (POST /v1/responses): output items (a message with its text, then one
// function_call per tool call) and the usage in that API's names.
func response(req Request, reply Reply) (resp map[string]any, items []map[string]any) {
	id := fmt.Sprintf("resp_llmtest_%d", req.Index)
	if reply.Content != "" {
		items = append(items, map[string]any{"type": "message", "id": fmt.Sprintf("msg_%d", req.Index), "role": "assistant",
			"status": "completed", "content": []map[string]any{{"type": "output_text", "text": reply.Content, "annotations": []any{}}}})
	}
	for i, c := range reply.ToolCalls {
		callID := c.ID
		if callID == "" {
			callID = fmt.Sprintf("call_%d_%d", req.Index, i)
		}
		items = append(items, map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d_%d", req.Index, i), "call_id": callID,
			"name": c.Name, "arguments": openaiwire.ArgumentText(c.Arguments), "status": "completed"})
	}
	// The usage, as completion() counts it when the script gives none.
	u := completion(req, reply)["usage"].(map[string]any)
	cached, _ := u["prompt_tokens_details"].(map[string]int)
	reasoning, _ := u["completion_tokens_details"].(map[string]int)
	model := reply.Model
	if model == "" {
		var m struct {
			Model string `json:"model"`
		}
		_ = json.Unmarshal(req.Body, &m)
		model = m.Model
	}
	resp = map[string]any{"id": id, "object": "response", "status": "completed", "model": model, "output": items,
		"usage": map[string]any{
			"input_tokens": u["prompt_tokens"], "input_tokens_details": map[string]int{"cached_tokens": cached["cached_tokens"]},
			"output_tokens": u["completion_tokens"], "output_tokens_details": map[string]int{"reasoning_tokens": reasoning["reasoning_tokens"]},
			"total_tokens": u["total_tokens"],
		}}
	return resp, items
}

// writeResponse answers a Responses API request: the response object, or,
// for "stream": true, its events (response.created, each output item added
// and done, a message's text as deltas, response.completed with the
// usage), as Codex reads them.
func writeResponse(w http.ResponseWriter, req Request, reply Reply, stream bool) {
	resp, items := response(req, reply)
	if !stream {
		writeJSON(w, http.StatusOK, resp)
		return
	}
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
	for i, item := range items {
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

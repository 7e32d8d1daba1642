package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// streamRequest is what a request says about streaming: "stream": true
// asks for the answer as server-sent events, and stream_options'
// include_usage for a last chunk with the usage, as OpenAI streams them.
type streamRequest struct {
	Stream        bool `json:"stream"`
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// writeStream sends a completion as OpenAI streams one: a chunk with the
// role, the content in pieces, each tool call (its id and name, then its
// arguments), a chunk with the finish reason, the usage when asked, and
// "data: [DONE]". Coding-agent CLIs (OpenCode's AI SDK providers, among
// others) only ever ask for streams.
func writeStream(w http.ResponseWriter, c map[string]any, includeUsage bool) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	chunk := func(delta map[string]any, finish any, usage any) {
		ch := map[string]any{"id": c["id"], "object": "chat.completion.chunk", "created": c["created"], "model": c["model"]}
		if delta != nil {
			ch["choices"] = []map[string]any{{"index": 0, "delta": delta, "finish_reason": finish}}
		} else {
			ch["choices"] = []any{}
		}
		if usage != nil {
			ch["usage"] = usage
		}
		b, _ := json.Marshal(ch) // maps of JSON values cannot fail
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	choice := c["choices"].([]map[string]any)[0]
	msg := choice["message"].(map[string]any)
	chunk(map[string]any{"role": "assistant", "content": ""}, nil, nil)
	if reasoning, _ := msg["reasoning_content"].(string); reasoning != "" {
		for _, piece := range halves(reasoning) {
			chunk(map[string]any{"reasoning_content": piece}, nil, nil)
		}
	}
	if text, _ := msg["content"].(string); text != "" {
		// Two pieces when there are at least two runes, so a client that
		// keeps only the last delta is caught.
		r := []rune(text)
		half := len(r) / 2
		for _, piece := range []string{string(r[:half]), string(r[half:])} {
			if piece != "" {
				chunk(map[string]any{"content": piece}, nil, nil)
			}
		}
	}
	if refusal, ok := msg["refusal"]; ok {
		chunk(map[string]any{"refusal": refusal}, nil, nil)
	}
	calls, _ := msg["tool_calls"].([]map[string]any)
	for i, call := range calls {
		fn := call["function"].(map[string]any)
		chunk(map[string]any{"tool_calls": []map[string]any{{"index": i, "id": call["id"], "type": "function",
			"function": map[string]any{"name": fn["name"], "arguments": ""}}}}, nil, nil)
		chunk(map[string]any{"tool_calls": []map[string]any{{"index": i, "function": map[string]any{"arguments": fn["arguments"]}}}}, nil, nil)
	}
	chunk(map[string]any{}, choice["finish_reason"], nil)
	if includeUsage {
		chunk(nil, nil, c["usage"])
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
}

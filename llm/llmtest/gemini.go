package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/agenteval/agenteval/llm"
)

// serveGemini answers the Gemini API's POST /v1beta/models/MODEL:METHOD
// (as Gemini CLI calls it at GOOGLE_GEMINI_BASE_URL): generateContent and
// streamGenerateContent (server-sent events with alt=sse, else a JSON
// array) from the same script, the request recorded in llm's terms
// (systemInstruction as a leading system message, functionCall parts as
// tool calls, functionResponse parts as tool messages) and the reply sent
// as a candidate whose parts are its text and a functionCall per tool
// call, with usageMetadata. countTokens answers a rough count, outside the
// script and the request log.
func (s *Server) serveGemini(w http.ResponseWriter, r *http.Request) {
	model, method, _ := strings.Cut(r.PathValue("call"), ":")
	switch method {
	case "generateContent", "streamGenerateContent":
		s.serve(w, r, geminiProtocol)
	case "countTokens":
		var body bytes.Buffer
		if _, err := body.ReadFrom(r.Body); err != nil {
			geminiError(w, http.StatusBadRequest, "", "countTokens: "+err.Error())
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"totalTokens": body.Len()/4 + 1})
	default:
		geminiError(w, http.StatusNotFound, "", fmt.Sprintf("llmtest serves models/%s:generateContent, :streamGenerateContent and :countTokens, not :%s", model, method))
	}
}

var geminiProtocol = protocol{
	decode: decodeGemini,
	streams: func(r *http.Request, _ []byte) streamRequest {
		_, method, _ := strings.Cut(r.PathValue("call"), ":")
		// alt=sse asks for server-sent events; without it the chunks come
		// as one JSON array (IncludeUsage marks the events here).
		return streamRequest{Stream: method == "streamGenerateContent", StreamOptions: struct {
			IncludeUsage bool `json:"include_usage"`
		}{IncludeUsage: r.URL.Query().Get("alt") == "sse"}}
	},
	write: func(w http.ResponseWriter, req Request, reply Reply, stream streamRequest) {
		resp := geminiResponse(req, reply)
		if stream.Stream {
			writeGeminiStream(w, resp, stream.StreamOptions.IncludeUsage)
			return
		}
		writeJSON(w, http.StatusOK, resp)
	},
	fail: geminiError,
}

// geminiRequest is the part of a generateContent request the server reads.
type geminiRequest struct {
	Contents          []geminiContent `json:"contents"`
	SystemInstruction *geminiContent  `json:"systemInstruction"`
	Tools             []struct {
		FunctionDeclarations []struct {
			Name                 string          `json:"name"`
			Description          string          `json:"description"`
			Parameters           json.RawMessage `json:"parameters"`
			ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		Temperature     *float64 `json:"temperature"`
		MaxOutputTokens int      `json:"maxOutputTokens"`
	} `json:"generationConfig"`
}

type geminiContent struct {
	Role  string       `json:"role"`
	Parts []geminiPart `json:"parts"`
}

type geminiPart struct {
	Text         string `json:"text"`
	Thought      bool   `json:"thought"`
	FunctionCall *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
}

// decodeGemini reads a generateContent body in llm's terms; the model is
// the path's.
func decodeGemini(r *http.Request, body []byte) (llm.Request, error) {
	var w geminiRequest
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&w); err != nil {
		return llm.Request{}, err
	}
	model, _, _ := strings.Cut(r.PathValue("call"), ":")
	out := llm.Request{Model: model, Temperature: w.GenerationConfig.Temperature, MaxTokens: w.GenerationConfig.MaxOutputTokens}
	if si := w.SystemInstruction; si != nil {
		if text := partsTexts(si.Parts); text != "" {
			out.Messages = append(out.Messages, llm.Message{Role: llm.RoleSystem, Content: text})
		}
	}
	for _, c := range w.Contents {
		role := llm.RoleUser
		if c.Role == "model" {
			role = llm.RoleAssistant
		}
		msg := llm.Message{Role: role, Content: partsTexts(c.Parts)}
		for _, p := range c.Parts {
			if fc := p.FunctionCall; fc != nil {
				msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: fc.ID, Name: fc.Name, Arguments: fc.Args})
			}
			if fr := p.FunctionResponse; fr != nil {
				id := fr.ID
				if id == "" {
					id = fr.Name
				}
				out.Messages = append(out.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: id, Name: fr.Name, Content: string(fr.Response)})
			}
		}
		if msg.Content != "" || len(msg.ToolCalls) > 0 {
			out.Messages = append(out.Messages, msg)
		}
	}
	for _, t := range w.Tools {
		for _, f := range t.FunctionDeclarations {
			params := f.Parameters
			if len(params) == 0 {
				params = f.ParametersJSONSchema
			}
			out.Tools = append(out.Tools, llm.Tool{Name: f.Name, Description: f.Description, Parameters: params})
		}
	}
	return out, nil
}

// partsTexts is the text of parts that are not thoughts, joined.
func partsTexts(parts []geminiPart) string {
	var b strings.Builder
	for _, p := range parts {
		if !p.Thought {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// geminiResponse is reply as a generateContent response: one candidate
// whose parts are the text and a functionCall per tool call (an id only
// when the script gave one, as the Gemini API sends none), and the usage
// as Gemini counts it: cached tokens within the prompt, thoughts apart
// from the candidates.
func geminiResponse(req Request, reply Reply) map[string]any {
	model := reply.Model
	if model == "" {
		model = req.Chat.Model
	}
	var parts []map[string]any
	if reply.Reasoning != "" {
		parts = append(parts, map[string]any{"text": reply.Reasoning, "thought": true})
	}
	if reply.Content != "" || len(reply.ToolCalls) == 0 {
		parts = append(parts, map[string]any{"text": reply.Content})
	}
	for _, c := range reply.ToolCalls {
		call := map[string]any{"name": c.Name, "args": argumentsObject(c.Arguments)}
		if c.ID != "" {
			call["id"] = c.ID
		}
		parts = append(parts, map[string]any{"functionCall": call})
	}
	finish := reply.FinishReason
	switch finish {
	case "", "stop", "tool_calls":
		finish = "STOP"
	case "length":
		finish = "MAX_TOKENS"
	}
	u := replyUsage(req, reply)
	usage := map[string]any{"promptTokenCount": u.PromptTokens, "candidatesTokenCount": u.CompletionTokens - u.ReasoningTokens,
		"totalTokenCount": u.TotalTokens}
	if u.CacheReadTokens != 0 {
		usage["cachedContentTokenCount"] = u.CacheReadTokens
	}
	if u.ReasoningTokens != 0 {
		usage["thoughtsTokenCount"] = u.ReasoningTokens
	}
	return map[string]any{
		"candidates":    []map[string]any{{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": finish, "index": 0}},
		"usageMetadata": usage, "modelVersion": model, "responseId": fmt.Sprintf("llmtest-%d", req.Index),
	}
}

// writeGeminiStream sends a response as streamGenerateContent does: the
// text in two chunks, then a chunk per function call, the last chunk with
// the finish reason and the usage; as server-sent events ("data: {...}")
// when sse, else as one JSON array.
func writeGeminiStream(w http.ResponseWriter, resp map[string]any, sse bool) {
	cand := resp["candidates"].([]map[string]any)[0]
	parts := cand["content"].(map[string]any)["parts"].([]map[string]any)
	var pieces [][]map[string]any
	for _, p := range parts {
		if text, ok := p["text"].(string); ok {
			for _, h := range halves(text) {
				piece := map[string]any{"text": h}
				if p["thought"] == true {
					piece["thought"] = true
				}
				pieces = append(pieces, []map[string]any{piece})
			}
			continue
		}
		pieces = append(pieces, []map[string]any{p})
	}
	if len(pieces) == 0 {
		pieces = [][]map[string]any{{{"text": ""}}}
	}
	var chunks []map[string]any
	for i, ps := range pieces {
		c := map[string]any{"content": map[string]any{"role": "model", "parts": ps}, "index": 0}
		chunk := map[string]any{"candidates": []map[string]any{c}, "modelVersion": resp["modelVersion"], "responseId": resp["responseId"]}
		if i == len(pieces)-1 {
			c["finishReason"] = cand["finishReason"]
			chunk["usageMetadata"] = resp["usageMetadata"]
		}
		chunks = append(chunks, chunk)
	}
	if !sse {
		writeJSON(w, http.StatusOK, chunks)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	for _, c := range chunks {
		b, _ := json.Marshal(c) // maps of JSON values cannot fail
		fmt.Fprintf(w, "data: %s\r\n\r\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
}

// geminiError writes an error as Google's APIs send one: the HTTP status,
// its gRPC status name, and the message.
func geminiError(w http.ResponseWriter, status int, _ string, msg string) {
	name := map[int]string{http.StatusBadRequest: "INVALID_ARGUMENT", http.StatusUnauthorized: "UNAUTHENTICATED",
		http.StatusForbidden: "PERMISSION_DENIED", http.StatusNotFound: "NOT_FOUND", http.StatusTooManyRequests: "RESOURCE_EXHAUSTED",
		http.StatusInternalServerError: "INTERNAL", http.StatusServiceUnavailable: "UNAVAILABLE"}[status]
	if name == "" {
		name = "UNKNOWN"
	}
	writeJSON(w, status, map[string]any{"error": map[string]any{"code": status, "message": msg, "status": name}})
}

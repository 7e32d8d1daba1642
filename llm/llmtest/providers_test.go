package llmtest_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
)

// sseData returns the data of each server-sent event of a response, and
// the event names ("" for events without one).
func sseData(t *testing.T, resp *http.Response) (names []string, data []map[string]any) {
	t.Helper()
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	sc := bufio.NewScanner(resp.Body)
	name := ""
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var d map[string]any
			require.NoError(t, json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d), line)
			names, data = append(names, name), append(data, d)
			name = ""
		}
	}
	require.NoError(t, sc.Err())
	return names, data
}

// TestAnthropicMessages: a Messages API request (as Claude Code sends it)
// takes the next scripted reply, is recorded in llm's terms (system,
// tool_use and tool_result blocks, tools) and is answered as a message,
// or as Anthropic's event stream: text and tool input in pieces, the
// cached tokens apart from input_tokens.
func TestAnthropicMessages(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	u := llm.Usage{PromptTokens: 1000, CompletionTokens: 20, TotalTokens: 1020, CacheReadTokens: 400, CacheWriteTokens: 100}
	srv.Enqueue(
		llmtest.Reply{Content: "Let me look.", ToolCalls: []llm.ToolCall{{ID: "toolu_1", Name: "Read", Arguments: json.RawMessage(`{"file_path":"a.txt"}`)}}, Usage: &u},
		llmtest.Reply{Content: "Done.", Usage: &u},
	)
	body := `{"model":"fake-model","max_tokens":512,"system":[{"type":"text","text":"Be brief."}],
		"messages":[{"role":"user","content":"Read a.txt"},
			{"role":"assistant","content":[{"type":"tool_use","id":"toolu_0","name":"Glob","input":{"pattern":"*"}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_0","content":[{"type":"text","text":"a.txt"}]},{"type":"text","text":"go on"}]}],
		"tools":[{"name":"Read","description":"Reads a file","input_schema":{"type":"object"}}]}`
	out := postJSON(t, srv.URL+"/messages", body)
	assert.Equal(t, "message", out["type"])
	assert.Equal(t, "tool_use", out["stop_reason"])
	assert.Equal(t, []any{map[string]any{"type": "text", "text": "Let me look."},
		map[string]any{"type": "tool_use", "id": "toolu_1", "name": "Read", "input": map[string]any{"file_path": "a.txt"}}}, out["content"])
	assert.Equal(t, map[string]any{"input_tokens": 500.0, "cache_read_input_tokens": 400.0, "cache_creation_input_tokens": 100.0,
		"output_tokens": 20.0}, out["usage"])

	req := srv.Requests()[0]
	require.NoError(t, req.DecodeError)
	assert.Equal(t, "fake-model", req.Chat.Model)
	assert.Equal(t, 512, req.Chat.MaxTokens)
	assert.Equal(t, []llm.Message{{Role: llm.RoleSystem, Content: "Be brief."}, {Role: llm.RoleUser, Content: "Read a.txt"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "toolu_0", Name: "Glob", Arguments: json.RawMessage(`{"pattern":"*"}`)}}},
		{Role: llm.RoleTool, ToolCallID: "toolu_0", Content: "a.txt"}, {Role: llm.RoleUser, Content: "go on"}}, req.Chat.Messages)
	require.Len(t, req.Chat.Tools, 1)
	assert.Equal(t, "Read", req.Chat.Tools[0].Name)

	resp, err := http.Post(srv.URL+"/messages", "application/json", strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	names, data := sseData(t, resp)
	assert.Equal(t, []string{"message_start", "ping", "content_block_start", "content_block_delta", "content_block_delta",
		"content_block_stop", "message_delta", "message_stop"}, names)
	for i, d := range data {
		assert.Equal(t, names[i], d["type"])
	}
	start := data[0]["message"].(map[string]any)
	assert.Equal(t, map[string]any{"input_tokens": 500.0, "cache_read_input_tokens": 400.0, "cache_creation_input_tokens": 100.0,
		"output_tokens": 1.0}, start["usage"])
	assert.Equal(t, "Do", data[3]["delta"].(map[string]any)["text"])
	assert.Equal(t, "ne.", data[4]["delta"].(map[string]any)["text"])
	assert.Equal(t, map[string]any{"stop_reason": "end_turn", "stop_sequence": nil}, data[6]["delta"])
	assert.Equal(t, map[string]any{"output_tokens": 20.0}, data[6]["usage"])

	// An unscripted request gets Anthropic's error shape.
	resp, err = http.Post(srv.URL+"/messages", "application/json", strings.NewReader(`{"model":"m","messages":[]}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	var e map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&e))
	assert.Equal(t, "error", e["type"])
	assert.Contains(t, e["error"].(map[string]any)["message"], "no reply scripted")
}

// TestAnthropicToolStream: a tool call streams as a tool_use block whose
// input comes in input_json_delta pieces that join to the arguments.
func TestAnthropicToolStream(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Calls(llm.ToolCall{Name: "Bash", Arguments: json.RawMessage(`{"command":"ls -l"}`)}))
	resp, err := http.Post(srv.URL+"/messages", "application/json", strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"ls"}]}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	names, data := sseData(t, resp)
	require.Equal(t, "content_block_start", names[2])
	block := data[2]["content_block"].(map[string]any)
	assert.Equal(t, "tool_use", block["type"])
	assert.Equal(t, "Bash", block["name"])
	assert.NotEmpty(t, block["id"])
	var input string
	for _, d := range data {
		if delta, ok := d["delta"].(map[string]any); ok && delta["type"] == "input_json_delta" {
			input += delta["partial_json"].(string)
		}
	}
	assert.JSONEq(t, `{"command":"ls -l"}`, input)
	assert.Equal(t, "tool_use", data[len(data)-2]["delta"].(map[string]any)["stop_reason"])
}

// TestGemini: generateContent and streamGenerateContent (as Gemini CLI
// calls them) take the next scripted replies, are recorded in llm's terms
// (systemInstruction, functionCall and functionResponse parts, function
// declarations, the model from the path) and are answered with
// functionCall parts and usageMetadata (cached tokens within the prompt,
// thoughts apart from the candidates).
func TestGemini(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	root := strings.TrimSuffix(srv.URL, "/v1")
	u := llm.Usage{PromptTokens: 1000, CompletionTokens: 30, TotalTokens: 1030, CacheReadTokens: 400, ReasoningTokens: 10}
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llm.ToolCall{{Name: "read_file", Arguments: json.RawMessage(`{"file_path":"a.txt"}`)}}, Usage: &u},
		llmtest.Reply{Content: "Done.", Usage: &u},
	)
	body := `{"contents":[{"role":"user","parts":[{"text":"Read a.txt"}]},
		{"role":"model","parts":[{"functionCall":{"name":"glob","args":{"pattern":"*"}}}]},
		{"role":"user","parts":[{"functionResponse":{"name":"glob","response":{"output":"a.txt"}}}]}],
		"systemInstruction":{"parts":[{"text":"Be brief."}]},
		"tools":[{"functionDeclarations":[{"name":"read_file","description":"Reads","parametersJsonSchema":{"type":"object"}}]}],
		"generationConfig":{"temperature":0,"maxOutputTokens":256}}`
	out := postJSON(t, root+"/v1beta/models/gemini-fake:generateContent", body)
	cand := out["candidates"].([]any)[0].(map[string]any)
	assert.Equal(t, "STOP", cand["finishReason"])
	assert.Equal(t, map[string]any{"role": "model", "parts": []any{map[string]any{"functionCall": map[string]any{"name": "read_file",
		"args": map[string]any{"file_path": "a.txt"}}}}}, cand["content"])
	assert.Equal(t, map[string]any{"promptTokenCount": 1000.0, "candidatesTokenCount": 20.0, "totalTokenCount": 1030.0,
		"cachedContentTokenCount": 400.0, "thoughtsTokenCount": 10.0}, out["usageMetadata"])

	req := srv.Requests()[0]
	require.NoError(t, req.DecodeError)
	assert.Equal(t, "gemini-fake", req.Chat.Model)
	assert.Equal(t, 256, req.Chat.MaxTokens)
	assert.Equal(t, []llm.Message{{Role: llm.RoleSystem, Content: "Be brief."}, {Role: llm.RoleUser, Content: "Read a.txt"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{Name: "glob", Arguments: json.RawMessage(`{"pattern":"*"}`)}}},
		{Role: llm.RoleTool, ToolCallID: "glob", Name: "glob", Content: `{"output":"a.txt"}`}}, req.Chat.Messages)
	require.Len(t, req.Chat.Tools, 1)
	assert.JSONEq(t, `{"type":"object"}`, string(req.Chat.Tools[0].Parameters))

	resp, err := http.Post(root+"/v1beta/models/gemini-fake:streamGenerateContent?alt=sse", "application/json",
		strings.NewReader(`{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	_, chunks := sseData(t, resp)
	require.Len(t, chunks, 2)
	var text string
	for i, c := range chunks {
		cand := c["candidates"].([]any)[0].(map[string]any)
		text += cand["content"].(map[string]any)["parts"].([]any)[0].(map[string]any)["text"].(string)
		_, hasUsage := c["usageMetadata"]
		assert.Equal(t, i == len(chunks)-1, hasUsage, "the usage comes with the last chunk")
		_, hasFinish := cand["finishReason"]
		assert.Equal(t, i == len(chunks)-1, hasFinish)
	}
	assert.Equal(t, "Done.", text)

	// countTokens is answered outside the script; an unscripted request
	// gets Google's error shape.
	out = postJSON(t, root+"/v1beta/models/gemini-fake:countTokens", `{"contents":[]}`)
	assert.Greater(t, out["totalTokens"], 0.0)
	resp, err = http.Post(root+"/v1beta/models/gemini-fake:generateContent", "application/json", strings.NewReader(`{"contents":[]}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	var e map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&e))
	assert.Equal(t, map[string]any{"code": 400.0, "status": "INVALID_ARGUMENT", "message": "llmtest: no reply scripted for request 2"}, e["error"])
	assert.Len(t, srv.Requests(), 3)
}

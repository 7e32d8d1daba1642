package llmtest_test

import (
	"bufio"
	"encoding/json"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
)

func postJSON(t *testing.T, url, body string) map[string]any {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", out)
	return out
}

// TestResponsesAPI: a Responses API request (as the Vercel AI SDK sends
// it) takes the next scripted reply and is recorded in llm's terms.
func TestResponsesAPI(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Content: "hello there", Usage: &llm.Usage{PromptTokens: 7, CompletionTokens: 2, TotalTokens: 9}})
	out := postJSON(t, srv.URL+"/responses", `{"model":"m-large","instructions":"Be brief.","temperature":0.3,"max_output_tokens":50,
		"input":[{"role":"system","content":"You are Ada."},{"role":"user","content":[{"type":"input_text","text":"Say "},{"type":"input_text","text":"hello"}]}]}`)
	assert.Equal(t, "response", out["object"])
	assert.Equal(t, "m-large", out["model"])
	content := out["output"].([]any)[0].(map[string]any)["content"].([]any)[0].(map[string]any)
	assert.Equal(t, "output_text", content["type"])
	assert.Equal(t, "hello there", content["text"])
	assert.Equal(t, map[string]any{"input_tokens": 7.0, "output_tokens": 2.0, "total_tokens": 9.0,
		"input_tokens_details": map[string]any{"cached_tokens": 0.0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0.0}}, out["usage"])

	reqs := srv.Requests()
	require.Len(t, reqs, 1)
	require.NoError(t, reqs[0].DecodeError)
	assert.Equal(t, "/v1/responses", reqs[0].Path)
	chat := reqs[0].Chat
	assert.Equal(t, "m-large", chat.Model)
	assert.Equal(t, 50, chat.MaxTokens)
	require.NotNil(t, chat.Temperature)
	assert.InDelta(t, 0.3, *chat.Temperature, 1e-9)
	assert.Equal(t, []llm.Message{{Role: llm.RoleSystem, Content: "Be brief."}, {Role: llm.RoleSystem, Content: "You are Ada."},
		{Role: llm.RoleUser, Content: "Say hello"}}, chat.Messages)
	assert.Equal(t, "Say hello", reqs[0].LastUserMessage())

	// Plain text input, and a streaming request, answered as events with a
	// tool call as a function_call item (what Codex reads).
	srv.Handle(func(r llmtest.Request) llmtest.Reply { return llmtest.Text("echo " + r.LastUserMessage()) })
	out = postJSON(t, srv.URL+"/responses", `{"model":"m","input":"hi"}`)
	assert.Equal(t, "echo hi", out["output"].([]any)[0].(map[string]any)["content"].([]any)[0].(map[string]any)["text"])
	srv.Enqueue(llmtest.Reply{Content: "calling", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "exec_command", Arguments: []byte(`{"cmd":"ls"}`)}}})
	resp, err := http.Post(srv.URL+"/responses", "application/json", strings.NewReader(`{"model":"m","input":"hi","stream":true}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	var events []string
	var completed map[string]any
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			var e map[string]any
			require.NoError(t, json.Unmarshal([]byte(data), &e))
			events = append(events, e["type"].(string))
			if e["type"] == "response.completed" {
				completed = e["response"].(map[string]any)
			}
		}
	}
	assert.Equal(t, []string{"response.created", "response.in_progress",
		"response.output_item.added", "response.output_text.delta", "response.output_text.done", "response.output_item.done",
		"response.output_item.added", "response.output_item.done", "response.completed"}, events)
	require.NotNil(t, completed)
	call := completed["output"].([]any)[1].(map[string]any)
	assert.Equal(t, map[string]any{"type": "function_call", "id": "fc_llmtest_2_0", "call_id": "c1", "name": "exec_command",
		"arguments": `{"cmd":"ls"}`, "status": "completed"}, call)
	reqs = srv.Requests()
	require.Len(t, reqs, 3)
	assert.NoError(t, reqs[2].DecodeError)
}

// TestEmbeddingsAndModels: embeddings are deterministic unit vectors that
// take no scripted reply; the model list names the default model.
func TestEmbeddingsAndModels(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	out := postJSON(t, srv.URL+"/embeddings", `{"model":"e","input":["a","b","a"],"dimensions":8}`)
	data := out["data"].([]any)
	require.Len(t, data, 3)
	vec := func(i int) []any { return data[i].(map[string]any)["embedding"].([]any) }
	require.Len(t, vec(0), 8)
	assert.Equal(t, vec(0), vec(2))
	assert.NotEqual(t, vec(0), vec(1))
	var norm float64
	for _, x := range vec(1) {
		norm += x.(float64) * x.(float64)
	}
	assert.InDelta(t, 1, math.Sqrt(norm), 1e-9)
	out = postJSON(t, srv.URL+"/embeddings", `{"model":"e","input":"one"}`)
	assert.Len(t, out["data"].([]any)[0].(map[string]any)["embedding"], 1536)
	assert.Empty(t, srv.Requests())

	resp, err := http.Get(srv.URL + "/models")
	require.NoError(t, err)
	defer resp.Body.Close()
	var models map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&models))
	assert.Equal(t, srv.Config().Model, models["data"].([]any)[0].(map[string]any)["id"])
}

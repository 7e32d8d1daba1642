package llmtest_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm/llmtest"
)

// TestReasoning: a reply's reasoning goes out before its answer as each
// protocol carries it, in a whole body and in a stream whose pieces join
// to the text: chat completions' reasoning_content, a Responses reasoning
// item's summary, an Anthropic thinking block with its signature, a
// Gemini part marked thought.
func TestReasoning(t *testing.T) {
	t.Parallel()
	const thought = "The user wants a greeting."
	for _, tc := range []struct {
		name, path, body string
		whole            func(t *testing.T, out map[string]any)
		stream           func(t *testing.T, names []string, data []map[string]any) string
	}{
		{"chat", "/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
			func(t *testing.T, out map[string]any) {
				msg := out["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)
				assert.Equal(t, thought, msg["reasoning_content"])
				assert.Equal(t, "Hello.", msg["content"])
			},
			func(t *testing.T, _ []string, data []map[string]any) string {
				var b strings.Builder
				for _, d := range data {
					if ch, _ := d["choices"].([]any); len(ch) > 0 {
						if r, ok := ch[0].(map[string]any)["delta"].(map[string]any)["reasoning_content"].(string); ok {
							b.WriteString(r)
						}
					}
				}
				return b.String()
			}},
		{"responses", "/responses", `{"model":"m","input":"hi"}`,
			func(t *testing.T, out map[string]any) {
				item := out["output"].([]any)[0].(map[string]any)
				assert.Equal(t, "reasoning", item["type"])
				assert.Equal(t, []any{map[string]any{"type": "summary_text", "text": thought}}, item["summary"])
				assert.Equal(t, "message", out["output"].([]any)[1].(map[string]any)["type"])
			},
			func(t *testing.T, names []string, data []map[string]any) string {
				var b strings.Builder
				for i, n := range names {
					if n == "response.reasoning_summary_text.delta" {
						b.WriteString(data[i]["delta"].(string))
					}
				}
				assert.Contains(t, names, "response.reasoning_summary_part.done")
				return b.String()
			}},
		{"anthropic", "/messages", `{"model":"m","max_tokens":64,"messages":[{"role":"user","content":"hi"}]}`,
			func(t *testing.T, out map[string]any) {
				block := out["content"].([]any)[0].(map[string]any)
				assert.Equal(t, map[string]any{"type": "thinking", "thinking": thought, "signature": "llmtest-signature"}, block)
			},
			func(t *testing.T, _ []string, data []map[string]any) string {
				var b strings.Builder
				signed := false
				for _, d := range data {
					if delta, ok := d["delta"].(map[string]any); ok {
						switch delta["type"] {
						case "thinking_delta":
							b.WriteString(delta["thinking"].(string))
						case "signature_delta":
							signed = true
						}
					}
				}
				assert.True(t, signed, "a signature_delta")
				return b.String()
			}},
		{"gemini", "/../v1beta/models/m:generateContent", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`,
			func(t *testing.T, out map[string]any) {
				parts := out["candidates"].([]any)[0].(map[string]any)["content"].(map[string]any)["parts"].([]any)
				assert.Equal(t, map[string]any{"text": thought, "thought": true}, parts[0])
				assert.Equal(t, map[string]any{"text": "Hello."}, parts[1])
			},
			func(t *testing.T, _ []string, data []map[string]any) string {
				var b strings.Builder
				for _, d := range data {
					for _, p := range d["candidates"].([]any)[0].(map[string]any)["content"].(map[string]any)["parts"].([]any) {
						if p := p.(map[string]any); p["thought"] == true {
							b.WriteString(p["text"].(string))
						}
					}
				}
				return b.String()
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t)
			srv.Enqueue(llmtest.Reply{Reasoning: thought, Content: "Hello."}, llmtest.Reply{Reasoning: thought, Content: "Hello."})
			url := srv.URL + tc.path
			tc.whole(t, postJSON(t, url, tc.body))
			streamURL, body := url, strings.Replace(tc.body, "{", `{"stream":true,`, 1)
			if tc.name == "gemini" {
				streamURL, body = strings.Replace(url, ":generateContent", ":streamGenerateContent?alt=sse", 1), tc.body
			}
			resp, err := http.Post(streamURL, "application/json", strings.NewReader(body))
			require.NoError(t, err)
			defer resp.Body.Close()
			names, data := sseData(t, &http.Response{Header: resp.Header, Body: withoutDone(resp)})
			assert.Equal(t, thought, tc.stream(t, names, data))
		})
	}
}

// withoutDone is a stream's body without chat completions' last event,
// "data: [DONE]", which is not JSON.
func withoutDone(resp *http.Response) io.ReadCloser {
	b, _ := io.ReadAll(resp.Body)
	return io.NopCloser(bytes.NewReader(bytes.ReplaceAll(b, []byte("data: [DONE]\n"), nil)))
}

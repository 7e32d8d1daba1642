package opencode

import (
	"bufio"
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/agent/internal/cliagent"
	"github.com/agenteval/agenteval/llm"
)

// TestEvents reads a recorded event stream (testdata/events.jsonl, in
// OpenCode 1.18's shapes): tool calls with arguments, output, error and
// timing (a call of a tool OpenCode does not offer is the model's call,
// failed), the text, the reasoning (--thinking), the tokens in OpenAI's
// terms, the steps' cost, the session id and the last step's reason; lines
// that are not events are skipped.
func TestEvents(t *testing.T) {
	f, err := os.Open("testdata/events.jsonl")
	require.NoError(t, err)
	defer f.Close()
	var tr transcript
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		require.NoError(t, tr.event(sc.Bytes()))
	}
	require.NoError(t, sc.Err())
	assert.Equal(t, "ses_1", tr.session)
	assert.Equal(t, "stop", tr.reason)
	assert.Equal(t, 2, tr.steps)
	r := tr.reply()
	assert.Equal(t, "Done.", r.Text)
	require.Len(t, r.Actions, 3)
	assert.Equal(t, "bash", r.Actions[0].Name)
	assert.Equal(t, map[string]any{"command": "gh pr list", "description": "List"}, r.Actions[0].Args)
	assert.Equal(t, "#1 fix\n", r.Actions[0].Result)
	assert.Equal(t, 40*time.Millisecond, r.Actions[0].End.Sub(r.Actions[0].Start))
	assert.Empty(t, r.Actions[0].Error)
	assert.Equal(t, "read", r.Actions[1].Name)
	assert.Equal(t, "File not found: /nope", r.Actions[1].Error)
	assert.Equal(t, "bash", r.Actions[2].Name)
	assert.Equal(t, "Model tried to call unavailable tool 'bash'.", r.Actions[2].Error)
	assert.Equal(t, llm.Usage{PromptTokens: 60 + 50 + 10 + 70, CompletionTokens: 8 + 2 + 3, TotalTokens: 203,
		ReasoningTokens: 2, CacheReadTokens: 50, CacheWriteTokens: 10, CostUSD: 0.0012}, r.Usage)
	assert.Equal(t, "The list is in; say so.", r.Thought)
	assert.Equal(t, "stop", r.EndReason)
}

// FuzzEvent: no line makes the event reader fail or panic, and tokens
// stay what the events said.
func FuzzEvent(f *testing.F) {
	data, err := os.ReadFile("testdata/events.jsonl")
	require.NoError(f, err)
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f.Add(append([]byte(nil), sc.Bytes()...))
	}
	f.Add([]byte(`{"type":"error","error":{"name":"APIError","data":{"message":"boom"}}}`))
	f.Add([]byte(`{"type":"tool_use","part":{"tool":"invalid","state":{"input":{"tool":7}}}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var tr transcript
		require.NoError(t, tr.event(line))
		_ = tr.reply()
	})
}

// TestMCPConfig: MCP servers become OpenCode's mcp section: a stdio
// server's command and environment, a remote one's URL and headers, its
// bearer token read from the environment ({env:NAME}), never written.
func TestMCPConfig(t *testing.T) {
	got := mcpConfig([]cliagent.MCPServer{
		{Name: "files", Command: []string{"mcp-files", "--root", "."}, Env: map[string]string{"LOG": "1"}},
		{Name: "github", URL: "https://mcp.example.test/mcp/", BearerTokenEnv: "GH_TOKEN", Headers: map[string]string{"X-Toolsets": "issues"}},
	})
	assert.Equal(t, map[string]any{
		"files": map[string]any{"type": "local", "command": []string{"mcp-files", "--root", "."}, "enabled": true, "environment": map[string]string{"LOG": "1"}},
		"github": map[string]any{"type": "remote", "url": "https://mcp.example.test/mcp/", "enabled": true, "oauth": false,
			"headers": map[string]string{"Authorization": "Bearer {env:GH_TOKEN}", "X-Toolsets": "issues"}},
	}, got)
}

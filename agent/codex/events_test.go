package codex

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
// Codex 0.171's shapes) of a resumed thread: the commands (their shell
// taken off), MCP calls and file changes as actions, warnings left out,
// the reasoning as the thought, the message, the turn's tokens as the
// difference from the thread's tokens before it, and how the turn ended.
func TestEvents(t *testing.T) {
	data, err := os.ReadFile("testdata/events.jsonl")
	require.NoError(t, err)
	tr := transcript{started: map[string]time.Time{},
		before: llm.Usage{PromptTokens: 20, CompletionTokens: 10, TotalTokens: 30, ReasoningTokens: 4, CacheReadTokens: 8}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		require.NoError(t, tr.event(sc.Bytes()))
	}
	assert.Equal(t, "01a22458-4e6b-7d73-94e1-63cc95a02b94", tr.thread)
	assert.Empty(t, tr.err)
	r := tr.reply()
	assert.Equal(t, "Done.", r.Text)
	assert.Equal(t, "thinking", r.Thought)
	assert.Equal(t, "completed", r.EndReason)
	require.Len(t, r.Actions, 3)
	assert.Equal(t, "shell", r.Actions[0].Name)
	assert.Equal(t, map[string]any{"command": "gh pr list"}, r.Actions[0].Args)
	assert.Equal(t, "exit status 127", r.Actions[0].Error)
	assert.Equal(t, "mcp__github__list_issues", r.Actions[1].Name)
	assert.Equal(t, map[string]any{"repo": "acme/demo"}, r.Actions[1].Args)
	assert.Equal(t, "apply_patch", r.Actions[2].Name)
	assert.Equal(t, llm.Usage{PromptTokens: 20, CompletionTokens: 10, TotalTokens: 30, ReasoningTokens: 4, CacheReadTokens: 8}, r.Usage)
	assert.Equal(t, llm.Usage{PromptTokens: 40, CompletionTokens: 20, TotalTokens: 60, ReasoningTokens: 8, CacheReadTokens: 16}, tr.total)

	// An item started and never completed (the step timed out) is a
	// failed action.
	open := transcript{started: map[string]time.Time{}}
	require.NoError(t, open.event([]byte(`{"type":"item.started","item":{"id":"item_1","type":"mcp_tool_call","server":"github","tool":"list_issues","arguments":{"repo":"a/b"},"status":"in_progress"}}`)))
	r = open.reply()
	require.Len(t, r.Actions, 1)
	assert.Equal(t, "mcp__github__list_issues", r.Actions[0].Name)
	assert.Equal(t, "no result: the run ended first", r.Actions[0].Error)

	var failed transcript
	require.NoError(t, failed.event([]byte(`{"type":"turn.failed","error":{"message":"stream disconnected"}}`)))
	assert.Equal(t, "stream disconnected", failed.err)
	assert.Equal(t, "failed", failed.reply().EndReason)
}

// FuzzEvent: no line makes the event reader fail or panic.
func FuzzEvent(f *testing.F) {
	data, err := os.ReadFile("testdata/events.jsonl")
	require.NoError(f, err)
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f.Add(append([]byte(nil), sc.Bytes()...))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		tr := transcript{started: map[string]time.Time{}}
		require.NoError(t, tr.event(line))
		_ = tr.reply()
		_ = innerCommand(string(line))
	})
}

// TestMCPConfig: MCP servers become Codex's mcp_servers as -c overrides,
// every tool approved beforehand (nobody is there to approve a call); a
// remote server's bearer token is read from the environment.
func TestMCPConfig(t *testing.T) {
	got := mcpConfig([]cliagent.MCPServer{
		{Name: "files", Command: []string{"mcp-files", "--root", "."}, Env: map[string]string{"LOG": "1"}},
		{Name: "github", URL: "https://mcp.example.test/mcp/", BearerTokenEnv: "GH_TOKEN", Headers: map[string]string{"X-Toolsets": "issues"}},
	})
	assert.Equal(t, []string{
		`mcp_servers.files.default_tools_approval_mode="approve"`,
		`mcp_servers.files.command="mcp-files"`,
		`mcp_servers.files.args=["--root","."]`,
		`mcp_servers.files.env={"LOG"="1"}`,
		`mcp_servers.github.default_tools_approval_mode="approve"`,
		`mcp_servers.github.url="https://mcp.example.test/mcp/"`,
		`mcp_servers.github.bearer_token_env_var="GH_TOKEN"`,
		`mcp_servers.github.http_headers={"X-Toolsets"="issues"}`,
	}, got)
}

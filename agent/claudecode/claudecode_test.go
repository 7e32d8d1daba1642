package claudecode

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/agent/internal/cliagent/cliagenttest"
	"github.com/agenteval/agenteval/internal/proctest"
	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/internal/toolclass"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
	"github.com/agenteval/agenteval/runner"
)

// newTestAgent builds claude-code:fake-model against srv's Messages API
// with the Claude Code the tests found (scripts/test.sh installs it).
func newTestAgent(t *testing.T, srv *llmtest.Server, allowCommands bool) runner.Agent {
	t.Helper()
	return newModelAgent(t, srv, "fake-model", allowCommands)
}

// newModelAgent is newTestAgent with another model.
func newModelAgent(t *testing.T, srv *llmtest.Server, model string, allowCommands bool) runner.Agent {
	t.Helper()
	bin := testtool.Need(t, "claude")
	env := map[string]string{"AGENTEVAL_CLAUDE_CODE": bin, "ANTHROPIC_BASE_URL": strings.TrimSuffix(srv.URL, "/v1"),
		"ANTHROPIC_API_KEY": "sk-ant-test-not-a-real-key-0000"}
	a, err := Type().New(model, runner.AgentOptions{Getenv: func(k string) string { return env[k] },
		Instructions: "Answer in English, agenteval-instructions-7.", AllowCommands: allowCommands})
	require.NoError(t, err)
	return a
}

// TestSessionTranscriptAndResume runs the real Claude Code against the
// fake Messages API: it writes a file, runs a command and answers; a
// second message resumes the same session. The reply holds what the fake
// sent: the text, each tool call with its arguments and result, and the
// run's tokens (cache reads and writes included); the file is in the
// job's directory, the instructions (CLAUDE.md) and the key reached the
// model, and nothing was written outside the job's directory and its
// configuration home.
func TestSessionTranscriptAndResume(t *testing.T) {
	srv := llmtest.NewServer(t)
	a := newModelAgent(t, srv, "claude-sonnet-4-5", true) // before HOME moves: the npm folder may be under it
	home, tmp := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("TMPDIR", tmp)
	u1 := llm.Usage{PromptTokens: 1000, CompletionTokens: 20, TotalTokens: 1020, CacheReadTokens: 400, CacheWriteTokens: 100}
	u2 := llm.Usage{PromptTokens: 1100, CompletionTokens: 30, TotalTokens: 1130}
	u3 := llm.Usage{PromptTokens: 1200, CompletionTokens: 7, TotalTokens: 1207}
	u4 := llm.Usage{PromptTokens: 1300, CompletionTokens: 5, TotalTokens: 1305, CacheReadTokens: 1000}
	_, dir := cliagenttest.Job(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llm.ToolCall{cliagenttest.Call("toolu_w", "Write", `{"file_path":"`+filepath.Join(dir, "notes.txt")+`","content":"hello from the agent\n"}`)}, Usage: &u1},
		llmtest.Reply{ToolCalls: []llm.ToolCall{cliagenttest.Call("toolu_b", "Bash", `{"command":"cat notes.txt","description":"Show the notes"}`)}, Usage: &u2},
		llmtest.Reply{Reasoning: "The notes are written and shown.", Content: "I wrote notes.txt.", Usage: &u3},
		llmtest.Reply{Content: "It says hello.", Usage: &u4},
	)
	s, err := a.NewSession(context.Background(), runner.SessionConfig{JobID: "x/-/run-1", Dir: dir})
	require.NoError(t, err)
	reply, err := s.Send(context.Background(), "Write notes.txt, then show it.")
	require.NoError(t, err)
	assert.Equal(t, "I wrote notes.txt.", reply.Text)
	require.Len(t, reply.Actions, 2)
	w, b := reply.Actions[0], reply.Actions[1]
	assert.Equal(t, "Write", w.Name)
	assert.Equal(t, "hello from the agent\n", w.Args["content"])
	assert.Empty(t, w.Error)
	assert.Equal(t, "Bash", b.Name)
	assert.Equal(t, "cat notes.txt", b.Args["command"])
	assert.Contains(t, b.Result, "hello from the agent")
	assert.Empty(t, b.Error)
	for _, act := range reply.Actions {
		assert.False(t, act.Start.IsZero() || act.End.Before(act.Start), "%s: %v..%v", act.Name, act.Start, act.End)
	}
	assert.Equal(t, "The notes are written and shown.", reply.Thought, "the thinking block the fake sent")
	assert.Equal(t, "end_turn", reply.EndReason)
	// Claude Code prices the tokens the fake sent at its own list price of
	// claude-sonnet-4-5: $3 input, $15 output, $0.30 cache reads, $3.75
	// cache writes a million.
	want := u1.Add(u2).Add(u3)
	want.CostUSD = sonnetCost(want)
	assert.Equal(t, want, reply.Usage)
	got, err := os.ReadFile(filepath.Join(dir, "notes.txt"))
	require.NoError(t, err)
	assert.Equal(t, "hello from the agent\n", string(got))

	reply, err = s.Send(context.Background(), "What does it say?")
	require.NoError(t, err)
	assert.Equal(t, "It says hello.", reply.Text)
	assert.Empty(t, reply.Actions)
	want = u4
	want.CostUSD = sonnetCost(u4)
	assert.Equal(t, want, reply.Usage, "a resumed run counts its own tokens and cost")
	require.NoError(t, s.Close())

	reqs := srv.Requests()
	require.Len(t, reqs, 4)
	for _, r := range reqs {
		assert.Equal(t, "/v1/messages", r.Path)
		assert.Contains(t, string(r.Body), "agenteval-instructions-7", "the instructions reach every request")
		assert.Equal(t, "sk-ant-test-not-a-real-key-0000", r.Header.Get("X-Api-Key"))
	}
	// The second message resumed the session: its request carries the
	// first conversation.
	last := string(reqs[3].Body)
	assert.Contains(t, last, "Write notes.txt, then show it.")
	assert.Contains(t, last, "I wrote notes.txt.")
	assert.Contains(t, last, "What does it say?")

	entries, err := os.ReadDir(filepath.Dir(dir))
	require.NoError(t, err)
	require.Len(t, entries, 1, "the configuration home is removed with the session")
	for _, d := range []string{home, tmp} {
		entries, err := os.ReadDir(d)
		require.NoError(t, err)
		assert.Empty(t, entries, "nothing is written to %s", d)
	}
}

// TestCommandsNeedAllowCommands: without --allow-commands Claude Code's
// Bash tool is not offered; the model's call of it is recorded as failed
// and nothing ran.
func TestCommandsNeedAllowCommands(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Calls(cliagenttest.Call("toolu_b", "Bash", `{"command":"touch made-by-bash","description":"Make a file"}`)),
		llmtest.Text("I could not run it."),
	)
	a := newTestAgent(t, srv, false)
	s, _, dir := cliagenttest.Session(t, a, runner.SessionConfig{})
	reply, err := s.Send(context.Background(), "Make a file with bash.")
	require.NoError(t, err)
	require.Len(t, reply.Actions, 1)
	assert.Equal(t, "Bash", reply.Actions[0].Name)
	assert.NotEmpty(t, reply.Actions[0].Error)
	assert.NoFileExists(t, filepath.Join(dir, "made-by-bash"))
	for _, tool := range srv.Requests()[0].Chat.Tools {
		assert.NotEqual(t, "Bash", tool.Name, "Bash is not offered")
	}
}

// TestTimeoutKillsTheProcessTree: a step that times out while Claude
// Code's shell runs a command kills Claude Code and the command (which
// Claude Code runs in a process group of its own), and says so, and the
// reply holds what had come. The command is not a lone sleep, which
// Claude Code refuses to run.
func TestTimeoutKillsTheProcessTree(t *testing.T) {
	t.Parallel()
	marker := proctest.SleepArg()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Reasoning: "A long wait.", Content: "Waiting.",
		ToolCalls: []llm.ToolCall{cliagenttest.Call("toolu_b", "Bash", `{"command":"echo waiting; sleep `+marker+`","description":"Wait"}`)}})
	a := newTestAgent(t, srv, true)
	reply := cliagenttest.SendUntilTimeout(t, a, marker, "Wait.")
	// What had come before the kill is the reply: the text, the thinking,
	// the call that never returned.
	assert.Equal(t, "Waiting.", reply.Text)
	assert.Equal(t, "A long wait.", reply.Thought)
	require.Len(t, reply.Actions, 1)
	assert.Equal(t, "Bash", reply.Actions[0].Name)
	assert.Equal(t, "echo waiting; sleep "+marker, reply.Actions[0].Args["command"])
	assert.Equal(t, "no result: the run ended first", reply.Actions[0].Error)
	assert.Empty(t, reply.EndReason, "no result came")
}

// TestMissingCLINamesTheInstall: without Claude Code the spec fails with
// the command that installs it.
func TestMissingCLINamesTheInstall(t *testing.T) {
	cliagenttest.MissingProgram(t, Type(), "AGENTEVAL_CLAUDE_CODE", "npm install -g @anthropic-ai/claude-code@"+version)
}

// TestMocksAsMCPTools: the scenario's mocks reach Claude Code as the
// tools of the session's MCP server (allowed beforehand, as nobody is
// there to approve them); its calls are mcp__mocks__SERVICE__METHOD
// (ghx's mcp category), answered and recorded by the job's mocks, a
// mock's error the call's. (The fake model calls them without Claude
// Code's ToolSearch step, which Claude Code allows.)
func TestMocksAsMCPTools(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Calls(cliagenttest.Call("toolu_m", "mcp__mocks__github__getIssue", `{"number":7}`)),
		llmtest.Calls(cliagenttest.Call("toolu_e", "mcp__mocks__github__closeIssue", `{"number":7}`)),
		llmtest.Text("Issue 7 is open: Crash on start."),
	)
	a := newTestAgent(t, srv, false)
	s, set := cliagenttest.MockSession(t, a, cliagenttest.IssueMocks(true))
	reply, err := s.Send(context.Background(), "Is issue 7 open? Then close it.")
	require.NoError(t, err)
	require.NoError(t, s.Close())
	assert.Equal(t, "Issue 7 is open: Crash on start.", reply.Text)
	require.Len(t, reply.Actions, 2)
	got, closed := reply.Actions[0], reply.Actions[1]
	assert.Equal(t, "mcp__mocks__github__getIssue", got.Name)
	assert.Equal(t, "mcp", toolclass.Classify(got.Name, got.Args))
	assert.Equal(t, map[string]any{"number": 7.0}, got.Args)
	assert.Contains(t, got.Result, `"title":"Crash on start"`)
	assert.Empty(t, got.Error)
	assert.Equal(t, "mcp__mocks__github__closeIssue", closed.Name)
	assert.Contains(t, closed.Error, "E_FORBIDDEN: read-only token")

	calls := set.Calls()
	require.Len(t, calls, 2)
	assert.Equal(t, "getIssue", calls[0].Method)
	assert.Equal(t, []any{map[string]any{"number": 7.0}}, calls[0].Args)
	assert.Equal(t, "E_FORBIDDEN: read-only token", calls[1].Error)

	// Claude Code defers MCP tools behind its ToolSearch tool (their names
	// listed, their schemas loaded on demand), as its users get them.
	req := srv.Requests()[0]
	var offered []string
	for _, tool := range req.Chat.Tools {
		offered = append(offered, tool.Name)
	}
	assert.Contains(t, offered, "ToolSearch")
	assert.Contains(t, string(req.Body), "mcp__mocks__github__getIssue")
	assert.Contains(t, string(req.Body), "mcp__mocks__github__closeIssue")
}

// TestWritesStayInTheJobDir: a write outside the job's directory is
// refused (nobody is there to approve it) and recorded as a failed call;
// the file is not made.
func TestWritesStayInTheJobDir(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "outside.txt")
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Calls(cliagenttest.Call("toolu_o", "Write", `{"file_path":"`+outside+`","content":"escaped\\n"}`)),
		llmtest.Text("I could not write it."),
	)
	a := newTestAgent(t, srv, true)
	s, _, _ := cliagenttest.Session(t, a, runner.SessionConfig{})
	reply, err := s.Send(context.Background(), "Write outside.")
	require.NoError(t, err)
	require.Len(t, reply.Actions, 1)
	assert.Equal(t, "Write", reply.Actions[0].Name)
	assert.NotEmpty(t, reply.Actions[0].Error)
	assert.NoFileExists(t, outside)
}

// sonnetCost is what Claude Code charges for u at claude-sonnet-4-5's list
// prices, rounded to a billionth of a dollar.
func sonnetCost(u llm.Usage) float64 {
	input := u.PromptTokens - u.CacheReadTokens - u.CacheWriteTokens
	micro := 3*float64(input) + 15*float64(u.CompletionTokens) + 0.30*float64(u.CacheReadTokens) + 3.75*float64(u.CacheWriteTokens)
	return math.Round(micro*1e3) / 1e9
}

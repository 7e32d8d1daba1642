package geminicli

import (
	"context"
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

// newTestAgent builds gemini-cli:fake-model against srv's Gemini API with
// the Gemini CLI the tests found (scripts/test.sh installs it).
func newTestAgent(t *testing.T, srv *llmtest.Server, allowCommands bool) runner.Agent {
	t.Helper()
	bin := testtool.Need(t, "gemini")
	env := map[string]string{"AGENTEVAL_GEMINI_CLI": bin, "GOOGLE_GEMINI_BASE_URL": strings.TrimSuffix(srv.URL, "/v1"),
		"GEMINI_API_KEY": "gemini-test-not-a-real-key-0000"}
	a, err := Type().New("fake-model", runner.AgentOptions{Getenv: func(k string) string { return env[k] },
		Instructions: "Answer in English, agenteval-instructions-7.", AllowCommands: allowCommands})
	require.NoError(t, err)
	return a
}

// TestSessionTranscriptAndResume runs the real Gemini CLI against the fake
// Gemini API: it writes a file, runs a command and answers; a second
// message resumes the same session. The reply holds what the fake sent:
// the text, each tool call with its arguments and result (the shell's as
// "shell"), and the run's tokens (cache reads included; the resumed run's
// own, though Gemini CLI counts the session's); the file is in the job's
// directory, the instructions (GEMINI.md) and the key reached the model,
// and nothing was written outside the job's directory and its home.
func TestSessionTranscriptAndResume(t *testing.T) {
	srv := llmtest.NewServer(t)
	a := newTestAgent(t, srv, true) // before HOME moves: the npm folder may be under it
	home, tmp := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("TMPDIR", tmp)
	u1 := llm.Usage{PromptTokens: 1000, CompletionTokens: 20, TotalTokens: 1020, CacheReadTokens: 400}
	u2 := llm.Usage{PromptTokens: 1100, CompletionTokens: 30, TotalTokens: 1130}
	u3 := llm.Usage{PromptTokens: 1200, CompletionTokens: 7, TotalTokens: 1207}
	u4 := llm.Usage{PromptTokens: 1300, CompletionTokens: 15, TotalTokens: 1315, CacheReadTokens: 1000, ReasoningTokens: 10}
	_, dir := cliagenttest.Job(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llm.ToolCall{cliagenttest.Call("", "write_file", `{"file_path":"notes.txt","content":"hello from the agent\n"}`)}, Usage: &u1},
		llmtest.Reply{ToolCalls: []llm.ToolCall{cliagenttest.Call("", "run_shell_command", `{"command":"cat notes.txt","description":"Show the notes"}`)}, Usage: &u2},
		llmtest.Reply{Content: "I wrote notes.txt.", Usage: &u3},
		llmtest.Reply{Reasoning: "It said hello.", Content: "It says hello.", Usage: &u4},
	)
	s, err := a.NewSession(context.Background(), runner.SessionConfig{JobID: "x/-/run-1", Dir: dir})
	require.NoError(t, err)
	reply, err := s.Send(context.Background(), "Write notes.txt, then show it.")
	require.NoError(t, err)
	assert.Equal(t, "I wrote notes.txt.", reply.Text)
	require.Len(t, reply.Actions, 2)
	w, b := reply.Actions[0], reply.Actions[1]
	assert.Equal(t, "write_file", w.Name)
	assert.Equal(t, "hello from the agent\n", w.Args["content"])
	assert.Empty(t, w.Error)
	assert.Equal(t, "shell", b.Name)
	assert.Equal(t, "cat notes.txt", b.Args["command"])
	assert.Contains(t, b.Result, "hello from the agent")
	assert.Empty(t, b.Error)
	for _, act := range reply.Actions {
		assert.False(t, act.Start.IsZero() || act.End.Before(act.Start), "%s: %v..%v", act.Name, act.Start, act.End)
	}
	assert.Equal(t, u1.Add(u2).Add(u3), reply.Usage)
	assert.Equal(t, "success", reply.EndReason)
	got, err := os.ReadFile(filepath.Join(dir, "notes.txt"))
	require.NoError(t, err)
	assert.Equal(t, "hello from the agent\n", string(got))

	reply, err = s.Send(context.Background(), "What does it say?")
	require.NoError(t, err)
	assert.Equal(t, "It says hello.", reply.Text)
	assert.Empty(t, reply.Actions)
	assert.Equal(t, u4, reply.Usage, "a resumed run counts its own tokens")
	assert.Empty(t, reply.Thought, "Gemini CLI's stream-json carries no thought text (its tokens are counted)")
	assert.NotContains(t, reply.Text, "It said hello.", "nor is the thought taken for the answer")
	require.NoError(t, s.Close())

	reqs := srv.Requests()
	require.Len(t, reqs, 4)
	for _, r := range reqs {
		assert.Equal(t, "/v1beta/models/fake-model:streamGenerateContent", r.Path)
		assert.Contains(t, string(r.Body), "agenteval-instructions-7", "the instructions reach every request")
		assert.Equal(t, "gemini-test-not-a-real-key-0000", r.Header.Get("X-Goog-Api-Key"))
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

// TestCommandsNeedAllowCommands: without --allow-commands Gemini CLI's
// shell tool is not offered; the model's call of it is recorded as failed
// and nothing ran.
func TestCommandsNeedAllowCommands(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Calls(cliagenttest.Call("", "run_shell_command", `{"command":"touch made-by-bash","description":"Make a file"}`)),
		llmtest.Text("I could not run it."),
	)
	a := newTestAgent(t, srv, false)
	s, _, dir := cliagenttest.Session(t, a, runner.SessionConfig{})
	reply, err := s.Send(context.Background(), "Make a file with bash.")
	require.NoError(t, err)
	require.Len(t, reply.Actions, 1)
	assert.Equal(t, "shell", reply.Actions[0].Name)
	assert.NotEmpty(t, reply.Actions[0].Error)
	assert.NoFileExists(t, filepath.Join(dir, "made-by-bash"))
	tools := srv.Requests()[0].Chat.Tools
	require.NotEmpty(t, tools)
	for _, tool := range tools {
		assert.NotEqual(t, "run_shell_command", tool.Name, "the shell is not offered")
	}
}

// TestTimeoutKillsTheProcessTree: a step that times out while Gemini
// CLI's shell runs a command kills Gemini CLI and the command, and says
// so; the reply holds what had come.
func TestTimeoutKillsTheProcessTree(t *testing.T) {
	t.Parallel()
	marker := proctest.SleepArg()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Content: "Waiting.",
		ToolCalls: []llm.ToolCall{cliagenttest.Call("", "run_shell_command", `{"command":"echo waiting; sleep `+marker+`","description":"Wait"}`)}})
	a := newTestAgent(t, srv, true)
	reply := cliagenttest.SendUntilTimeout(t, a, marker, "Wait.")
	// What had come is the reply: the text, the call that never returned.
	assert.Equal(t, "Waiting.", reply.Text)
	require.Len(t, reply.Actions, 1)
	assert.Equal(t, "shell", reply.Actions[0].Name)
	assert.Equal(t, "no result: the run ended first", reply.Actions[0].Error)
	assert.Empty(t, reply.EndReason)
}

// TestMissingCLINamesTheInstall: without Gemini CLI the spec fails with
// the command that installs it.
func TestMissingCLINamesTheInstall(t *testing.T) {
	cliagenttest.MissingProgram(t, Type(), "AGENTEVAL_GEMINI_CLI", "npm install -g @google/gemini-cli@"+version)
}

// TestMocksAsMCPTools: the scenario's mocks reach Gemini CLI as the tools
// of the session's MCP server (trusted: nobody is there to confirm); its
// calls (mcp_mocks_SERVICE__METHOD to Gemini CLI) are recorded as
// mcp__mocks__SERVICE__METHOD (ghx's mcp category), answered and recorded
// by the job's mocks, a mock's error the call's.
func TestMocksAsMCPTools(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Calls(cliagenttest.Call("", "mcp_mocks_github__getIssue", `{"number":7}`)),
		llmtest.Calls(cliagenttest.Call("", "mcp_mocks_github__closeIssue", `{"number":7}`)),
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
	assert.Contains(t, got.Result, "Crash on start")
	assert.Empty(t, got.Error)
	assert.Equal(t, "mcp__mocks__github__closeIssue", closed.Name)
	assert.NotEmpty(t, closed.Error)

	calls := set.Calls()
	require.Len(t, calls, 2)
	assert.Equal(t, "getIssue", calls[0].Method)
	assert.Equal(t, []any{map[string]any{"number": 7.0}}, calls[0].Args)
	assert.Equal(t, "E_FORBIDDEN: read-only token", calls[1].Error)

	var offered []string
	for _, tool := range srv.Requests()[0].Chat.Tools {
		offered = append(offered, tool.Name)
	}
	assert.Contains(t, offered, "mcp_mocks_github__getIssue")
	assert.Contains(t, offered, "mcp_mocks_github__closeIssue")
}

// TestWritesStayInTheJobDir: a write outside the job's directory is
// refused (nobody is there to approve it) and recorded as a failed call;
// the file is not made.
func TestWritesStayInTheJobDir(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "outside.txt")
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Calls(cliagenttest.Call("", "write_file", `{"file_path":"`+outside+`","content":"escaped\\n"}`)),
		llmtest.Text("I could not write it."),
	)
	a := newTestAgent(t, srv, true)
	s, _, _ := cliagenttest.Session(t, a, runner.SessionConfig{})
	reply, err := s.Send(context.Background(), "Write outside.")
	require.NoError(t, err)
	require.Len(t, reply.Actions, 1)
	assert.Equal(t, "write_file", reply.Actions[0].Name)
	assert.NotEmpty(t, reply.Actions[0].Error)
	assert.NoFileExists(t, outside)
}

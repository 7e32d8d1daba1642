package codex

import (
	"context"
	"os"
	"path/filepath"
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

// newTestAgent builds codex:fake-model against srv with the Codex the
// tests found (scripts/test.sh installs it).
func newTestAgent(t *testing.T, srv *llmtest.Server, allowCommands bool) runner.Agent {
	t.Helper()
	bin := testtool.Need(t, "codex")
	env := map[string]string{"AGENTEVAL_CODEX": bin, "OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-test-not-a-real-key-0000"}
	a, err := Type().New("fake-model", runner.AgentOptions{Getenv: func(k string) string { return env[k] },
		Instructions: "Answer in English, agenteval-instructions-7.", AllowCommands: allowCommands})
	require.NoError(t, err)
	return a
}

// TestSessionTranscriptAndResume runs the real Codex against the fake
// model (Responses API): it runs a command that writes a file and answers;
// a second message resumes the same thread. The replies hold the fake's
// text, the command with its output, and each turn's tokens; nothing is
// written outside the job's directory and its configuration home.
func TestSessionTranscriptAndResume(t *testing.T) {
	srv := llmtest.NewServer(t)
	a := newTestAgent(t, srv, true) // before HOME moves: the npm folder may be under it
	home, tmp := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("TMPDIR", tmp)
	u1 := llm.Usage{PromptTokens: 1000, CompletionTokens: 20, TotalTokens: 1020, CacheReadTokens: 400, ReasoningTokens: 6}
	u2 := llm.Usage{PromptTokens: 1100, CompletionTokens: 7, TotalTokens: 1107}
	u3 := llm.Usage{PromptTokens: 1300, CompletionTokens: 5, TotalTokens: 1305, CacheReadTokens: 1000}
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llm.ToolCall{cliagenttest.Call("call_1", "exec_command", `{"cmd":"echo 'hello from the agent' > notes.txt && cat notes.txt"}`)}, Usage: &u1},
		llmtest.Reply{Reasoning: "The notes are written and shown.", Content: "I wrote notes.txt.", Usage: &u2},
		llmtest.Reply{Content: "It says hello.", Usage: &u3},
	)
	work, dir := cliagenttest.Job(t)
	s, err := a.NewSession(context.Background(), runner.SessionConfig{JobID: "x/-/run-1", Dir: dir})
	require.NoError(t, err)
	reply, err := s.Send(context.Background(), "Write notes.txt, then show it.")
	require.NoError(t, err)
	assert.Equal(t, "I wrote notes.txt.", reply.Text)
	require.Len(t, reply.Actions, 1)
	act := reply.Actions[0]
	assert.Equal(t, "shell", act.Name)
	assert.Equal(t, map[string]any{"command": "echo 'hello from the agent' > notes.txt && cat notes.txt"}, act.Args)
	assert.Equal(t, "hello from the agent\n", act.Result)
	assert.Empty(t, act.Error)
	assert.False(t, act.End.Before(act.Start))
	assert.Equal(t, u1.Add(u2), reply.Usage)
	assert.Equal(t, "The notes are written and shown.", reply.Thought, "the reasoning summary the fake sent")
	assert.Equal(t, "completed", reply.EndReason)
	got, err := os.ReadFile(filepath.Join(dir, "notes.txt"))
	require.NoError(t, err)
	assert.Equal(t, "hello from the agent\n", string(got))

	reply, err = s.Send(context.Background(), "What does it say?")
	require.NoError(t, err)
	assert.Equal(t, "It says hello.", reply.Text)
	assert.Empty(t, reply.Actions)
	assert.Equal(t, u3, reply.Usage, "the second turn's own tokens")
	require.NoError(t, s.Close())

	reqs := srv.Requests()
	require.Len(t, reqs, 3)
	for _, r := range reqs {
		assert.Equal(t, "/v1/responses", r.Path)
		assert.Contains(t, string(r.Body), "agenteval-instructions-7", "the instructions reach every request")
		assert.Equal(t, "Bearer sk-test-not-a-real-key-0000", r.Header.Get("Authorization"))
	}
	last := string(reqs[2].Body)
	assert.Contains(t, last, "Write notes.txt, then show it.", "the thread was resumed")
	assert.Contains(t, last, "I wrote notes.txt.")
	assert.Contains(t, last, "What does it say?")

	entries, err := os.ReadDir(work)
	require.NoError(t, err)
	require.Len(t, entries, 1, "the configuration home is removed with the session")
	for _, d := range []string{home, tmp} {
		entries, err := os.ReadDir(d)
		require.NoError(t, err)
		assert.Empty(t, entries, "nothing is written to %s", d)
	}
}

// TestCommandsNeedAllowCommands: without --allow-commands Codex is offered
// no shell tool.
func TestCommandsNeedAllowCommands(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Text("I cannot run commands."))
	a := newTestAgent(t, srv, false)
	s, _, _ := cliagenttest.Session(t, a, runner.SessionConfig{})
	reply, err := s.Send(context.Background(), "Run ls.")
	require.NoError(t, err)
	assert.Equal(t, "I cannot run commands.", reply.Text)
	body := string(srv.Requests()[0].Body)
	assert.NotContains(t, body, `"name":"exec_command"`)
	assert.NotContains(t, body, `"name":"shell"`)
}

// TestTimeoutKillsTheProcessTree: a step that times out while Codex runs a
// command kills Codex and the command, and says so; the reply holds what
// had come.
func TestTimeoutKillsTheProcessTree(t *testing.T) {
	t.Parallel()
	marker := proctest.SleepArg()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Reasoning: "A long wait.", Content: "Waiting.",
		ToolCalls: []llm.ToolCall{cliagenttest.Call("call_1", "exec_command", `{"cmd":"sleep `+marker+`","yield_time_ms":600000}`)}})
	a := newTestAgent(t, srv, true)
	reply := cliagenttest.SendUntilTimeout(t, a, marker, "Wait.")
	// What had come is the reply: the reasoning and the message. (Codex
	// 0.171 announces no item for the exec_command it was running.)
	assert.Equal(t, "Waiting.", reply.Text)
	assert.Equal(t, "A long wait.", reply.Thought)
	assert.Empty(t, reply.EndReason, "the turn never ended")
}

// TestMissingCLINamesTheInstall: without Codex the spec fails with the
// command that installs it.
func TestMissingCLINamesTheInstall(t *testing.T) {
	cliagenttest.MissingProgram(t, Type(), "AGENTEVAL_CODEX", "npm install -g @openai/codex@"+version)
}

// TestInnerCommand: the command Codex ran through a shell is what ghx's
// classifier sees.
func TestInnerCommand(t *testing.T) {
	for in, want := range map[string]string{
		`/bin/bash -lc 'gh pr list'`:         "gh pr list",
		`/bin/bash -lc 'echo '\''x'\'' > f'`: "echo 'x' > f",
		`bash -lc "ls -la"`:                  "ls -la",
		`gh issue view 1`:                    "gh issue view 1",
	} {
		assert.Equal(t, want, innerCommand(in), in)
	}
}

// TestMocksAsMCPTools: the scenario's mocks reach Codex as the tools of
// the built-in MCP server; the model calls one, the call is answered and
// recorded by the job's mocks, the model gets the mock's response, and
// the transcript names the call mcp__mocks__SERVICE__METHOD (ghx's mcp
// category).
func TestMocksAsMCPTools(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Calls(cliagenttest.Call("call_m", "mcp__mocks__github__getIssue", `{"number":7}`)),
		llmtest.Text("Issue 7 is open: Crash on start."),
	)
	a := newTestAgent(t, srv, false)
	s, set := cliagenttest.MockSession(t, a, cliagenttest.IssueMocks(false))
	reply, err := s.Send(context.Background(), "Is issue 7 open?")
	require.NoError(t, err)
	require.NoError(t, s.Close())
	assert.Equal(t, "Issue 7 is open: Crash on start.", reply.Text)
	require.Len(t, reply.Actions, 1)
	got := reply.Actions[0]
	assert.Equal(t, "mcp__mocks__github__getIssue", got.Name)
	assert.Equal(t, "mcp", toolclass.Classify(got.Name, got.Args))
	assert.Equal(t, map[string]any{"number": 7.0}, got.Args)
	assert.Empty(t, got.Error)

	calls := set.Calls()
	require.Len(t, calls, 1)
	assert.Equal(t, "getIssue", calls[0].Method)
	assert.Equal(t, []any{map[string]any{"number": 7.0}}, calls[0].Args)
	assert.Equal(t, 0, calls[0].Mock)

	reqs := srv.Requests()
	require.Len(t, reqs, 2)
	assert.Contains(t, string(reqs[0].Body), "getIssue", "the mock is offered as a tool")
	// What the model received as the tool's result.
	assert.Contains(t, string(reqs[1].Body), `Crash on start`)
}

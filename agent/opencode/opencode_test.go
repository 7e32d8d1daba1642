package opencode

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

// newTestAgent builds opencode:fake-model against srv with the OpenCode
// the tests found (scripts/test.sh installs it).
func newTestAgent(t *testing.T, srv *llmtest.Server, allowCommands bool) runner.Agent {
	t.Helper()
	bin := testtool.Need(t, "opencode")
	env := map[string]string{"AGENTEVAL_OPENCODE": bin, "OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-test-not-a-real-key-0000"}
	a, err := Type().New("fake-model", runner.AgentOptions{Getenv: func(k string) string { return env[k] },
		Instructions: "Answer in English, agenteval-instructions-7.", AllowCommands: allowCommands})
	require.NoError(t, err)
	return a
}

// TestSessionTranscriptAndResume runs the real OpenCode against the fake
// model: it writes a file, runs a command and answers; a second message
// continues the same OpenCode session. The reply holds what the fake
// sent: the text, each tool call with its arguments and result, and the
// tokens of every step; the file is in the job's directory, the
// instructions reached the model, and nothing was written outside the
// job's directory and its configuration home (HOME and TMPDIR stay empty).
func TestSessionTranscriptAndResume(t *testing.T) {
	srv := llmtest.NewServer(t)
	a := newTestAgent(t, srv, true) // before HOME moves: the npm folder may be under it
	home, tmp := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("TMPDIR", tmp)
	u1 := llm.Usage{PromptTokens: 1000, CompletionTokens: 20, TotalTokens: 1020, CacheReadTokens: 400}
	u2 := llm.Usage{PromptTokens: 1100, CompletionTokens: 30, TotalTokens: 1130}
	u3 := llm.Usage{PromptTokens: 1200, CompletionTokens: 7, TotalTokens: 1207}
	u4 := llm.Usage{PromptTokens: 1300, CompletionTokens: 5, TotalTokens: 1305}
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llm.ToolCall{cliagenttest.Call("call_w", "write", `{"filePath":"notes.txt","content":"hello from the agent\n"}`)}, Usage: &u1},
		llmtest.Reply{ToolCalls: []llm.ToolCall{cliagenttest.Call("call_b", "bash", `{"command":"cat notes.txt","description":"Show the notes"}`)}, Usage: &u2},
		llmtest.Reply{Reasoning: "The notes are written and shown.", Content: "I wrote notes.txt.", Usage: &u3},
		llmtest.Reply{Content: "It says hello.", Usage: &u4},
	)
	work, dir := cliagenttest.Job(t)
	s, err := a.NewSession(context.Background(), runner.SessionConfig{JobID: "x/-/run-1", Dir: dir})
	require.NoError(t, err)
	reply, err := s.Send(context.Background(), "Write notes.txt, then show it.")
	require.NoError(t, err)
	assert.Equal(t, "I wrote notes.txt.", reply.Text)
	require.Len(t, reply.Actions, 2)
	w, b := reply.Actions[0], reply.Actions[1]
	assert.Equal(t, "write", w.Name)
	assert.Equal(t, map[string]any{"filePath": "notes.txt", "content": "hello from the agent\n"}, w.Args)
	assert.Empty(t, w.Error)
	assert.Equal(t, "bash", b.Name)
	assert.Equal(t, "cat notes.txt", b.Args["command"])
	assert.Contains(t, b.Result, "hello from the agent")
	for _, act := range reply.Actions {
		assert.False(t, act.Start.IsZero() || act.End.Before(act.Start), "%s: %v..%v", act.Name, act.Start, act.End)
	}
	// OpenCode's own counts, back in OpenAI's terms: the cached tokens
	// within the prompt.
	assert.Equal(t, u1.Add(u2).Add(u3), reply.Usage)
	assert.Equal(t, "The notes are written and shown.", reply.Thought, "the reasoning the fake sent")
	assert.Equal(t, "stop", reply.EndReason)
	got, err := os.ReadFile(filepath.Join(dir, "notes.txt"))
	require.NoError(t, err)
	assert.Equal(t, "hello from the agent\n", string(got))

	reply, err = s.Send(context.Background(), "What does it say?")
	require.NoError(t, err)
	assert.Equal(t, "It says hello.", reply.Text)
	assert.Empty(t, reply.Actions)
	assert.Equal(t, u4, reply.Usage)
	require.NoError(t, s.Close())

	reqs := srv.Requests()
	require.Len(t, reqs, 4)
	for _, r := range reqs {
		assert.Contains(t, string(r.Body), "agenteval-instructions-7", "the instructions reach every request")
		assert.Equal(t, "Bearer sk-test-not-a-real-key-0000", r.Header.Get("Authorization"))
	}
	// The second message continued the session: its request carries the
	// first conversation.
	last := string(reqs[3].Body)
	assert.Contains(t, last, "Write notes.txt, then show it.")
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

// TestCommandsNeedAllowCommands: without --allow-commands OpenCode's bash
// tool is denied; the call is recorded as failed and nothing ran.
func TestCommandsNeedAllowCommands(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Calls(cliagenttest.Call("call_b", "bash", `{"command":"touch made-by-bash","description":"Make a file"}`)),
		llmtest.Text("I could not run it."),
	)
	a := newTestAgent(t, srv, false)
	s, _, dir := cliagenttest.Session(t, a, runner.SessionConfig{})
	reply, err := s.Send(context.Background(), "Make a file with bash.")
	require.NoError(t, err)
	require.Len(t, reply.Actions, 1)
	assert.Equal(t, "bash", reply.Actions[0].Name)
	assert.NotEmpty(t, reply.Actions[0].Error)
	assert.NoFileExists(t, filepath.Join(dir, "made-by-bash"))
	for _, tool := range srv.Requests()[0].Chat.Tools {
		assert.NotEqual(t, "bash", tool.Name, "bash is not offered")
	}
}

// TestTimeoutKillsTheProcessTree: a step that times out while OpenCode's
// shell runs a command kills OpenCode and the command, and says so; the
// reply holds what had come.
func TestTimeoutKillsTheProcessTree(t *testing.T) {
	t.Parallel()
	marker := proctest.SleepArg()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Reasoning: "A long wait.", Content: "Waiting.",
		ToolCalls: []llm.ToolCall{cliagenttest.Call("call_b", "bash", `{"command":"sleep `+marker+`","description":"Wait"}`)}})
	a := newTestAgent(t, srv, true)
	reply := cliagenttest.SendUntilTimeout(t, a, marker, "Wait.")
	// What had come is the reply: the text and reasoning. (OpenCode's JSON
	// events carry a tool call only once it has ended, so the call it was
	// running is not in the stream.)
	assert.Equal(t, "Waiting.", reply.Text)
	assert.Equal(t, "A long wait.", reply.Thought)
	assert.Empty(t, reply.EndReason)
}

// TestMissingCLINamesTheInstall: without OpenCode the spec fails with the
// command that installs it.
func TestMissingCLINamesTheInstall(t *testing.T) {
	cliagenttest.MissingProgram(t, Type(), "AGENTEVAL_OPENCODE", "npm install -g opencode-ai@"+version)
}

// TestMocksAsMCPTools: the scenario's mocks reach OpenCode as the tools
// of the built-in MCP server; the model calls one, the call is answered
// and recorded by the job's mocks, the model gets the mock's response, and
// the transcript names the call mcp__mocks__SERVICE__METHOD (ghx's mcp
// category). An error mock reaches the model as an error.
func TestMocksAsMCPTools(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Calls(cliagenttest.Call("call_m", "mocks_github__getIssue", `{"number":7}`)),
		llmtest.Calls(cliagenttest.Call("call_e", "mocks_github__closeIssue", `{"number":7}`)),
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

	calls := set.Calls()
	require.Len(t, calls, 2)
	assert.Equal(t, "getIssue", calls[0].Method)
	assert.Equal(t, []any{map[string]any{"number": 7.0}}, calls[0].Args)
	assert.Equal(t, 0, calls[0].Mock)
	assert.Equal(t, "E_FORBIDDEN: read-only token", calls[1].Error)

	reqs := srv.Requests()
	require.Len(t, reqs, 3)
	var offered []string
	for _, tool := range reqs[0].Chat.Tools {
		offered = append(offered, tool.Name)
	}
	assert.Contains(t, offered, "mocks_github__getIssue")
	assert.Contains(t, offered, "mocks_github__closeIssue")
	// What the model received as the tools' results.
	assert.Contains(t, toolResults(reqs[1].Chat.Messages), `{"state":"open","title":"Crash on start"}`)
	assert.Contains(t, toolResults(reqs[2].Chat.Messages), "E_FORBIDDEN: read-only token")
}

func toolResults(msgs []llm.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		if m.Role == llm.RoleTool {
			b.WriteString(m.Content + "\n")
		}
	}
	return b.String()
}

package openai

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/agenttest"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
	"github.com/agenteval/agenteval/runner"
)

// TestOpenAIAgentCallsMocksAsTools runs the openai:MODEL agent against a
// local OpenAI-compatible server: the model calls a mocked service as a
// tool, the runner answers from the mock, records the action, and the model
// replies with what it learned.
func TestOpenAIAgentCallsMocksAsTools(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Calls(llm.ToolCall{ID: "call_1", Name: "github__listIssues", Arguments: json.RawMessage(`{"repo":"acme/demo"}`)}),
		llmtest.Text("There is one open issue: Login crash."),
	)
	t.Setenv("OPENAI_BASE_URL", srv.URL)
	f, err := agenttest.Load("openai.scenario.yaml", []byte(`name: openai agent
description: tools from mocks
environment: {type: local}
character:
  name: Helper
  system: You help with GitHub.
  llm: {temperature: 0}
setup:
  mocks:
    - service: github
      method: listIssues
      response: [{title: "Login crash"}]
run:
  - input: What is open?
    evaluations:
      - {type: string_contains, value: "login crash"}
      - {type: trajectory_contains_action, action: github__listIssues, args: {repo: acme/demo}}
judgment: {strategy: all_pass}
`))
	require.NoError(t, err)
	agent, err := Type().New(srv.Config().Model, runner.AgentOptions{Getenv: func(k string) string {
		return map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": srv.Config().APIKey}[k]
	}})
	require.NoError(t, err)
	res := agenttest.RunOne(t, runner.Config{Agent: agent}, f.Scenario)
	assert.True(t, res.Passed, res.Explain())
	assert.Positive(t, res.Usage.TotalTokens)
	reqs := srv.Requests()
	require.Len(t, reqs, 2)
	first := reqs[0].Chat
	require.Len(t, first.Tools, 1)
	assert.Equal(t, "system", first.Messages[0].Role)
	assert.Contains(t, first.Messages[0].Content, "You help with GitHub.")
	second := reqs[1].Chat
	last := second.Messages[len(second.Messages)-1]
	assert.Equal(t, "tool", last.Role)
	assert.Equal(t, "call_1", last.ToolCallID)
	assert.JSONEq(t, `[{"title":"Login crash"}]`, last.Content)
}

// The openai agent type takes a suite agent's instructions as the first
// system message; it has no programs to give an environment to.
func TestTypeTakesInstructions(t *testing.T) {
	t.Parallel()
	typ := Type()
	assert.True(t, typ.TakesInstructions)
	assert.False(t, typ.TakesEnv)
	a, err := typ.New("m", runner.AgentOptions{Instructions: "be kind", Getenv: func(string) string { return "" }})
	require.NoError(t, err)
	assert.Equal(t, "be kind", a.(*modelAgent).Instructions)
	_, err = typ.New("", runner.AgentOptions{})
	assert.ErrorContains(t, err, "name a model")
}

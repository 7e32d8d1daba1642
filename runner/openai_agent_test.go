package runner

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
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
	f, err := testLoad("openai.scenario.yaml", []byte(`name: openai agent
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
	agent, err := buildAgent(newAgents(), "openai:"+srv.Config().Model, AgentOptions{Getenv: func(k string) string {
		return map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": srv.Config().APIKey}[k]
	}})
	require.NoError(t, err)
	res := runOne(t, Config{Agent: agent}, f.Scenario)
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

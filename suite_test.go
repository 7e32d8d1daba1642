package agenteval_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

func TestSuiteAgents(t *testing.T) {
	t.Parallel()
	kit := agenteval.New()
	s := &scenario.Suite{
		Agents: []scenario.SuiteAgent{
			{Name: "tool", Agent: "exec:./agent", Instructions: "be brief", Env: map[string]string{"B": "2", "A": "1"}},
			{Name: "model", Agent: "openai", Instructions: "be kind"},
			{Name: "base", Agent: "echo", Instructions: "ignored"},
		},
		Models: []scenario.SuiteModel{{ID: "m1"}, {ID: "org/m2"}},
	}
	variants, agents, ignored, err := kit.SuiteAgents(s, runner.AgentOptions{})
	require.NoError(t, err)
	assert.Equal(t, []runner.Variant{{Agent: "tool", Model: "m1"}, {Agent: "tool", Model: "org/m2"}, {Agent: "model", Model: "m1"},
		{Agent: "model", Model: "org/m2"}, {Agent: "base", Model: "m1"}, {Agent: "base", Model: "org/m2"}}, variants)
	assert.Equal(t, []string{"base"}, ignored, "echo takes no instructions")
	exec, ok := agents[runner.Variant{Agent: "tool", Model: "org/m2"}].(*runner.ExecAgent)
	require.True(t, ok)
	assert.Equal(t, []string{"A=1", "B=2", "AGENTEVAL_AGENT=tool", "AGENTEVAL_MODEL=org/m2", "AGENTEVAL_INSTRUCTIONS=be brief"}, exec.Env)
	m, ok := agents[runner.Variant{Agent: "model", Model: "m1"}].(*runner.ModelAgent)
	require.True(t, ok)
	assert.Equal(t, "be kind", m.Instructions)

	s.Models = nil
	_, _, _, err = kit.SuiteAgents(s, runner.AgentOptions{})
	assert.ErrorContains(t, err, `agent model: "openai" names no model and the suite has no models`)
}

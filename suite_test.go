package agenteval_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

func TestSuiteAgents(t *testing.T) {
	t.Parallel()
	kit := agenteval.New()
	var built []runner.AgentOptions // what the probe agent type was given, per model
	require.NoError(t, kit.Agents.Register(&runner.AgentType{Name: "probe", TakesEnv: true, TakesInstructions: true,
		New: func(arg string, opts runner.AgentOptions) (runner.Agent, error) {
			built = append(built, opts)
			return kit.Agent("echo", opts)
		}}))
	s := &scenario.Suite{
		Agents: []scenario.SuiteAgent{
			{Name: "tool", Agent: "probe:./agent", Instructions: "be brief", Env: map[string]string{"B": "2", "A": "1"},
				MCPServers: map[string]scenario.MCPServer{"files": {Command: []string{"own-files"}}}},
			{Name: "prog", Agent: "exec:./agent", Instructions: "be brief", Env: map[string]string{"B": "2"}},
			{Name: "model", Agent: "openai", Instructions: "be kind"},
			{Name: "base", Agent: "echo", Instructions: "ignored"},
		},
		Models: []scenario.SuiteModel{{ID: "m1"}, {ID: "org/m2"}},
		MCPServers: map[string]scenario.MCPServer{"files": {Command: []string{"suite-files"}},
			"github": {URL: "https://mcp.example.test/", BearerTokenEnv: "GH_TOKEN"}},
	}
	variants, agents, ignored, err := kit.SuiteAgents(s, runner.AgentOptions{})
	require.NoError(t, err)
	assert.Equal(t, []matrix.Variant{{Agent: "tool", Model: "m1"}, {Agent: "tool", Model: "org/m2"}, {Agent: "prog", Model: "m1"},
		{Agent: "prog", Model: "org/m2"}, {Agent: "model", Model: "m1"}, {Agent: "model", Model: "org/m2"},
		{Agent: "base", Model: "m1"}, {Agent: "base", Model: "org/m2"}}, variants)
	assert.Len(t, agents, len(variants))
	assert.Equal(t, []string{"base"}, ignored, "echo takes no instructions; exec and openai take theirs")
	require.Len(t, built, 2)
	assert.Equal(t, []string{"A=1", "B=2", "AGENTEVAL_AGENT=tool", "AGENTEVAL_MODEL=org/m2"}, built[1].Env)
	assert.Equal(t, "be brief", built[1].Instructions)
	assert.Equal(t, map[string]scenario.MCPServer{"files": {Command: []string{"own-files"}},
		"github": {URL: "https://mcp.example.test/", BearerTokenEnv: "GH_TOKEN"}}, built[1].MCPServers,
		"the suite's MCP servers, the agent's own winning by name")

	s.Models = nil
	_, _, _, err = kit.SuiteAgents(s, runner.AgentOptions{})
	assert.ErrorContains(t, err, `agent model: "openai" names no model and the suite has no models`)
}

// A suite runs through the kit: RunConfig.Suite runs every job once per
// agent × model, each with its own agent and an id that starts with
// agent@model/.
func TestSuiteRunsThroughTheKit(t *testing.T) {
	t.Parallel()
	kit := agenteval.New()
	files, err := kit.Load("examples/scenarios/weather.scenario.yaml")
	require.NoError(t, err)
	s := &scenario.Suite{Agents: []scenario.SuiteAgent{{Name: "a", Agent: "echo"}, {Name: "b", Agent: "echo"}},
		Models: []scenario.SuiteModel{{ID: "m1"}, {ID: "org/m2"}}}
	var ids []string
	cfg := agenteval.RunConfig{Suite: s,
		Results: sinkFunc(func(r *results.Job) error { ids = append(ids, r.ID+" "+r.Agent+" "+r.Model); return nil })}
	jobs, total, err := kit.Jobs(cfg, files...)
	require.NoError(t, err)
	assert.Equal(t, int64(4), total)
	n := 0
	for range jobs {
		n++
	}
	assert.Equal(t, 4, n)
	capped := cfg
	capped.MaxJobs = 3 // one job per variant is under it; the four are not
	_, _, err = kit.Jobs(capped, files...)
	require.ErrorContains(t, err, "the run has more than 3 jobs (4 agent/model variant(s) × 1)")
	cfg.Concurrency = 1
	sum, err := kit.Run(t.Context(), cfg, files...)
	require.NoError(t, err)
	assert.Equal(t, int64(4), sum.Jobs)
	assert.Equal(t, []string{"a@m1/weather/-/run-1 a m1", "a@org:m2/weather/-/run-1 a org/m2",
		"b@m1/weather/-/run-1 b m1", "b@org:m2/weather/-/run-1 b org/m2"}, ids)
}

package runner

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/scenario"
)

// TestFixturesWithVariables binds run-level variables (run_id, as ghx's
// scenarios use it) besides the manifest's, in what the agent receives.
func TestFixturesWithVariables(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []string
	agent := AgentFunc(func(_ context.Context, _ *SessionConfig, in string) (Reply, error) {
		mu.Lock()
		got = append(got, in)
		mu.Unlock()
		return Reply{Text: "done"}, nil
	})
	m := &scenario.Manifest{SeedID: "s", Repo: "acme/demo", Fixtures: map[string]scenario.FixtureResource{
		"pr": {Type: "pr", Number: 7, Repo: "acme/demo"}}}
	s := &scenario.Scenario{ID: "x", Environment: scenario.Environment{Type: "local"}, Judgment: scenario.Judgment{Strategy: "all_pass"},
		Run: []scenario.RunStep{{Input: "Review PR #{{pr_number}}; include the run ID '{{run_id}}'.",
			Evaluations: []scenario.Evaluation{{Type: "string_contains", Params: &scenario.StringContains{Value: "done"}}}}},
		Fixture: &scenario.Fixture{Requires: []string{"pr"}, Bindings: map[string]string{"pr_number": "pr.number"}}}
	res := runOne(t, Config{Agent: agent, Fixtures: FixturesWith(FixtureConfig{Manifest: m,
		Variables: map[string]any{fixture.VarRunID: "run-42"}})}, s)
	require.True(t, res.Passed, res.Error)
	assert.Equal(t, []string{"Review PR #7; include the run ID 'run-42'."}, got)

	res = runOne(t, Config{Agent: agent, Fixtures: Fixtures(m, nil)}, s)
	assert.False(t, res.Completed)
	assert.Contains(t, res.Error, "unbound placeholder {{run_id}}")
}

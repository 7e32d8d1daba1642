package runner

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// TestRunRecordsEfficiency checks that a job's record counts the agent's
// turns and tool calls, failed ones and by category (ghx's rules after
// the host's own categories), and carries every kind of token.
func TestRunRecordsEfficiency(t *testing.T) {
	t.Parallel()
	s := loadScenario(t, "echo.scenario.yaml")
	agent := AgentFunc(func(_ context.Context, _ SessionConfig, msg string) (Reply, error) {
		return Reply{Text: msg, Actions: []results.Action{
			{Name: "bash", Args: map[string]any{"command": "gh pr view 1"}},
			{Name: "bash", Args: map[string]any{"command": "rg needle"}},
			{Name: "ghx.pr.view", Error: "not found"},
			{Name: "Read"},
			{Name: "mcp__github__get_pr"},
			{Name: "Grep"},
		}, Usage: llm.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15, ReasoningTokens: 2, CacheReadTokens: 3, CacheWriteTokens: 1}}, nil
	})
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("echo", s, 1)}, matrix.Shard{})
	require.NoError(t, err)
	sink := &memSink{}
	_, err = Run(context.Background(), Config{Agent: agent, Results: sink,
		ToolCategories: []scenario.ToolCategory{{Name: "search", Tools: []string{"Grep"}, Commands: []string{`^rg\b`}}}}, jobs)
	require.NoError(t, err)
	require.Len(t, sink.results, 1)
	r := sink.results[0]
	steps := len(s.Run)
	assert.Equal(t, steps, r.Efficiency.Turns, "one reply per input step")
	tc := r.Efficiency.ToolCalls
	assert.Equal(t, 6*steps, tc.Total)
	assert.Equal(t, steps, tc.Failed)
	assert.Equal(t, results.Counts{{Name: "ghx", N: steps}, {Name: "mcp", N: steps}, {Name: "gh_cli", N: steps}, {Name: "file_ops", N: steps}, {Name: "search", N: 2 * steps}}, tc.ByCategory,
		"ghx's order, then the host's own; categories without calls left out")
	assert.Equal(t, llm.Usage{PromptTokens: 10 * steps, CompletionTokens: 5 * steps, TotalTokens: 15 * steps, ReasoningTokens: 2 * steps,
		CacheReadTokens: 3 * steps, CacheWriteTokens: steps}, r.Usage)

	b, err := results.AppendJob(nil, r)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"efficiency":{"turns":`)
}

func TestRunRefusesBadToolCategories(t *testing.T) {
	t.Parallel()
	_, err := Run(context.Background(), Config{Agent: echoAgent{}, ToolCategories: []scenario.ToolCategory{{Name: "x", Commands: []string{"("}}}}, nil)
	assert.ErrorContains(t, err, "tool categories")
}

func BenchmarkEfficiency(b *testing.B) {
	r, err := newRun(Config{Agent: echoAgent{}, ToolCategories: []scenario.ToolCategory{{Name: "search", Tools: []string{"Grep"}, Commands: []string{`^rg\b`}}}})
	require.NoError(b, err)
	acts := []results.Action{{Name: "bash", Args: map[string]any{"command": "gh pr view 1"}}, {Name: "Read"}, {Name: "Grep"}, {Name: "ghx.pr.view"}}
	trace := &evaluate.Trace{Steps: []evaluate.StepTrace{{Kind: "input", Reply: "x", Actions: acts}, {Kind: "input", Reply: "y", Actions: acts}}}
	b.ReportAllocs()
	for b.Loop() {
		_ = r.efficiency(trace)
	}
}

package runner

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/conversation"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// partialAgent is a Cooperative agent like a coding-agent CLI's: its
// session answers with reply at once, or, when hang is set, waits for
// its context's end and returns what it had received with the context's
// error.
type partialAgent struct {
	reply Reply
	hang  bool
}

func (partialAgent) Cooperative() bool { return true }

func (a partialAgent) NewSession(context.Context, SessionConfig) (Session, error) { return a, nil }

func (a partialAgent) Send(ctx context.Context, _ string) (Reply, error) {
	if !a.hang {
		return a.reply, nil
	}
	<-ctx.Done()
	return a.reply, ctx.Err()
}

func (partialAgent) Close() error { return nil }

func inputScenario(t *testing.T, run string) *scenario.Scenario {
	t.Helper()
	f, err := testLoad("s.scenario.yaml", []byte(`name: s
description: one step
environment: {type: local}
run:
`+run+`
judgment: {strategy: all_pass}
`))
	require.NoError(t, err)
	return f.Scenario
}

// TestTimedOutStepKeepsWhatCame: a step or conversation turn that times
// out records what the agent had received (its text, thought, tool calls
// and tokens) as the assistant's turn, not an empty one; the job is
// incomplete, its cause the timeout, and the tool calls count.
func TestTimedOutStepKeepsWhatCame(t *testing.T) {
	t.Parallel()
	partial := Reply{Text: "Let me look.", Thought: "The log first.", Usage: llm.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12, CostUSD: 0.001},
		Actions: []results.Action{{Name: "bash", Args: map[string]any{"command": "sleep 60"}, Error: "no result: the run ended first"}}}
	for _, tc := range []struct{ name, run string }{
		{"step", "  - input: Look at the log\n    timeout: 50ms\n    evaluations:\n      - type: string_contains\n        value: log\n"},
		{"conversation turn", "  - input: Look at the log\n    conversation:\n      max_turns: 2\n      timeout_per_turn_ms: 50\n      user_simulator: {persona: a developer, objective: see the log}\n      final_evaluations:\n        - type: conversation_length\n          max_turns: 2\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := runOne(t, Config{Agent: partialAgent{reply: partial, hang: true}, Concurrency: 1, UserModel: conversation.ScriptedUser(2)},
				inputScenario(t, tc.run))
			assert.False(t, res.Completed)
			assert.Equal(t, results.CauseTimeout, res.Cause)
			require.Len(t, res.Transcript, 2)
			turn := res.Transcript[1]
			assert.Equal(t, "assistant", turn.Role)
			assert.Equal(t, partial.Text, turn.Text)
			assert.Equal(t, partial.Thought, turn.Thought)
			assert.Equal(t, partial.Actions[0].Name, turn.Actions[0].Name)
			assert.Equal(t, partial.Usage, res.Usage)
			assert.Equal(t, partial.Usage, turn.Usage, "the turn's own tokens and cost")
			assert.Equal(t, 1, res.Efficiency.ToolCalls.Total)
			assert.Equal(t, 1, res.Efficiency.ToolCalls.Failed)
		})
	}
}

// TestReportedCostSums: the cost an agent reports with its replies
// (Usage.CostUSD) sums into the job's usage without float noise, where
// the pricer (Config.Price) finds it; each assistant turn keeps its own
// usage and end reason.
func TestReportedCostSums(t *testing.T) {
	t.Parallel()
	reply := Reply{Text: "Done.", EndReason: "end_turn", Usage: llm.Usage{PromptTokens: 100, CompletionTokens: 5, TotalTokens: 105, CostUSD: 0.1}}
	s := inputScenario(t, "  - input: one\n  - input: two\n    evaluations:\n      - type: string_contains\n        value: Done\n")
	var priced float64
	res := runOne(t, Config{Agent: partialAgent{reply: reply}, Concurrency: 1, Price: func(j *results.Job) *results.Cost {
		priced = j.Usage.CostUSD
		return &results.Cost{Agent: new(j.Usage.CostUSD)}
	}}, s)
	require.True(t, res.Completed, res.Error)
	assert.Equal(t, 0.2, res.Usage.CostUSD, "two replies' costs, without float noise")
	assert.Equal(t, 0.2, priced)
	require.Len(t, res.Transcript, 4)
	assert.Equal(t, "end_turn", res.Transcript[1].EndReason)
	assert.Equal(t, "end_turn", res.Transcript[3].EndReason)
	assert.Equal(t, reply.Usage, res.Transcript[3].Usage, "each turn's own tokens and cost")
	assert.Equal(t, llm.Usage{}, res.Transcript[2].Usage, "a user turn spends nothing of the agent's")
}

// TestImpossibleCostIsRefused: a negative or absurd reported cost fails
// the reply, as impossible token counts do.
func TestImpossibleCostIsRefused(t *testing.T) {
	t.Parallel()
	for _, c := range []float64{-1, 2e6} {
		res := runOne(t, Config{Agent: partialAgent{reply: Reply{Text: "x", Usage: llm.Usage{CostUSD: c}}}, Concurrency: 1},
			inputScenario(t, "  - input: one\n    evaluations:\n      - type: string_contains\n        value: x\n"))
		assert.False(t, res.Completed)
		assert.Contains(t, res.Error, "cost_usd")
	}
}

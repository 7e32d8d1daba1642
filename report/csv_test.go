package report

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
)

// TestCSVRow: a ghx mode's job as ghx's results.csv row: tokens in ghx's
// categories (cache and reasoning apart), tool-call error rate,
// checkpoints, the agent's cost, the completion reason.
func TestCSVRow(t *testing.T) {
	cost := 0.0125
	tests := []struct {
		name string
		job  results.Job
		want []string
	}{
		{"a passing mcp session", results.Job{ID: "mcp@gpt/pr-1/-/run-2", Scenario: "pr-1", Agent: "mcp", Model: "gpt", Run: 2, Completed: true, Passed: true,
			DurationMS: 1234.5, Usage: llm.Usage{PromptTokens: 1000, CompletionTokens: 50, TotalTokens: 1050, ReasoningTokens: 10, CacheReadTokens: 600, CacheWriteTokens: 100},
			Efficiency:  results.Efficiency{Turns: 3, ToolCalls: results.ToolCalls{Total: 4, Failed: 1}},
			Checkpoints: []results.Checkpoint{{ID: "a", Passed: true}, {ID: "b", Passed: true}},
			Evaluations: []results.Evaluation{{Passed: true}}, Cost: &results.Cost{Agent: &cost}},
			[]string{"run-9", "pr-1", "mcp", "gpt", "1", "true", "1234.5", "300", "40", "10", "600", "100", "1050", "350", "4", "1", "0.25",
				"0.0125", "", "", "", "2", "2", "true", "opencode", "mcp@gpt/pr-1/-/run-2", "3", "stop"}},
		{"a timed-out session", results.Job{ID: "ghx@gpt/pr-1/-/run-1", Scenario: "pr-1", Agent: "ghx", Model: "gpt", Run: 1, Cause: results.CauseTimeout,
			Checkpoints: []results.Checkpoint{{ID: "a"}}},
			[]string{"run-9", "pr-1", "ghx", "gpt", "0", "false", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0",
				"", "", "", "", "0", "1", "false", "opencode", "ghx@gpt/pr-1/-/run-1", "0", "timeout"}},
		{"a session at Claude Code's turn limit, its cost Claude Code's", results.Job{ID: "cc/pr-1/-/run-1", Scenario: "pr-1", Agent: "cc", Run: 1,
			Usage: llm.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12, CostUSD: 0.5}, Cost: &results.Cost{Agent: new(0.5)},
			Transcript: []results.Turn{{Role: "user"}, {Role: "assistant", EndReason: "error_max_turns"}}},
			[]string{"run-9", "pr-1", "cc", "", "0", "false", "0", "10", "2", "0", "0", "0", "12", "12", "0", "0", "0",
				"0.5", "", "", "", "0", "0", "false", "opencode", "cc/pr-1/-/run-1", "0", "tool_limit"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, csvRow("run-9", "opencode", &tt.job))
			assert.Len(t, tt.want, len(csvHeader))
		})
	}
}

package cli

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
)

// TestTraceOfCarriesReasoning: an assistant turn's thought (a coding-agent
// CLI's reasoning) is the trace's reasoning event, before the turn's tool
// calls and text, as ghx's trace builder puts OpenCode's reasoning parts.
func TestTraceOfCarriesReasoning(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 29, 4, 0, 0, 0, time.UTC)
	j := &results.Job{ID: "s/-/run-1", Usage: llm.Usage{PromptTokens: 10, CompletionTokens: 4, TotalTokens: 14, ReasoningTokens: 2},
		Transcript: []results.Turn{{Role: "user", Text: "go"}, {Role: "assistant", Text: "Done.", Thought: "Read it first.", At: at, Duration: time.Second,
			Actions: []results.Action{{Name: "read", Start: at, End: at.Add(time.Millisecond)}}}}}
	tr := traceOf(j)
	require.Len(t, tr.Events, 4)
	var types []string
	for _, e := range tr.Events {
		types = append(types, e.Type)
	}
	assert.Equal(t, []string{"reasoning", "tool_call", "text_output", "turn_boundary"}, types)
	r := tr.Events[0]
	assert.Equal(t, "Read it first.", r.Content)
	require.NotNil(t, r.DurationMS)
	require.NotNil(t, r.TokenCount)
	assert.Equal(t, tokenBreakdown{Input: 10, Output: 2, Reasoning: 2, Total: 14, Active: 14}, tr.Summary.TotalTokens)
}

package report

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
)

// TestEvidenceOfACodingAgent: a coding-agent CLI's turn shows its
// reasoning, why it ended and what it spent in the transcript text
// (JUnit's system-out), and the evidence of a job that did not pass says
// why the agent's last reply ended.
func TestEvidenceOfACodingAgent(t *testing.T) {
	t.Parallel()
	j := &results.Job{Transcript: []results.Turn{{Role: "user", Text: "Fix it."},
		{Role: "assistant", Text: "Working.", Thought: "The test first.", EndReason: "error_max_turns",
			Usage:   llm.Usage{PromptTokens: 1000, CompletionTokens: 204, TotalTokens: 1204, CostUSD: 0.00366},
			Actions: []results.Action{{Name: "Bash", Args: map[string]any{"command": "sleep 9"}, Error: "no result: the run ended first"}}}}}
	assert.Equal(t, "user: Fix it.\nassistant: Working.\n  thought: The test first.\n  ended: error_max_turns\n  usage: 1204 tokens, $0.00366 reported\n"+
		"  tool call Bash {\"command\":\"sleep 9\"} failed: no result: the run ended first\n", transcriptText(j, 1000))
	assert.Equal(t, "failed tool call Bash {\"command\":\"sleep 9\"}: no result: the run ended first\nthe agent's last reply ended: error_max_turns\n", evidenceText(j))
	assert.NotContains(t, evidenceText(&results.Job{Transcript: []results.Turn{{Role: "assistant", Text: "ok"}}}), "ended")
}

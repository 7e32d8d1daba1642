package opencode

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/agent/internal/cliagent/cliagenttest"
	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
	"github.com/agenteval/agenteval/runner"
)

// TestCostOfAPricedModel: with a model OpenCode has a price for
// (openai/gpt-4.1 from its models.dev snapshot, here on the fake's
// Responses API through OPENAI_BASE_URL), the reply's cost is OpenCode's
// own: the fake's tokens at that price, summed over the steps.
func TestCostOfAPricedModel(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	bin := testtool.Need(t, "opencode")
	env := map[string]string{"AGENTEVAL_OPENCODE": bin, "OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-test-not-a-real-key-0000"}
	a, err := Type().New("openai/gpt-4.1", runner.AgentOptions{Getenv: func(k string) string { return env[k] }})
	require.NoError(t, err)
	u := llm.Usage{PromptTokens: 10000, CompletionTokens: 1000, TotalTokens: 11000, CacheReadTokens: 4000}
	srv.Enqueue(llmtest.Reply{Content: "Hello.", Usage: &u})
	s, _, _ := cliagenttest.Session(t, a, runner.SessionConfig{})
	reply, err := s.Send(context.Background(), "Say hello.")
	require.NoError(t, err)
	assert.Equal(t, "Hello.", reply.Text)
	assert.Equal(t, "/v1/responses", srv.Requests()[0].Path)
	// gpt-4.1 at $2 input, $0.50 cached input and $8 output a million:
	// 6,000 × 2 + 4,000 × 0.5 + 1,000 × 8 micro-dollars.
	want := u
	want.CostUSD = 0.022
	assert.Equal(t, want, reply.Usage)
	assert.Equal(t, "stop", reply.EndReason)
}

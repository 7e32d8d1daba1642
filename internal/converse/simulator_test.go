package converse

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

func TestSimulatorSeesTheConversationFromTheUsersSide(t *testing.T) {
	t.Parallel()
	var got llm.Request
	m := llm.ModelFunc(func(_ context.Context, req llm.Request) (llm.Response, error) {
		got = req
		return llm.Response{Content: "  still broken \n", Usage: llm.Usage{TotalTokens: 7}}, nil
	})
	temp := 0.5
	sim := NewSimulator(m, &scenario.UserSimulator{Persona: "a developer", Objective: "fix the build", Style: "terse",
		Constraints: []string{"no sudo"}, Temperature: &temp, ModelType: "gpt-x"}, 10)
	text, usage, err := sim.Next(context.Background(), []results.Turn{{Role: "user", Text: "hi"}, {Role: "assistant", Text: "hello"}}, 2)
	require.NoError(t, err)
	assert.Equal(t, "still broken", text)
	assert.Equal(t, 7, usage.TotalTokens)
	require.Len(t, got.Messages, 3)
	assert.Equal(t, llm.RoleSystem, got.Messages[0].Role)
	for _, want := range []string{"Persona: a developer", "Objective: fix the build", "Style: terse", "Constraint: no sudo"} {
		assert.Contains(t, got.Messages[0].Content, want)
	}
	assert.Equal(t, llm.RoleAssistant, got.Messages[1].Role, "its own message")
	assert.Equal(t, llm.RoleUser, got.Messages[2].Role, "the agent's message")
	assert.Equal(t, "gpt-x", got.Model)
	require.NotNil(t, got.Seed)
	assert.Equal(t, int64(12), *got.Seed, "seed + turn")

	empty := NewSimulator(llm.ModelFunc(func(context.Context, llm.Request) (llm.Response, error) { return llm.Response{}, nil }),
		&scenario.UserSimulator{ModelType: "TEXT_SMALL"}, 0)
	_, _, err = empty.Next(context.Background(), nil, 1)
	assert.ErrorContains(t, err, "empty message")
}

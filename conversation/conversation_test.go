package conversation

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
)

func TestBuiltinTerminations(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	for _, name := range []string{"max_turns_reached", "user_expresses_satisfaction", "agent_provides_solution", "conversation_stuck",
		"escalation_needed", "goal_achieved", "custom_condition"} {
		tt, ok := r.Lookup(name)
		require.True(t, ok, name)
		assert.NotEmpty(t, tt.Doc, name)
	}
	assert.Len(t, r.All(), 7)
	err := r.Register(&TerminationType{Name: "mine", Speaker: "judge"})
	assert.ErrorContains(t, err, `speaker "judge": want user, assistant or empty for either`)
	require.NoError(t, r.Register(&TerminationType{Name: "mine", Speaker: "user", Keywords: []string{"bye"}}))
}

func TestStuck(t *testing.T) {
	t.Parallel()
	turn := func(role, text string) results.Turn { return results.Turn{Role: role, Text: text} }
	tests := []struct {
		name  string
		turns []results.Turn
		want  bool
	}{
		{"too short", []results.Turn{turn("user", "a"), turn("assistant", "a")}, false},
		{"agent repeats", []results.Turn{turn("assistant", "Share the log."), turn("user", "x"), turn("assistant", " share the LOG. ")}, true},
		{"moves on", []results.Turn{turn("assistant", "a"), turn("user", "x"), turn("assistant", "b")}, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, stuck(tt.turns), tt.name)
	}
}

func TestScriptedUser(t *testing.T) {
	t.Parallel()
	u := ScriptedUser(2)
	sys := llm.Message{Role: llm.RoleSystem, Content: "Persona: x\nObjective: Fix the build."}
	r, err := u.Complete(context.Background(), llm.Request{Messages: []llm.Message{sys, {Role: llm.RoleUser, Content: "a"}}})
	require.NoError(t, err)
	assert.Equal(t, "Could you explain a bit more? I want to fix the build.", r.Content)
	r, err = u.Complete(context.Background(), llm.Request{Messages: []llm.Message{sys, {Role: llm.RoleUser, Content: "a"}, {Role: llm.RoleAssistant, Content: "b"}, {Role: llm.RoleUser, Content: "c"}}})
	require.NoError(t, err)
	assert.Equal(t, "Thank you, that solves my problem.", r.Content)
}

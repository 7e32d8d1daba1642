package converse

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/conversation"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm/llmtest"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

func TestTerminated(t *testing.T) {
	t.Parallel()
	turns := []results.Turn{{Role: "user", Text: "my build fails"}, {Role: "assistant", Text: "Here is how: run go mod tidy."}}
	types := conversation.NewRegistry()
	tests := []struct {
		name    string
		conds   []scenario.TerminationCondition
		speaker string
		want    string
	}{
		{"default keywords on the right speaker", []scenario.TerminationCondition{{Type: "agent_provides_solution"}}, "assistant", "agent_provides_solution"},
		{"wrong speaker", []scenario.TerminationCondition{{Type: "agent_provides_solution"}}, "user", ""},
		{"own keywords win", []scenario.TerminationCondition{{Type: "agent_provides_solution", Keywords: []string{"patch"}}}, "assistant", ""},
		{"either speaker", []scenario.TerminationCondition{{Type: "custom_condition", Keywords: []string{"GO MOD"}}}, "user", "custom_condition"},
		{"unknown type never holds", []scenario.TerminationCondition{{Type: "nope", Keywords: []string{"go"}}}, "assistant", ""},
		{"max_turns only says so", []scenario.TerminationCondition{{Type: MaxTurnsReached}}, "assistant", ""},
		{"judge condition without a judge", []scenario.TerminationCondition{{Type: "custom_condition", LLMJudge: &scenario.TerminationJudge{Prompt: "done?"}}}, "assistant", ""},
		{"first that holds", []scenario.TerminationCondition{{Type: "escalation_needed"}, {Type: "goal_achieved", Keywords: []string{"tidy"}}}, "assistant", "goal_achieved"},
	}
	for _, tt := range tests {
		got, usage := Terminated(context.Background(), types, nil, tt.conds, turns, tt.speaker, func() string { panic("no judge, no transcript") })
		assert.Equal(t, tt.want, got, tt.name)
		assert.Zero(t, usage, tt.name)
	}
}

func TestTerminatedByJudge(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.JSON(map[string]any{"pass": false, "score": 0.6, "reasoning": "not yet"}), llmtest.JSON(map[string]any{"pass": true, "score": 0.9, "reasoning": "asked"}))
	j, err := judge.New(judge.Config{Model: srv.Model()})
	require.NoError(t, err)
	thr := 0.7
	conds := []scenario.TerminationCondition{{Type: "custom_condition", Description: "the agent asked for the log", LLMJudge: &scenario.TerminationJudge{Prompt: "Did it ask?", Threshold: &thr}}}
	turns := []results.Turn{{Role: "assistant", Text: "Please share the log."}}
	got, _ := Terminated(context.Background(), conversation.NewRegistry(), j, conds, turns, "assistant", func() string { return "assistant: Please share the log." })
	assert.Empty(t, got)
	got, _ = Terminated(context.Background(), conversation.NewRegistry(), j, conds, turns, "assistant", func() string { return "assistant: Please share the log." })
	assert.Equal(t, "custom_condition", got)
	require.Len(t, srv.Requests(), 2)
}

func TestMaxTurnsReachedIsABuiltinType(t *testing.T) {
	t.Parallel()
	_, ok := conversation.NewRegistry().Lookup(MaxTurnsReached)
	assert.True(t, ok, "the reason the loop records is the built-in type's name")
}

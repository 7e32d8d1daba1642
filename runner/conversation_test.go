package runner

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/conversation"
	"github.com/agenteval/agenteval/internal/converse"
	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm/llmtest"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// conversationScenario builds a one-step conversation scenario from YAML.
func conversationScenario(t *testing.T, termination string) *scenario.Scenario {
	t.Helper()
	src := `name: conv
description: conversation
environment: {type: local}
run:
  - input: "My build fails"
    conversation:
      max_turns: 4
      user_simulator:
        persona: a developer
        objective: fix the build
` + termination + `
      final_evaluations:
        - type: conversation_length
          max_turns: 4
judgment: {strategy: all_pass}
`
	f, err := testLoad("conv.scenario.yaml", []byte(src))
	require.NoError(t, err, "%v", err)
	return f.Scenario
}

// scriptedAgent answers from a list, repeating the last answer.
func scriptedAgent(replies ...string) Agent {
	var n atomic.Int64
	return AgentFunc(func(_ context.Context, _ SessionConfig, _ string) (Reply, error) {
		i := int(n.Add(1)) - 1
		return Reply{Text: replies[min(i, len(replies)-1)]}, nil
	})
}

func runOne(t *testing.T, cfg Config, s *scenario.Scenario) *results.Job {
	t.Helper()
	sink := &memSink{}
	cfg.Results = sink
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("s", s, 1)}, matrix.Shard{})
	require.NoError(t, err)
	_, err = Run(t.Context(), cfg, jobs)
	require.NoError(t, err)
	require.Len(t, sink.results, 1)
	return sink.results[0]
}

func TestConversationTerminations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		termination string
		agent       []string
		user        []string
		judge       []llmtest.Reply
		wantReason  string
		wantTurns   int // messages in the transcript
	}{
		{"max turns", "", []string{"Try again.", "Try once more.", "And again.", "Still?"}, []string{"no luck", "nope", "still no"}, nil, converse.MaxTurnsReached, 8},
		{"user satisfied (default keywords)", "      termination_conditions:\n        - type: user_expresses_satisfaction\n",
			[]string{"Run go mod tidy.", "ok"}, []string{"Thanks, that solves it!"}, nil, "user_expresses_satisfaction", 3},
		{"agent provides solution (keywords)", "      termination_conditions:\n        - type: agent_provides_solution\n          keywords: [\"fixed version\"]\n",
			[]string{"Hmm?", "Here is the fixed version."}, []string{"it says undefined"}, nil, "agent_provides_solution", 4},
		{"escalation needed", "      termination_conditions:\n        - type: escalation_needed\n",
			[]string{"I will escalate this to a human agent."}, nil, nil, "escalation_needed", 2},
		{"conversation stuck", "      termination_conditions:\n        - type: conversation_stuck\n",
			[]string{"Please share the log.", "Please share the log."}, []string{"here it is"}, nil, "conversation_stuck", 4},
		{"goal achieved", "      termination_conditions:\n        - type: goal_achieved\n          keywords: [\"build is green\"]\n",
			[]string{"Rebuilt: the build is green."}, nil, nil, "goal_achieved", 2},
		{"custom condition by llm judge", "      termination_conditions:\n        - type: custom_condition\n          description: the agent asked for the error message\n          llm_judge:\n            prompt: Did the agent ask for the error message?\n            threshold: 0.7\n",
			[]string{"What is the error message?"}, nil, []llmtest.Reply{llmtest.JSON(map[string]any{"pass": true, "score": 0.9, "reasoning": "it asked"})}, "custom_condition", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			users := llmtest.NewServer(t)
			for _, u := range tc.user {
				users.Enqueue(llmtest.Text(u))
			}
			cfg := Config{Agent: scriptedAgent(tc.agent...), UserModel: users.Model()}
			if tc.judge != nil {
				js := llmtest.NewServer(t)
				js.Enqueue(tc.judge...)
				j, err := judge.New(judge.Config{Model: js.Model()})
				require.NoError(t, err)
				cfg.Judge = j
			}
			res := runOne(t, cfg, conversationScenario(t, tc.termination))
			require.True(t, res.Completed, res.Error)
			assert.Equal(t, []string{tc.wantReason}, res.TerminationReasons)
			assert.Len(t, res.Transcript, tc.wantTurns)
			assert.True(t, res.Passed, res.Explain())
			// The simulated user saw the agent's messages as "user" and its own as "assistant".
			for _, r := range users.Requests() {
				require.NotEmpty(t, r.Chat.Messages)
				assert.Equal(t, "system", r.Chat.Messages[0].Role)
				assert.Contains(t, r.Chat.Messages[0].Content, "Objective: fix the build")
			}
		})
	}
}

func TestConversationTurnTimeout(t *testing.T) {
	t.Parallel()
	s := conversationScenario(t, "      timeout_per_turn_ms: 50\n")
	block := AgentFunc(func(ctx context.Context, _ SessionConfig, _ string) (Reply, error) {
		select {} // ignores its context on purpose
	})
	res := runOne(t, Config{Agent: block, UserModel: conversation.ScriptedUser(2)}, s)
	assert.False(t, res.Completed)
	assert.False(t, res.Passed)
	assert.Contains(t, res.Error, "timed out")
}

func TestConversationNeedsUserModel(t *testing.T) {
	t.Parallel()
	res := runOne(t, Config{Agent: echoAgent{}}, conversationScenario(t, ""))
	assert.False(t, res.Completed)
	assert.Contains(t, res.Error, "user simulator model")
}

func TestScriptedUserIsDeterministic(t *testing.T) {
	t.Parallel()
	res := runOne(t, Config{Agent: scriptedAgent("Run the tests.", "Fixed it."), UserModel: conversation.ScriptedUser(2)},
		conversationScenario(t, "      termination_conditions:\n        - type: user_expresses_satisfaction\n"))
	require.True(t, res.Completed, res.Error)
	assert.Equal(t, []string{"user_expresses_satisfaction"}, res.TerminationReasons)
	var texts []string
	for _, tr := range res.Transcript {
		texts = append(texts, tr.Role+": "+tr.Text)
	}
	assert.Equal(t, "user: My build fails\nassistant: Run the tests.\nuser: Could you explain a bit more? I want to fix the build.\nassistant: Fixed it.\nuser: Thank you, that solves my problem.", strings.Join(texts, "\n"))
}

func TestTerminationByJudgeNeedsAJudge(t *testing.T) {
	t.Parallel()
	s := conversationScenario(t, "      termination_conditions:\n        - type: custom_condition\n          llm_judge:\n            prompt: Done?\n")
	res := runOne(t, Config{Agent: echoAgent{}, UserModel: conversation.ScriptedUser(2)}, s)
	assert.False(t, res.Completed)
	assert.Contains(t, res.Error, "it needs a judge model (termination condition custom_condition at run[0].conversation.termination_conditions[0]) and none is configured")
}

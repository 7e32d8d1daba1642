package scenario

import "github.com/agenteval/agenteval/internal/evalparams"

// testRegistries is what the built-in registries tell the loader, for this
// package's internal tests: the registries live in packages that import this
// one. TestInternalVocabularyIsTheBuiltins (external) keeps it equal to
// runner.NewRegistries' vocabulary, docs aside.
type testRegistries struct{}

func (testRegistries) Version() uint64 { return 1 }

func (testRegistries) Vocabulary() *Vocabulary {
	eval := func(name string, conversation bool, newParams func() any) EvaluationType {
		return EvaluationType{Name: name, NewParams: newParams, Conversation: conversation}
	}
	terms := func(names ...string) []Term {
		out := make([]Term, len(names))
		for i, n := range names {
			out[i] = Term{Name: n}
		}
		return out
	}
	v := &Vocabulary{
		Evaluations: []EvaluationType{
			eval("string_contains", false, func() any { return new(evalparams.StringContains) }),
			eval("regex_match", false, func() any { return new(evalparams.RegexMatch) }),
			eval("llm_judge", false, func() any { return new(evalparams.LLMJudge) }),
			eval("trajectory_contains_action", false, func() any { return new(evalparams.TrajectoryContainsAction) }),
			eval("execution_time", false, func() any { return new(evalparams.ExecutionTime) }),
			eval("file_exists", false, func() any { return new(evalparams.FileExists) }),
			eval("file_contains", false, func() any { return new(evalparams.FileContains) }),
			eval("command_exit_code_is", false, func() any { return new(evalparams.CommandExitCodeIs) }),
			eval("conversation_length", true, func() any { return new(evalparams.ConversationLength) }),
			eval("conversation_flow", true, func() any { return new(evalparams.ConversationFlow) }),
			eval("user_satisfaction", true, func() any { return new(evalparams.UserSatisfaction) }),
			eval("context_retention", true, func() any { return new(evalparams.ContextRetention) }),
			eval("trajectory_match", false, func() any { return new(evalparams.TrajectoryMatch) }),
		},
		Strategies: terms("all_pass", "any_pass", "majority_pass", "weighted"),
		Conditions: []Term{{Name: "non_empty"}, {Name: "empty"},
			{Name: "count_gte", Needs: []string{"value"}, Value: "number"}, {Name: "count_eq", Needs: []string{"value"}, Value: "number"},
			{Name: "field_equals", Needs: []string{"path", "value"}, Value: "scalar"}, {Name: "field_contains", Needs: []string{"path", "value"}, Value: "string"},
			{Name: "field_gte", Needs: []string{"path", "value"}, Value: "number"}, {Name: "custom", Needs: []string{"scorer"}}},
		Terminations: terms("max_turns_reached", "user_expresses_satisfaction", "agent_provides_solution", "conversation_stuck",
			"escalation_needed", "goal_achieved", "custom_condition"),
		Environments: terms("local", "e2b"),
		Agents:       terms("echo", "exec", "openai", "eliza", "opencode", "codex", "claude-code", "gemini-cli"),
	}
	v.Terminations[len(v.Terminations)-1].Needs = []string{"keywords|llm_judge"}
	return v
}

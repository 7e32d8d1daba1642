package evaluatetest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/evaluate/evaluatetest"
	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/results"
)

// TestBuiltinsConform runs every built-in kind that needs nothing beyond
// the trace through the conformance checks.
func TestBuiltinsConform(t *testing.T) {
	t.Parallel()
	th := 0.5
	cases := map[string][]evaluatetest.Case{
		"string_contains": {
			{Name: "found", Params: &evalparams.StringContains{Value: "open issues"}, Pass: true},
			{Name: "missing", Params: &evalparams.StringContains{Value: "closed"}},
			{Name: "empty", Params: &evalparams.StringContains{}, Malformed: true},
		},
		"regex_match": {
			{Name: "match", Params: &evalparams.RegexMatch{Pattern: `#\d`}, Pass: true},
			{Name: "bad", Params: &evalparams.RegexMatch{Pattern: `(`}, Malformed: true},
		},
		"trajectory_contains_action": {{Name: "found", Params: &evalparams.TrajectoryContainsAction{Action: "LIST_ISSUES"}, Pass: true}},
		"trajectory_match": {
			{Name: "superset", Params: &evalparams.TrajectoryMatch{Mode: "superset", Expected: []evalparams.ExpectedAction{{Action: "list_issues"}}}, Pass: true},
			{Name: "bad mode", Params: &evalparams.TrajectoryMatch{Mode: "x", Expected: []evalparams.ExpectedAction{{Action: "a"}}}, Malformed: true},
		},
		"execution_time":      {{Name: "fast", Params: &evalparams.ExecutionTime{MaxDurationMS: &[]float64{2000}[0]}, Pass: true}},
		"conversation_length": {{Name: "not a conversation", Params: &evalparams.ConversationLength{MaxTurns: 3}}},
		"conversation_flow":   {{Name: "not a conversation", Params: &evalparams.ConversationFlow{RequiredPatterns: []string{"question_then_answer"}, FlowQualityThreshold: &th}}},
		"user_satisfaction":   {{Name: "not a conversation", Params: &evalparams.UserSatisfaction{MeasurementMethod: "keyword_analysis", SatisfactionThreshold: &th}}},
		"context_retention":   {{Name: "not a conversation", Params: &evalparams.ContextRetention{TestMemoryOf: []string{"x"}, RetentionTurns: 1, MemoryAccuracyThreshold: &th}}},
		"file_exists":         {{Name: "no directory", Params: &evalparams.FileExists{Path: "a.txt"}}},
	}
	for _, k := range evaluate.NewRegistry().All() {
		cs, ok := cases[k.Name]
		if !ok {
			continue
		}
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			// A built-in already is in DefaultRegistry, so register it under
			// a name of its own, keeping everything else.
			k2 := *k
			k2.Name = "conformance_" + k.Name
			evaluatetest.Run(t, &k2, cs)
		})
	}
}

// TestCheckFindsViolations makes sure the checks catch broken kinds.
func TestCheckFindsViolations(t *testing.T) {
	t.Parallel()
	type params struct {
		N int `json:"n"`
	}
	broken := evaluate.NewKind("broken", "Breaks every rule.", func(p *params) (evaluate.Evaluator, error) {
		return evaluate.EvaluatorFunc(func(_ context.Context, in evaluate.Input) (results.Evaluation, error) {
			st := in.StepTrace()
			st.Reply = strings.ToUpper(st.Reply) // changes the trace
			_ = st.Turns[0]                      // panics on steps without turns
			return results.Evaluation{Passed: true, Score: 2}, nil
		}), nil
	})
	err := evaluatetest.Check(broken, []evaluatetest.Case{{Name: "c", Params: &params{}, Malformed: false, Pass: true,
		Input: evaluate.Input{Trace: &evaluate.Trace{Steps: []evaluate.StepTrace{{Kind: "conversation", Reply: "x", Turns: []results.Turn{{Role: "user"}}}}}, Turn: -1, Scope: results.ScopeStep}}})
	require.Error(t, err)
	msg := err.Error()
	assert.Contains(t, msg, "Score 2 is outside [0, 1]")
	assert.Contains(t, msg, "Message is empty")
	assert.Contains(t, msg, "changed the trace")
	assert.Contains(t, msg, "on an input step: Evaluate panicked")

	lenient := evaluate.NewKind("lenient", "Accepts anything.", func(p *params) (evaluate.Evaluator, error) {
		return nil, nil
	})
	err = evaluatetest.Check(lenient, []evaluatetest.Case{{Name: "m", Params: &params{N: -1}, Malformed: true}, {Name: "ok", Params: &params{N: 1}}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "New accepted malformed parameters")
	assert.Contains(t, err.Error(), "New returned neither an evaluator nor an error")

	clash, err := evaluate.NewRegistry().Get("string_contains")
	require.NoError(t, err)
	err = evaluatetest.Check(clash, nil)
	assert.ErrorContains(t, err, "does not register next to the built-ins")
}

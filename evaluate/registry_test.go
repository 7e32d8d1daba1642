package evaluate_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/internal/formats"
	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// wordCount is a host's evaluation type used by the tests and the example.
type wordCount struct {
	Max int `json:"max" jsonschema:"minimum=1"`
}

func wordCountKind() *evaluate.Kind {
	return evaluate.NewKind("word_count", "The reply has at most max words.", func(p *wordCount) (evaluate.Evaluator, error) {
		if p.Max < 1 {
			return nil, errors.New("max must be at least 1")
		}
		return evaluate.EvaluatorFunc(func(_ context.Context, in evaluate.Input) (results.Evaluation, error) {
			_, text := in.Text()
			n := len(splitWords(text))
			return results.Evaluation{Passed: n <= p.Max, Score: 1}, nil
		}), nil
	})
}

func splitWords(s string) []string {
	var out []string
	word := ""
	for _, r := range s + " " {
		if r == ' ' || r == '\n' {
			if word != "" {
				out = append(out, word)
			}
			word = ""
			continue
		}
		word += string(r)
	}
	return out
}

func TestBuiltinsAreTheFormatsTypes(t *testing.T) {
	t.Parallel()
	reg := evaluate.NewRegistry()
	assert.Equal(t, []string{"command_exit_code_is", "context_retention", "conversation_flow", "conversation_length", "execution_time",
		"file_contains", "file_exists", "llm_judge", "regex_match", "string_contains", "trajectory_contains_action",
		"trajectory_match", "user_satisfaction"}, reg.Names(), "the format's twelve types and trajectory_match, and no more")
	for _, k := range evaluate.NewRegistry().All() {
		assert.NotEmpty(t, k.Doc, k.Name)
		assert.NoError(t, formats.CheckParams(k.Name, k.NewParams), k.Name)
	}
}

func TestNewRegistryRejects(t *testing.T) {
	t.Parallel()
	err := evaluate.NewRegistry().Register(wordCountKind(), wordCountKind())
	assert.ErrorContains(t, err, `"word_count": already registered`)
	err = evaluate.NewRegistry().Register(&evaluate.Kind{})
	assert.ErrorContains(t, err, "no name")
	err = evaluate.NewRegistry().Register(&evaluate.Kind{Name: "x", NewParams: func() any { return new(wordCount) }})
	assert.ErrorContains(t, err, "needs both NewParams and New")
	type shadow struct {
		Type string `json:"type"`
	}
	err = evaluate.NewRegistry().Register(evaluate.NewKind("bad", "", func(*shadow) (evaluate.Evaluator, error) { return nil, nil }))
	assert.ErrorContains(t, err, "shadows a field every evaluation has")
	builtin, err := evaluate.NewRegistry().Get("string_contains")
	require.NoError(t, err)
	err = evaluate.NewRegistry().Register(builtin)
	assert.ErrorContains(t, err, "already registered")
}

const customScenario = `name: custom
description: a host's own evaluation type
environment: {type: local}
run:
  - input: hello
    evaluations:
      - type: word_count
        max: 3
        weight: 2
        critical: true
      - type: string_contains
        value: hi
judgment: {strategy: all_pass}
`

func TestCustomKindLoadsValidatesAndAppearsInSchema(t *testing.T) {
	t.Parallel()
	kit := agenteval.New()
	require.NoError(t, kit.Evaluations.Register(wordCountKind()))
	reg := kit.Evaluations
	loader := kit.Loader(scenario.Options{Strict: true})

	f, err := loader.Load("custom.scenario.yaml", []byte(customScenario))
	require.NoError(t, err)
	evs := f.Scenario.Run[0].Evaluations
	require.Len(t, evs, 2)
	assert.Equal(t, &wordCount{Max: 3}, evs[0].Params)

	c, err := evaluate.Compile(reg, f.Scenario)
	require.NoError(t, err)
	in := reply("hi there")
	rs := c.Evaluate(context.Background(), in)
	require.Len(t, rs, 2)
	assert.Equal(t, results.Evaluation{Type: "word_count", Scope: results.ScopeStep, Turn: -1, Passed: true, Score: 1, Weight: 2, Critical: true}, rs[0])
	assert.True(t, rs[1].Passed)

	// The schema validates the host's fields like a built-in's.
	_, err = loader.Load("bad.scenario.yaml", []byte(replaceOnce(customScenario, "max: 3", "max: 0")))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "max")
	_, err = loader.Load("bad.scenario.yaml", []byte(replaceOnce(customScenario, "max: 3", "maximum: 3")))
	require.Error(t, err)

	// The default loader does not know the host's type.
	_, err = agenteval.New().Loader(scenario.Options{}).Load("c.scenario.yaml", []byte(customScenario))
	assert.ErrorContains(t, err, "word_count")

	schema, err := kit.Schema(scenario.KindScenario)
	require.NoError(t, err)
	assert.Contains(t, string(schema), `"word_count"`)
	assert.Contains(t, string(schema), "The reply has at most max words.")
}

func replaceOnce(s, old, new string) string {
	i := indexOf(s, old)
	if i < 0 {
		return s
	}
	return s[:i] + new + s[i+len(old):]
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func TestBuild(t *testing.T) {
	t.Parallel()
	reg := evaluate.NewRegistry()
	_, err := evaluate.Build(reg, scenario.Evaluation{Type: "nope"})
	var unknown *registry.Error
	require.ErrorAs(t, err, &unknown)
	assert.Equal(t, "nope", unknown.Name)
	assert.Contains(t, unknown.Known, "string_contains")

	// Nil params get the kind's zero parameters with defaults.
	ev, err := evaluate.Build(reg, scenario.Evaluation{Type: "conversation_length"})
	require.NoError(t, err)
	r, err := ev.Evaluate(context.Background(), final("a", "b"))
	require.NoError(t, err)
	assert.True(t, r.Passed)

	_, err = evaluate.Build(reg, scenario.Evaluation{Type: "string_contains"})
	assert.ErrorContains(t, err, "string_contains: value is empty")
	_, err = evaluate.Build(reg, scenario.Evaluation{Type: "conversation_length", Weight: ptr(-1.0)})
	assert.ErrorContains(t, err, "conversation_length: weight -1 must be a number ≥ 0")
	ev, err = evaluate.Build(reg, scenario.Evaluation{Type: "conversation_length", Weight: ptr(0.0), Critical: true})
	require.NoError(t, err)
	r, err = ev.Evaluate(context.Background(), final("a", "b"))
	require.NoError(t, err)
	assert.Equal(t, 0.0, r.Weight, "an explicit weight 0 is kept")
	assert.True(t, r.Critical)
}

func TestPanickingEvaluatorBecomesErrorResult(t *testing.T) {
	t.Parallel()
	boom := evaluate.NewKind("boom", "Panics.", func(*struct{}) (evaluate.Evaluator, error) {
		return evaluate.EvaluatorFunc(func(context.Context, evaluate.Input) (results.Evaluation, error) {
			var m map[string]int
			//lint:ignore SA5000 the point: a real runtime panic
			m["x"]++
			return results.Evaluation{Passed: true}, nil
		}), nil
	})
	reg := evaluate.NewRegistry()
	require.NoError(t, reg.Register(boom))
	c, err := evaluate.Compile(reg, &scenario.Scenario{Run: []scenario.RunStep{{Evaluations: []scenario.Evaluation{{Type: "boom", Weight: ptr(3.0)}}}}})
	require.NoError(t, err)
	rs := c.Evaluate(context.Background(), reply("x"))
	require.Len(t, rs, 1)
	assert.False(t, rs[0].Passed)
	assert.Equal(t, 3.0, rs[0].Weight)
	assert.Contains(t, rs[0].Error, "evaluator boom panicked: assignment to entry in nil map")
	_, err = c.Checks(results.ScopeStep, 0)[0].Evaluator.Evaluate(context.Background(), reply("x"))
	assert.ErrorContains(t, err, "evaluator boom panicked")
	assert.Contains(t, rs[0].Details["panic_stack"], "registry_test.go")

	_, err = evaluate.Compile(reg, nil)
	assert.ErrorContains(t, err, "nil scenario")
}

func TestCompile(t *testing.T) {
	t.Parallel()
	reg := evaluate.NewRegistry()
	s := &scenario.Scenario{Run: []scenario.RunStep{
		{Input: "a", Evaluations: []scenario.Evaluation{
			{Type: "string_contains", Params: &evalparams.StringContains{Value: "x"}},
			{Type: "file_exists", Params: &evalparams.FileExists{Path: "out.txt"}},
		}},
		{Input: "b", Conversation: &scenario.Conversation{
			MaxTurns:         3,
			TurnEvaluations:  []scenario.Evaluation{{Type: "regex_match", Params: &evalparams.RegexMatch{Pattern: "y"}}},
			FinalEvaluations: []scenario.Evaluation{{Type: "command_exit_code_is", Params: &evalparams.CommandExitCodeIs{Command: "true"}}},
		}},
	}}
	c, err := evaluate.Compile(reg, s)
	require.NoError(t, err)
	assert.Len(t, c.Checks(results.ScopeStep, 0), 2)
	assert.Empty(t, c.Checks(results.ScopeStep, 1))
	assert.Empty(t, c.Checks(results.ScopeTurn, 0))
	assert.Nil(t, c.Checks(results.ScopeStep, 9))
	require.Len(t, c.Checks(results.ScopeTurn, 1), 1)
	ch := c.Checks(results.ScopeTurn, 1)[0]
	assert.Equal(t, "regex_match", ch.Evaluation.Type)
	assert.Equal(t, "run[1].conversation.turn_evaluations[0]", ch.Path.String())
	assert.Equal(t, evaluate.Needs{Dir: true}, c.Checks(results.ScopeStep, 0)[1].Needs)
	assert.Equal(t, evaluate.Needs{Dir: true, Commands: true}, c.Needs())

	in := turn(1, "hi", "y?")
	in.Step = 0
	in.Trace.Steps = append([]evaluate.StepTrace{{Kind: "input"}}, in.Trace.Steps...)
	in.Step = 1
	rs := c.Evaluate(context.Background(), in)
	require.Len(t, rs, 1)
	assert.Equal(t, results.Evaluation{Type: "regex_match", Scope: results.ScopeTurn, Step: 1, Turn: 1, Passed: true, Score: 1, Weight: 1,
		Message: rs[0].Message, Details: rs[0].Details}, rs[0])

	bad := &scenario.Scenario{Run: []scenario.RunStep{
		{Evaluations: []scenario.Evaluation{{Type: "regex_match", Params: &evalparams.RegexMatch{Pattern: "("}}}},
		{Conversation: &scenario.Conversation{FinalEvaluations: []scenario.Evaluation{{Type: "nope"}}}},
	}}
	_, err = evaluate.Compile(reg, bad)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "run[0].evaluations[0]: regex_match: pattern")
	assert.Contains(t, err.Error(), `run[1].conversation.final_evaluations[0]: unknown evaluation type "nope"`)
	var re *registry.Error
	require.ErrorAs(t, err, &re, "the cause of an unknown type stays reachable")
}

// TestCompiledConcurrentRuns evaluates one compiled scenario from many runs
// at once, as a runner does; run with -race.
func TestCompiledConcurrentRuns(t *testing.T) {
	t.Parallel()
	s := &scenario.Scenario{Run: []scenario.RunStep{{Input: "hi", Evaluations: []scenario.Evaluation{
		{Type: "regex_match", Params: &evalparams.RegexMatch{Pattern: `run \d+`}},
		{Type: "trajectory_match", Params: &evalparams.TrajectoryMatch{Mode: "unordered", Expected: []evalparams.ExpectedAction{{Action: "a"}, {Action: "b"}}}},
		{Type: "execution_time", Params: &evalparams.ExecutionTime{MaxDurationMS: ptr(15.0)}},
	}}}}
	c, err := evaluate.Compile(evaluate.NewRegistry(), s)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			in := reply(fmt.Sprintf("run %d", i), act("b", nil), act("a", nil))
			in.Trace.Steps[0].Duration = time.Duration(i) * time.Millisecond
			rs := c.Evaluate(context.Background(), in)
			assert.Len(t, rs, 3)
			for _, r := range rs {
				assert.True(t, r.Passed, "%s: %s", r.Type, r.Message)
			}
		})
	}
	wg.Wait()
}

package agenteval_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/examples/plugins"
	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/report"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// TestPluginsRegisteredOnceWorkEverywhere registers a host's evaluation
// type, strategy, condition type and agent once, on the kit, and finds them
// in the schema, accepted by the loader (also by one made before they were
// registered) and run.
func TestPluginsRegisteredOnceWorkEverywhere(t *testing.T) {
	t.Parallel()
	kit := agenteval.New()
	early := kit.Loader(scenario.Options{Strict: true})
	_, err := early.Load("host.scenario.yaml", plugins.Scenario)
	require.Error(t, err, "before registration the file names unknown types")
	for _, want := range []string{`"word_limit" is not one of`, `"title_mentions" is not one of`, `"at_least_two" is not one of`} {
		assert.Contains(t, diagText(err), want)
	}

	require.NoError(t, plugins.Register(kit))
	schema, err := kit.Schema(scenario.KindScenario)
	require.NoError(t, err)
	for _, want := range []string{`"word_limit"`, "The reply has at most max words.", `"at_least_two"`, "Passes when at least two evaluations",
		`"title_mentions"`, "Holds when the result's title contains value"} {
		assert.Contains(t, string(schema), want)
	}
	f, err := early.Load("host.scenario.yaml", plugins.Scenario)
	require.NoError(t, err, "a loader made before the registrations sees them")
	assert.Empty(t, f.Diagnostics)
	assert.Equal(t, &plugins.WordLimitParams{Max: 5}, f.Scenario.Run[0].Evaluations[0].Params)

	agent, err := kit.Agent("shout", runner.AgentOptions{})
	require.NoError(t, err)
	issue := checkpoint.ExecutorFunc(func(_ context.Context, task string, in map[string]any) (any, error) {
		assert.Equal(t, "issue.view", task)
		return map[string]any{"number": 1, "title": "App CRASHES on start"}, nil
	})
	srcs, err := sources.Files([]*scenario.File{f}, sources.Options{})
	require.NoError(t, err)
	jobs, total, err := sources.Combine(srcs, matrix.Shard{})
	require.NoError(t, err)
	var got []*results.Job
	sum, err := runner.Run(t.Context(), runner.Config{Agent: agent, Registries: kit.Registries, Total: total,
		Checkpoints: checkpoint.Checker{Executor: issue, Conditions: kit.Conditions},
		Results:     sinkFunc(func(r *results.Job) error { got = append(got, r); return nil })}, jobs)
	require.NoError(t, err)
	assert.Equal(t, int64(1), sum.Passed)
	require.Len(t, got, 1)
	res := got[0]
	assert.Equal(t, "at_least_two", res.Strategy)
	assert.Equal(t, "3 of 3 passed; at_least_two needs two", res.Reason)
	assert.Equal(t, "word_limit", res.Evaluations[0].Type)
	assert.Equal(t, "reply has 3 words (at most 5)", res.Evaluations[0].Message)
	assert.Equal(t, "title mentions crash", res.Checkpoints[0].Expected)

	// Registered once: a second registration of any of them is refused.
	assert.Error(t, plugins.Register(kit))
}

// TestEvaluatorFromData turns one evaluation written as data into a
// runnable evaluator, with the loader's checks and defaults.
func TestEvaluatorFromData(t *testing.T) {
	t.Parallel()
	kit := agenteval.New()
	ev, err := kit.Evaluator("type: string_contains\nvalue: hello\n")
	require.NoError(t, err)
	in := evaluate.Input{Trace: &evaluate.Trace{Steps: []evaluate.StepTrace{{Kind: "input", Reply: "Hello there"}}}}
	r, err := ev.Evaluate(t.Context(), in)
	require.NoError(t, err)
	assert.True(t, r.Passed, "case-insensitive by default: %s", r.Message)

	_, err = kit.Evaluator([]byte("type: regex_match\npattern: \"(\"\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "evaluation:2:10: error: pattern: pattern does not compile")
	_, err = kit.Evaluator(map[string]any{"type": "string_contain", "value": "x"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `did you mean "string_contains"?`)
	_, err = kit.Evaluator(map[string]any{"type": "word_limit", "max": 3})
	assert.ErrorContains(t, err, `"word_limit" is not one of`)
	require.NoError(t, plugins.Register(kit))
	_, err = kit.Evaluator(map[string]any{"type": "word_limit", "max": 3})
	assert.NoError(t, err)
}

type sinkFunc func(*results.Job) error

func (f sinkFunc) Write(r *results.Job) error { return f(r) }

func diagText(err error) string {
	var ds scenario.Diagnostics
	if d, ok := err.(scenario.Diagnostics); ok {
		ds = d
	}
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String() + "\n")
	}
	return b.String()
}

// TestDecodeCondition turns one checkpoint condition written as data into
// a Condition with the loader's checks: the type's fields, a registered
// scorer.
func TestDecodeCondition(t *testing.T) {
	t.Parallel()
	kit := agenteval.New()
	l := kit.Loader(scenario.Options{})
	c, err := l.DecodeCondition("{type: count_gte, value: 2}")
	require.NoError(t, err)
	assert.Equal(t, scenario.Condition{Type: "count_gte", Value: 2.0}, c)
	_, err = l.DecodeCondition(`{"type": "count_gte", "value": "two"}`)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "condition:1:32: error: value: got string, want number")
	_, err = l.DecodeCondition(map[string]any{"type": "custom", "scorer": "approvals"})
	assert.ErrorContains(t, err, `scorer: no custom scorer "approvals" is registered`)
	require.NoError(t, kit.Scorers.Register(&checkpoint.Scorer{Name: "approvals", Score: func(context.Context, any, scenario.Condition) (bool, string, error) {
		return true, "", nil
	}}))
	c, err = l.DecodeCondition(map[string]any{"type": "custom", "scorer": "approvals"})
	require.NoError(t, err, "the loader sees a scorer registered after it was made")
	assert.Equal(t, "approvals", c.Scorer)
}

// TestRunZeroConfig: a RunConfig with just an Agent runs every job once
// and writes nothing; with Out it writes results through package results,
// refuses to overwrite them unasked, and resumes by skipping what is there.
func TestRunZeroConfig(t *testing.T) {
	t.Parallel()
	kit := agenteval.New()
	files, err := kit.Load("examples/scenarios/weather.scenario.yaml")
	require.NoError(t, err)
	weather := runner.AgentFunc(func(ctx context.Context, cfg runner.SessionConfig, _ string) (runner.Reply, error) {
		_, err := cfg.Mocks.Call(ctx, "weather", "forecast", map[string]any{"city": "Paris"})
		return runner.Reply{Text: "The weather in Paris is sunny", Actions: []results.Action{{Name: "GET_WEATHER"}}}, err
	})
	sum, err := kit.Run(t.Context(), agenteval.RunConfig{Agent: weather}, files...)
	require.NoError(t, err)
	assert.Equal(t, int64(1), sum.Passed)
	assert.Equal(t, int64(1), sum.Jobs)

	_, err = kit.Run(t.Context(), agenteval.RunConfig{}, files...)
	require.ErrorIs(t, err, runner.ErrNoAgent)

	out := t.TempDir()
	sum, err = kit.Run(t.Context(), agenteval.RunConfig{Agent: weather, Runs: 3, Out: out, Shard: matrix.Shard{Index: 1, Count: 2}}, files...)
	require.NoError(t, err)
	assert.Equal(t, int64(2), sum.Passed, "shard 1/2 of 3 jobs")
	_, err = kit.Run(t.Context(), agenteval.RunConfig{Agent: weather, Runs: 3, Out: out, Shard: matrix.Shard{Index: 1, Count: 2}}, files...)
	require.ErrorIs(t, err, results.ErrExist)
	sum, err = kit.Run(t.Context(), agenteval.RunConfig{Agent: weather, Runs: 3, Out: out, Resume: true, Shard: matrix.Shard{Index: 1, Count: 2}}, files...)
	require.NoError(t, err)
	assert.Equal(t, int64(2), sum.Skipped)
	assert.Zero(t, sum.Jobs)
	data, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(data), `{"record":"job"`), "two jobs, then a second plan line")
	assert.NoDirExists(t, filepath.Join(out, "work"), "run directories are removed with the run")
}

// TestRunBudgetThroughTheKit: a budget set in RunConfig.Runner stops the
// run, the results folder ends with the budget record, and the report
// reads it; resuming without the budget finishes the run.
func TestRunBudgetThroughTheKit(t *testing.T) {
	t.Parallel()
	kit := agenteval.New()
	files, err := kit.Load("examples/scenarios/weather.scenario.yaml")
	require.NoError(t, err)
	agent := runner.AgentFunc(func(ctx context.Context, cfg runner.SessionConfig, _ string) (runner.Reply, error) {
		_, err := cfg.Mocks.Call(ctx, "weather", "forecast", map[string]any{"city": "Paris"})
		return runner.Reply{Text: "The weather in Paris is sunny", Actions: []results.Action{{Name: "GET_WEATHER"}},
			Usage: llm.Usage{PromptTokens: 70, CompletionTokens: 30, TotalTokens: 100}}, err
	})
	out := t.TempDir()
	cfg := agenteval.RunConfig{Agent: agent, Runs: 6, Out: out, Concurrency: 1, Budget: &runner.Budget{Tokens: 300}}
	sum, err := kit.Run(t.Context(), cfg, files...)
	require.NoError(t, err)
	assert.Equal(t, int64(3), sum.Jobs)
	require.NotNil(t, sum.Budget)
	assert.True(t, sum.Budget.Stopped)
	res, err := report.ReadFiles([]string{filepath.Join(out, "results.jsonl")}, report.Options{})
	require.NoError(t, err)
	defer res.Close()
	s := res.Summary()
	require.Len(t, s.Budgets, 1)
	assert.True(t, s.Budgets[0].Stopped)
	assert.EqualValues(t, 3, s.Budgets[0].Unstarted)
	assert.EqualValues(t, 300, s.Budgets[0].Used.Tokens)

	cfg.Resume, cfg.Budget = true, nil
	sum, err = kit.Run(t.Context(), cfg, files...)
	require.NoError(t, err)
	assert.Equal(t, int64(3), sum.Jobs)
	assert.Equal(t, int64(3), sum.Skipped)
}

// TestRetryRerunsOnlyThoseJobs: Retry "failed" reruns only the jobs whose
// latest record failed, appends their new records, and the whole run is
// counted by each job's latest record; Retry "incomplete" then finds
// nothing to rerun. A resume would have rerun nothing (issue 25).
func TestRetryRerunsOnlyThoseJobs(t *testing.T) {
	t.Parallel()
	kit := agenteval.New()
	files, err := kit.Load("examples/scenarios/weather.scenario.yaml")
	require.NoError(t, err)
	var mu sync.Mutex
	sent := map[string]int{}
	// Runs 2 and 4 fail the first time they are sent, and pass after.
	agent := runner.AgentFunc(func(ctx context.Context, cfg runner.SessionConfig, _ string) (runner.Reply, error) {
		mu.Lock()
		sent[cfg.JobID]++
		first := sent[cfg.JobID] == 1
		mu.Unlock()
		if first && (strings.HasSuffix(cfg.JobID, "run-2") || strings.HasSuffix(cfg.JobID, "run-4")) {
			return runner.Reply{Text: "no idea"}, nil
		}
		_, err := cfg.Mocks.Call(ctx, "weather", "forecast", map[string]any{"city": "Paris"})
		return runner.Reply{Text: "The weather in Paris is sunny", Actions: []results.Action{{Name: "GET_WEATHER"}}}, err
	})
	out := t.TempDir()
	cfg := agenteval.RunConfig{Agent: agent, AgentSpec: "go:weather", Runs: 4, Out: out}
	sum, err := kit.Run(t.Context(), cfg, files...)
	require.NoError(t, err)
	assert.Equal(t, results.Tally{Jobs: 4, Passed: 2, Failed: 2}, sum.Recorded)

	cfg.Retry = agenteval.RetryFailed
	sum, err = kit.Run(t.Context(), cfg, files...)
	require.NoError(t, err)
	assert.Equal(t, int64(2), sum.Jobs, "only the two failed jobs ran again")
	assert.Equal(t, int64(2), sum.Passed)
	assert.Equal(t, int64(2), sum.Skipped)
	assert.Equal(t, results.Tally{Jobs: 4, Passed: 4}, sum.Recorded, "each job counts by its latest record")
	mu.Lock()
	assert.Equal(t, map[string]int{"weather/-/run-1": 1, "weather/-/run-2": 2, "weather/-/run-3": 1, "weather/-/run-4": 2}, sent)
	mu.Unlock()
	data, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, 6, strings.Count(string(data), `{"record":"job"`), "the retried jobs' records are appended")

	cfg.Retry = agenteval.RetryIncomplete
	sum, err = kit.Run(t.Context(), cfg, files...)
	require.NoError(t, err)
	assert.Zero(t, sum.Jobs)

	cfg.Retry = "everything"
	_, err = kit.Run(t.Context(), cfg, files...)
	require.ErrorIs(t, err, agenteval.ErrConfig)
}

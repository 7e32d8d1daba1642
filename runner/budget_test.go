package runner

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
)

// usageAgent echoes and reports a fixed 100 tokens (60 in, 40 out) per reply.
func usageAgent(calls *atomic.Int64) Agent {
	return AgentFunc(func(_ context.Context, _ SessionConfig, m string) (Reply, error) {
		calls.Add(1)
		return Reply{Text: m, Usage: llm.Usage{PromptTokens: 60, CompletionTokens: 40, TotalTokens: 100}}, nil
	})
}

func TestBudgetStopsStartingJobs(t *testing.T) {
	t.Parallel()
	s := loadScenario(t, "echo.scenario.yaml")
	perToken := func(j *results.Job) float64 { return float64(j.Usage.TotalTokens) * 0.001 } // $0.10 a job
	for _, tc := range []struct {
		name    string
		budget  Budget
		jobs    int64
		reached []string
	}{
		{"tokens, half", Budget{Tokens: 500}, 5, []string{"tokens"}},
		{"tokens, not a multiple", Budget{Tokens: 450}, 5, []string{"tokens"}},
		{"cost", Budget{CostUSD: 0.3, Cost: perToken}, 3, []string{"cost"}},
		{"both, tokens first", Budget{Tokens: 200, CostUSD: 0.5, Cost: perToken}, 2, []string{"tokens"}},
		{"within", Budget{Tokens: 5000}, 10, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("echo", s, 10)}, matrix.Shard{})
			require.NoError(t, err)
			var calls atomic.Int64
			sink := &memSink{}
			// One job at a time: the job that reaches the limit is the last to start.
			sum, err := Run(context.Background(), Config{Agent: usageAgent(&calls), Concurrency: 1, Results: sink, Budget: &tc.budget}, jobs)
			require.NoError(t, err)
			assert.Equal(t, tc.jobs, sum.Jobs)
			assert.Len(t, sink.results, int(tc.jobs))
			require.NotNil(t, sum.Budget)
			assert.Equal(t, tc.reached, sum.Budget.Reached)
			assert.Equal(t, tc.jobs < 10, sum.Budget.Stopped)
			assert.Equal(t, 100*tc.jobs, sum.Budget.Used.Tokens)
			if tc.budget.Cost != nil {
				assert.InDelta(t, 0.1*float64(tc.jobs), sum.Budget.Used.CostUSD, 1e-9)
			}
			for i, r := range sink.results {
				assert.Equal(t, int64(i), r.Index, "the jobs that ran are the first ones")
			}
		})
	}
}

func TestBudgetOvershootIsBoundedByConcurrency(t *testing.T) {
	t.Parallel()
	s := loadScenario(t, "echo.scenario.yaml")
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("echo", s, 40)}, matrix.Shard{})
	require.NoError(t, err)
	var calls atomic.Int64
	sink := &memSink{}
	sum, err := Run(context.Background(), Config{Agent: usageAgent(&calls), Concurrency: 4, Results: sink, Budget: &Budget{Tokens: 1000}}, jobs)
	require.NoError(t, err)
	assert.True(t, sum.Budget.Stopped)
	assert.GreaterOrEqual(t, sum.Jobs, int64(10))
	assert.LessOrEqual(t, sum.Jobs, int64(10+3), "at most concurrency-1 jobs beyond the one that reached the limit")
	assert.Equal(t, sum.Jobs, calls.Load(), "every started job is recorded")
}

func TestBudgetTime(t *testing.T) {
	t.Parallel()
	s := loadScenario(t, "echo.scenario.yaml")
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("echo", s, 1000)}, matrix.Shard{})
	require.NoError(t, err)
	slow := AgentFunc(func(ctx context.Context, _ SessionConfig, m string) (Reply, error) {
		select {
		case <-time.After(5 * time.Millisecond):
		case <-ctx.Done():
		}
		return Reply{Text: m}, nil
	})
	sink := &memSink{}
	sum, err := Run(context.Background(), Config{Agent: slow, Concurrency: 2, Results: sink, Budget: &Budget{Time: 50 * time.Millisecond}}, jobs)
	require.NoError(t, err)
	assert.Equal(t, []string{"time"}, sum.Budget.Reached)
	assert.True(t, sum.Budget.Stopped)
	assert.Less(t, sum.Jobs, int64(1000))
	assert.Len(t, sink.results, int(sum.Jobs))
	for _, r := range sink.results {
		assert.True(t, r.Completed, "running jobs finish: %s", r.Reason)
	}
}

func TestCostBudgetNeedsAPrice(t *testing.T) {
	t.Parallel()
	_, err := Run(context.Background(), Config{Agent: echoAgent{}, Budget: &Budget{CostUSD: 1}}, nil)
	require.ErrorContains(t, err, "Budget.Cost")
}

// BenchmarkRunEchoBudget is BenchmarkRunEcho with a budget that is never
// reached (tokens, cost and time all set): the cost of checking and
// accounting a budget per job.
func BenchmarkRunEchoBudget(b *testing.B) {
	s := loadScenario(b, "echo.scenario.yaml")
	b.ReportAllocs()
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("echo", s, b.N)}, matrix.Shard{})
	if err != nil {
		b.Fatal(err)
	}
	budget := &Budget{Tokens: 1 << 62, CostUSD: 1e9, Cost: func(j *results.Job) float64 { return float64(j.Usage.TotalTokens) * 1e-6 }, Time: time.Hour}
	b.ResetTimer()
	start := time.Now()
	sum, err := Run(b.Context(), Config{Agent: echoAgent{}, Results: newJSONDiscard(), Budget: budget}, jobs)
	if err != nil || sum.Passed != int64(b.N) || sum.Budget.Stopped {
		b.Fatalf("sum %+v err %v", sum, err)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "jobs/s")
}

// BenchmarkBudgetPerJob is what a budget costs each job: the check before
// it starts and the accounting when it ends (all three limits set).
func BenchmarkBudgetPerJob(b *testing.B) {
	s := newBudgetState(&Budget{Tokens: 1 << 62, CostUSD: 1e12, Cost: func(j *results.Job) float64 { return float64(j.Usage.TotalTokens) * 1e-6 }, Time: time.Hour})
	defer s.use(0)
	u := &results.Job{Usage: llm.Usage{PromptTokens: 60, CompletionTokens: 40, TotalTokens: 100}}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if s.over() {
				b.Fatal("over")
			}
			s.add(u)
		}
	})
}

// TestImpossibleUsageIsAProtocolError: an agent that reports negative (or
// absurd) token counts once slipped past --budget and showed "-2000000
// tokens"; now the session fails with the reason and the run's spend
// counts nothing of it.
func TestImpossibleUsageIsAProtocolError(t *testing.T) {
	t.Parallel()
	s := loadScenario(t, "echo.scenario.yaml")
	for _, tc := range []struct {
		name  string
		usage llm.Usage
		field string
	}{
		{"negative total", llm.Usage{TotalTokens: -2000000}, "total_tokens is -2000000"},
		{"negative prompt", llm.Usage{PromptTokens: -1, TotalTokens: 10}, "prompt_tokens is -1"},
		{"absurd completion", llm.Usage{CompletionTokens: 1 << 40, TotalTokens: 1 << 40}, "completion_tokens is 1099511627776"},
		{"negative cache", llm.Usage{CacheWriteTokens: -5}, "cache_write_tokens is -5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("echo", s, 3)}, matrix.Shard{})
			require.NoError(t, err)
			agent := AgentFunc(func(_ context.Context, _ SessionConfig, m string) (Reply, error) {
				return Reply{Text: m, Usage: tc.usage}, nil
			})
			sink := &memSink{}
			sum, err := Run(context.Background(), Config{Agent: agent, Concurrency: 1, Results: sink, Budget: &Budget{Tokens: 1000}}, jobs)
			require.NoError(t, err)
			require.Len(t, sink.results, 3, "the budget was not fooled into running more or fewer")
			for _, r := range sink.results {
				assert.Contains(t, r.Error, "agent protocol error: impossible token usage")
				assert.Contains(t, r.Error, tc.field)
				assert.GreaterOrEqual(t, r.Usage.TotalTokens, 0)
			}
			assert.Equal(t, int64(0), sum.Budget.Used.Tokens)
		})
	}
}

package plan_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/plan"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

func jobsOf(t *testing.T, runs int, shard matrix.Shard, paths ...string) (srcs []sources.Source, reg *runner.Registries) {
	t.Helper()
	reg = runner.NewRegistries()
	set, err := scenario.NewLoader(reg, scenario.Options{}).LoadPaths(paths...)
	require.NotNil(t, set, "%v", err)
	require.False(t, set.Diagnostics.HasErrors(), "%v", set.Diagnostics)
	srcs, err = sources.Files(set.Files, sources.Options{Runs: runs})
	require.NoError(t, err)
	return srcs, reg
}

func makePlan(t *testing.T, runs int, shard matrix.Shard, opts plan.Options, paths ...string) *plan.Plan {
	t.Helper()
	srcs, reg := jobsOf(t, runs, shard, paths...)
	jobs, _, err := sources.Combine(srcs, shard)
	require.NoError(t, err)
	opts.Evaluations = reg.Evaluations
	p, err := plan.Make(context.Background(), jobs, opts)
	require.NoError(t, err)
	return p
}

// TestCallsByRoleFromLimits counts one job of testdata/talk by its limits:
// 4 agent turns, 3 simulated-user turns, and judge calls: 4 turns × 2
// samples, 1 final, 4 termination checks.
func TestCallsByRoleFromLimits(t *testing.T) {
	t.Parallel()
	p := makePlan(t, 3, matrix.Shard{}, plan.Options{Concurrency: 2, AgentModel: "gpt-4o-mini", UserModel: "gpt-4o-mini", JudgeModel: "gpt-4.1"}, "testdata/talk.scenario.yaml")
	assert.EqualValues(t, 3, p.Jobs)
	assert.Equal(t, plan.Calls{Agent: 12, User: 9, Judge: 3 * (8 + 1 + 4), JudgeEvaluations: 3 * (4 + 1 + 4)}, p.Calls)
	a := plan.Assumed{Agent: plan.Tokens{Input: 1000, Output: 300}, User: plan.Tokens{Input: 500, Output: 200}, Judge: plan.Tokens{Input: 1500, Output: 200}} // the documented default
	require.Len(t, p.Roles, 3)
	assert.EqualValues(t, 12*a.Agent.Input, p.Roles[0].InputTokens)
	assert.EqualValues(t, 9*50, p.Roles[1].OutputTokens, "the user simulator's max_tokens bounds its output")
	assert.EqualValues(t, 39*a.Judge.Output, p.Roles[2].OutputTokens)
	require.NotNil(t, p.CostUSD)
	mini, g41 := plan.DefaultPrices()["gpt-4o-mini"], plan.DefaultPrices()["gpt-4.1"]
	want := (float64(12*a.Agent.Input+9*a.User.Input)*mini.Input + float64(12*a.Agent.Output+9*50)*mini.Output +
		float64(39*a.Judge.Input)*g41.Input + float64(39*a.Judge.Output)*g41.Output) / 1e6
	assert.InDelta(t, want, *p.CostUSD, 1e-9)
	// A job: the conversation's min(60 s, 4 × 1 s) plus the code step's 2 s.
	assert.InDelta(t, 6000, p.LongestJobMS, 1e-9)
	assert.InDelta(t, 18000, p.JobMS, 1e-9)
	assert.InDelta(t, 9000, p.WallMS, 1e-9, "three 6 s jobs on two workers: at least the even share")
	assert.EqualValues(t, 3, p.Basis.LimitJobs)
	assert.Equal(t, "talk", p.Sources[0].Source)
}

func TestUnknownModelCostIsUnknownNeverZero(t *testing.T) {
	t.Parallel()
	p := makePlan(t, 1, matrix.Shard{}, plan.Options{AgentModel: "house-model", UserModel: "gpt-4o"}, "testdata/talk.scenario.yaml")
	assert.Nil(t, p.CostUSD)
	assert.Nil(t, p.Roles[0].CostUSD)
	assert.Nil(t, p.Roles[2].CostUSD, "no judge model named")
	assert.Equal(t, []string{`agent: no price for model "house-model" (give it in a prices file)`, "judge: the model is not known (name it to price its 13 call(s))"}, p.CostUnknown)
	var text bytes.Buffer
	require.NoError(t, p.WriteText(&text))
	assert.Contains(t, text.String(), "cost: unknown\n  unknown because agent: no price for model \"house-model\"")
	js, err := json.Marshal(p)
	require.NoError(t, err)
	assert.Contains(t, string(js), `"cost_usd":null`)

	// With its price the cost is known.
	prices := plan.DefaultPrices().With(plan.Prices{"house-model": {Input: 1, Output: 1}})
	p = makePlan(t, 1, matrix.Shard{}, plan.Options{AgentModel: "house-model", NoUserModel: true, JudgeModel: "gpt-4o", Prices: prices}, "testdata/talk.scenario.yaml")
	require.NotNil(t, p.CostUSD)
	assert.Empty(t, p.CostUnknown)
	assert.Zero(t, p.Roles[1].InputTokens, "the scripted user makes no model calls")
}

func TestShardsSplitThePlan(t *testing.T) {
	t.Parallel()
	whole := makePlan(t, 10, matrix.Shard{}, plan.Options{NoAgentModel: true, NoUserModel: true}, "testdata/talk.scenario.yaml")
	var jobs, agent int64
	for i := 1; i <= 3; i++ {
		p := makePlan(t, 10, matrix.Shard{Index: i, Count: 3}, plan.Options{NoAgentModel: true, NoUserModel: true}, "testdata/talk.scenario.yaml")
		jobs += p.Jobs
		agent += p.Calls.Agent
	}
	assert.Equal(t, whole.Jobs, jobs)
	assert.Equal(t, whole.Calls.Agent, agent)
}

func TestHistoryReplacesLimits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	hist := filepath.Join(dir, "results.jsonl")
	var b strings.Builder
	b.WriteString(`{"record":"plan","run_id":"r","total_jobs":3}` + "\n")
	for i, u := range []int{100, 300} {
		fmt.Fprintf(&b, `{"record":"job","id":"talk/-/run-%d","index":%d,"scenario":"talk","completed":true,"duration_ms":%d,"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`+"\n", i+1, i, 1000*(i+1), u, u/2, u+u/2)
	}
	b.WriteString(`{"record":"job","id":"talk/-/run-3","index":2,"scenario":"talk","completed":false,"duration_ms":99999,"usage":{"total_tokens":99999}}` + "\n")
	b.WriteString(`{"record":"job","id":"torn`) // a torn last line
	require.NoError(t, os.WriteFile(hist, []byte(b.String()), 0o644))
	h := plan.NewHistory()
	f, err := os.Open(hist)
	require.NoError(t, err)
	defer f.Close()
	require.NoError(t, h.Read(hist, f))
	// The incomplete job (99999 tokens and ms) and the torn line are left
	// out: the means below are those of the two completed jobs.

	p := makePlan(t, 4, matrix.Shard{}, plan.Options{History: h, AgentModel: "gpt-4o-mini", NoUserModel: true, JudgeModel: "gpt-4o-mini"}, "testdata/talk.scenario.yaml")
	assert.EqualValues(t, 4, p.Basis.HistoryJobs, "run-4 has no record of its own: the scenario's mean stands in")
	assert.EqualValues(t, 4*200, p.Roles[0].InputTokens, "mean of 100 and 300")
	assert.EqualValues(t, 4*100, p.Roles[0].OutputTokens)
	assert.InDelta(t, 1500, p.LongestJobMS, 1e-9)
	assert.Equal(t, "history", p.Sources[0].Basis)

	require.ErrorContains(t, plan.NewHistory().Read("x.yaml", strings.NewReader("name: x\n")), "x.yaml holds no results record")
}

func TestMakeHonoursContext(t *testing.T) {
	t.Parallel()
	srcs, _ := jobsOf(t, 1, matrix.Shard{}, "testdata/talk.scenario.yaml")
	jobs, _, err := sources.Combine(srcs, matrix.Shard{})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = plan.Make(ctx, jobs, plan.Options{})
	require.ErrorIs(t, err, context.Canceled)
}

// BenchmarkMakeMatrix forecasts a 10^4-job matrix (100 combinations × 100
// runs) from limits: the cost of plan per job.
func BenchmarkMakeMatrix(b *testing.B) {
	dir := b.TempDir()
	base := filepath.Join(dir, "talk.scenario.yaml")
	if err := os.WriteFile(base, must(os.ReadFile("testdata/talk.scenario.yaml")), 0o644); err != nil {
		b.Fatal(err)
	}
	var vals []string
	for i := 1; i <= 100; i++ {
		vals = append(vals, fmt.Sprint(i))
	}
	m := "name: sweep\ndescription: turns\nbase_scenario: talk.scenario.yaml\nruns_per_combination: 100\nmatrix:\n  - parameter: run[0].conversation.max_turns\n    values: [" + strings.Join(vals, ", ") + "]\n"
	if err := os.WriteFile(filepath.Join(dir, "sweep.matrix.yaml"), []byte(m), 0o644); err != nil {
		b.Fatal(err)
	}
	reg := runner.NewRegistries()
	set, err := scenario.NewLoader(reg, scenario.Options{}).LoadPaths(filepath.Join(dir, "sweep.matrix.yaml"))
	if set == nil || set.Diagnostics.HasErrors() {
		b.Fatal(err, set.Diagnostics)
	}
	srcs, err := sources.Files(set.Files, sources.Options{Runs: 1})
	if err != nil {
		b.Fatal(err)
	}
	jobs, total, err := sources.Combine(srcs, matrix.Shard{})
	if err != nil || total != 10_000 {
		b.Fatal(err, total)
	}
	b.ReportAllocs()
	for b.Loop() {
		p, err := plan.Make(context.Background(), jobs, plan.Options{Evaluations: reg.Evaluations, AgentModel: "gpt-4o"})
		if err != nil || p.Jobs != 10_000 {
			b.Fatal(err)
		}
	}
}

// TestJobAgentModelPricesEachJobByItsModel: a run whose jobs use different
// agent models (a suite's agents × models) gets one agent role per model.
func TestJobAgentModelPricesEachJobByItsModel(t *testing.T) {
	t.Parallel()
	p := makePlan(t, 4, matrix.Shard{}, plan.Options{NoUserModel: true, JudgeModel: "gpt-4o-mini", AgentModel: "gpt-4o",
		JobAgentModel: func(j matrix.Job) (string, bool) {
			if strings.HasSuffix(j.ID, "run-1") || strings.HasSuffix(j.ID, "run-2") {
				return "gpt-4o-mini", false
			}
			return "", false // AgentModel
		}}, "testdata/talk.scenario.yaml")
	require.Len(t, p.Roles, 4)
	assert.Equal(t, "gpt-4o-mini", p.Roles[0].Model)
	assert.Equal(t, "gpt-4o", p.Roles[1].Model)
	assert.EqualValues(t, 8, p.Roles[0].Calls)
	assert.EqualValues(t, 8, p.Roles[1].Calls)
	require.NotNil(t, p.CostUSD)
	assert.Greater(t, *p.Roles[1].CostUSD, *p.Roles[0].CostUSD)
	var sum float64
	for _, r := range p.Roles {
		sum += *r.CostUSD
	}
	assert.InDelta(t, sum, *p.CostUSD, 1e-12)
}

// TestJudgeCallsFollowEachCombination: a matrix whose combinations differ
// in what is asked (the same evaluations, counted once) and in a judge's
// samples (counted again) forecasts each combination's own judge calls:
// 4 turns × samples, 1 final, 4 termination checks.
func TestJudgeCallsFollowEachCombination(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "talk.scenario.yaml"), must(os.ReadFile("testdata/talk.scenario.yaml")), 0o644))
	m := "name: sweep\ndescription: samples\nbase_scenario: talk.scenario.yaml\nmatrix:\n" +
		"  - parameter: run[0].input\n    values: [a, b, c]\n" +
		"  - parameter: run[0].conversation.turn_evaluations[0].samples\n    values: [1, 3]\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sweep.matrix.yaml"), []byte(m), 0o644))
	p := makePlan(t, 2, matrix.Shard{}, plan.Options{NoUserModel: true, JudgeModel: "gpt-4o-mini", AgentModel: "gpt-4o"}, filepath.Join(dir, "sweep.matrix.yaml"))
	assert.EqualValues(t, 6, p.Jobs)
	assert.EqualValues(t, 3*(4*1+1+4)+3*(4*3+1+4), p.Calls.Judge)
	assert.EqualValues(t, 6*(4+1+4), p.Calls.JudgeEvaluations)
}

// TestReportedCostWinsOverThePriceTable: the cost a role's caller reported
// (a coding-agent CLI's own) is that role's cost, over the table's price or
// its lack (the role is then not unpriced); the total is the roles' sum
// when each is known.
func TestReportedCostWinsOverThePriceTable(t *testing.T) {
	t.Parallel()
	prices := plan.Prices{"priced": {Input: 1, Output: 1, AsOf: "2026-01-01"}}
	used := llm.Usage{PromptTokens: 1_000_000, CompletionTokens: 0, TotalTokens: 1_000_000}
	reported := used
	reported.CostUSD = 0.25
	judged := llm.Usage{PromptTokens: 500_000, TotalTokens: 500_000}
	for _, tt := range []struct {
		name        string
		agentUsage  llm.Usage
		agent, user string
		want        *results.Cost
	}{
		{"reported, model unpriced", reported, "fake-model", "",
			&results.Cost{USD: new(0.75), Agent: new(0.25), User: new(0.0), Judge: new(0.5), AsOf: []string{"2026-01-01"}}},
		{"reported, model priced", reported, "priced", "",
			&results.Cost{USD: new(0.75), Agent: new(0.25), User: new(0.0), Judge: new(0.5), AsOf: []string{"2026-01-01"}}},
		{"nothing reported: the table's", used, "priced", "",
			&results.Cost{USD: new(1.5), Agent: new(1.0), User: new(0.0), Judge: new(0.5), AsOf: []string{"2026-01-01"}}},
		{"nothing reported, unpriced", used, "fake-model", "",
			&results.Cost{Agent: nil, User: new(0.0), Judge: new(0.5), Unpriced: []string{"agent: fake-model"}, AsOf: []string{"2026-01-01"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			j := &results.Job{Usage: tt.agentUsage, JudgeUsage: judged}
			assert.Equal(t, tt.want, prices.JobCost(j, tt.agent, tt.user, "priced"))
		})
	}
}

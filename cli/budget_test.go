package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/plan"
	"github.com/agenteval/agenteval/report"
	"github.com/agenteval/agenteval/results"
)

// usageAgentScript is an exec agent that echoes each message and reports
// 100 tokens (60 prompt, 40 completion) for it.
const usageAgentScript = `#!/bin/sh
while IFS= read -r line; do
  case "$line" in
    *'"type":"message"'*)
      printf '{"type":"reply","text":"topic-1","usage":{"prompt_tokens":60,"completion_tokens":40,"total_tokens":100}}\n'
      ;;
  esac
done
`

// writeUsageAgent writes the agent and a one-step scenario into dir.
func writeUsageAgent(t *testing.T, dir string) (agent, scen string) {
	t.Helper()
	agent = filepath.Join(dir, "agent.sh")
	require.NoError(t, os.WriteFile(agent, []byte(usageAgentScript), 0o755))
	scen = filepath.Join(dir, "ask.scenario.yaml")
	require.NoError(t, os.WriteFile(scen, []byte(`name: ask
description: one question; the agent reports 100 tokens per reply
environment: {type: local}
run:
  - input: "what is topic-1?"
    evaluations:
      - {type: string_contains, value: topic-}
judgment: {strategy: all_pass}
`), 0o644))
	return agent, scen
}

// TestBudgetStopsThenResumeFinishes is issue 18's "done when": a token
// budget that covers half the jobs stops the run there, the results and
// the report say so, and --resume without the budget finishes the rest
// with nothing repeated.
func TestBudgetStopsThenResumeFinishes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	agent, scen := writeUsageAgent(t, dir)
	out := filepath.Join(dir, "out")
	results := filepath.Join(out, "results.jsonl")
	// One job at a time, so the job that reaches the budget is the last to start.
	args := []string{"run", "--agent", "exec:" + agent, "--concurrency", "1", "--runs", "10", "--out", out}

	code, _, stderr := runCLI(t, append(args, "--budget", "tokens=500", scen)...)
	require.Equal(t, exitFail, code, "a run stopped at its budget is not finished: %s", stderr)
	assert.Contains(t, stderr, "5 job(s): 5 passed")
	assert.Contains(t, stderr, "stopped at its budget (tokens reached; used tokens 500 of 500); 5 job(s) not started")

	_, jobs := readLines(t, results)
	first := jobIDs(jobs)
	assert.Len(t, first, 5)
	var budget struct {
		Record    string   `json:"record"`
		Stopped   bool     `json:"stopped"`
		Unstarted int64    `json:"unstarted"`
		Reached   []string `json:"reached"`
		Limit     struct {
			Tokens int64 `json:"tokens"`
		} `json:"limit"`
		Used struct {
			Tokens int64 `json:"tokens"`
		} `json:"used"`
	}
	data, err := os.ReadFile(results)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &budget))
	assert.Equal(t, "budget", budget.Record)
	assert.True(t, budget.Stopped)
	assert.EqualValues(t, 5, budget.Unstarted)
	assert.Equal(t, []string{"tokens"}, budget.Reached)
	assert.EqualValues(t, 500, budget.Limit.Tokens)
	assert.EqualValues(t, 500, budget.Used.Tokens)

	code, md, stderr := runCLI(t, "report", results)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, md, "The run stopped at its budget (tokens reached) with 5 job(s) not started")
	// The plan's estimate (10 jobs, one agent call of an assumed 1000+300
	// tokens each) beside the limit and the use; the exec agent's model is
	// not named, so its cost is unknown.
	assert.Contains(t, md, "| 1 (stopped at its budget) | tokens | 500 | 13000 | 500 |")
	assert.Contains(t, md, "| | cost | none | unknown | unknown |", "no price: the cost is unknown, never $0")
	code, html, stderr := runCLI(t, "report", "--format", "html", results)
	require.Equal(t, exitOK, code, stderr)
	assert.Regexp(t, `<div class="warn budget">Run \S+ stopped at its budget \(tokens reached\): tokens 500 of 500 \(estimate 13000\), time \S+ \(estimate 50m0s\); 5 job\(s\) not started</div>`, html)
	code, js, stderr := runCLI(t, "report", "--format", "json", results)
	require.Equal(t, exitOK, code, stderr)
	var sum report.Summary
	require.NoError(t, json.Unmarshal([]byte(js), &sum))
	require.Len(t, sum.Budgets, 1)
	assert.True(t, sum.Budgets[0].Stopped)
	assert.EqualValues(t, 5, sum.MissingJobs)

	code, _, stderr = runCLI(t, append(args, "--resume", scen)...)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "5 job(s): 5 passed, 0 failed, 0 incomplete, 5 skipped")
	_, jobs = readLines(t, results)
	all := jobIDs(jobs)
	assert.Len(t, all, 10)
	assert.Equal(t, 10, countJobs(t, results), "nothing repeated")
	for id := range first {
		assert.True(t, all[id])
	}
	code, md, stderr = runCLI(t, "report", "--fail-missing", results)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, md, "| Jobs recorded | 10 of 10 |")
	assert.Contains(t, md, "a later invocation (--resume) recorded the jobs it left")
	assert.NotContains(t, md, "with 5 job(s) not started")
}

func jobIDs(jobs []resultLine) map[string]bool {
	ids := map[string]bool{}
	for _, j := range jobs {
		if j.Record == "job" {
			ids[j.ID] = true
		}
	}
	return ids
}

func TestBudgetFlagErrors(t *testing.T) {
	t.Parallel()
	scen := "testdata/run/echo.scenario.yaml"
	for _, tc := range []struct{ args, want string }{
		{"--budget=tokens=0", "--budget tokens=0: want a whole number of tokens of at least 1"},
		{"--budget=tokes=5", `unknown limit "tokes" (did you mean tokens?)`},
		{"--budget=cost=5usd", "--budget cost=5usd: the agent's model is not known, so its tokens cannot be priced: name it with --agent-model NAME"},
		{"--budget=cost=5usd --agent-model mystery-1", `no price for model "mystery-1": give its price in a --prices file`},
		{"--budget=time=soon", "--budget time=soon: want a duration such as 30m"},
		{"--budget=tokens=5,tokens=6", "--budget: tokens is given twice"},
		{"--budget=", ""},                        // an empty flag value is no budget
		{"--budget=tokens=1M,time=1h", "within"}, // the echo agent reports no tokens
	} {
		t.Run(tc.args, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"run", "--out", t.TempDir()}, strings.Fields(tc.args)...)
			code, _, stderr := runCLI(t, append(args, scen)...)
			if tc.want == "" || tc.want == "within" {
				assert.Equal(t, exitOK, code, stderr)
				if tc.want == "within" {
					assert.Contains(t, stderr, "agenteval run: within its budget: used tokens 0 of 1000000, time ")
				}
				return
			}
			assert.Equal(t, exitUsage, code)
			assert.Contains(t, stderr, tc.want)
		})
	}
}

func TestBudgetCostWithPricesFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	agent, scen := writeUsageAgent(t, dir)
	prices := filepath.Join(dir, "prices.yaml")
	// 60 prompt tokens at $1000/M and 40 completion at $2500/M: $0.16 a job.
	require.NoError(t, os.WriteFile(prices, []byte("as_of: \"2026-11-24\"\nmodels:\n  house-model: {input_per_mtok: 1000, output_per_mtok: 2500}\n"), 0o644))
	out := filepath.Join(dir, "out")
	code, _, stderr := runCLI(t, "run", "--agent", "exec:"+agent, "--agent-model", "house-model", "--prices", prices, "--concurrency", "1",
		"--runs", "10", "--out", out, "--budget", "cost=0.5usd,time=1h", scen)
	require.Equal(t, exitFail, code, stderr)
	assert.Contains(t, stderr, "4 job(s)")
	assert.Contains(t, stderr, "stopped at its budget (cost reached; used cost $0.6400 of $0.5, time ") // no token limit: tokens not listed
	assert.Contains(t, stderr, "6 job(s) not started")
}

func TestParseBudget(t *testing.T) {
	t.Parallel()
	b, err := parseBudget("tokens=200k, cost=$5, time=30m")
	require.NoError(t, err)
	assert.EqualValues(t, 200_000, b.Tokens)
	assert.InDelta(t, 5.0, b.CostUSD, 1e-12)
	assert.Equal(t, "30m0s", b.Time.String())
	b, err = parseBudget("TOKENS=1.5M,cost=0.50USD")
	require.NoError(t, err)
	assert.EqualValues(t, 1_500_000, b.Tokens)
	assert.InDelta(t, 0.5, b.CostUSD, 1e-12)
	for _, bad := range []string{"tokens", "tokens=", "=5", "tokens=1.5", "tokens=-1", "tokens=NaN", "cost=0", "cost=-1usd", "cost=inf", "time=0s", "time=-1m", ",", "tokens=1,,"} {
		_, err := parseBudget(bad)
		assert.Error(t, err, bad)
	}
}

// FuzzParseBudget: --budget never panics, and what it accepts is a budget
// with at least one limit, each above zero.
func FuzzParseBudget(f *testing.F) {
	for _, s := range []string{"tokens=200000", "tokens=200k,cost=5usd,time=30m", "cost=$0.5", "time=1h30m", "tokens=1.5M", "tokes=5", "tokens=5,tokens=6", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := parseBudget(s)
		if err != nil {
			assert.Contains(t, err.Error(), "--budget")
			return
		}
		assert.True(t, b.Tokens > 0 || b.CostUSD > 0 || b.Time > 0, "an accepted budget limits something: %q", s)
		assert.GreaterOrEqual(t, b.Tokens, int64(0))
		assert.GreaterOrEqual(t, b.CostUSD, 0.0)
		assert.GreaterOrEqual(t, int64(b.Time), int64(0))
	})
}

// TestBudgetCostInASuite prices each job of a suite by its own agent ×
// model, and refuses a cost limit when one of them has no price.
func TestBudgetCostInASuite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	agent, scen := writeUsageAgent(t, dir)
	write := func(name, models string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(`name: s
agents:
  - {name: bot, agent: "exec:`+agent+`"}
  - {name: base, agent: echo}
models: [`+models+`]
scenarios: {paths: [`+filepath.Base(scen)+`]}
repetitions: 6
`), 0o644))
		return p
	}
	// gpt-4o-mini: 60 prompt tokens at $0.15/M and 40 completion at $0.60/M,
	// $0.000033 a bot job; echo's jobs cost nothing. 3 bot jobs stay under
	// $0.0001, the 4th reaches it.
	out := filepath.Join(dir, "out")
	code, _, stderr := runCLI(t, "run", "--suite", write("one.suite.yaml", "{id: gpt-4o-mini}"), "--concurrency", "1", "--out", out, "--budget", "cost=0.0001usd")
	require.Equal(t, exitFail, code, stderr)
	assert.Contains(t, stderr, "stopped at its budget (cost reached; used cost $0.0001 of $0.0001); 8 job(s) not started")
	assert.Contains(t, stderr, "4 job(s)")

	code, _, stderr = runCLI(t, "run", "--suite", write("two.suite.yaml", "{id: gpt-4o-mini}, {id: house-model}"), "--out", filepath.Join(dir, "out2"), "--budget", "cost=1usd")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `--budget cost=1usd: no price for model "house-model" (the suite's agent bot × house-model): give its price in a --prices file`)
}

// TestBudgetCountsAReportedCost: a job whose roles are not all priced
// counts the cost its agent reported against --budget cost, before its
// tokens at the agent's price.
func TestBudgetCountsAReportedCost(t *testing.T) {
	t.Parallel()
	price := plan.Price{Input: 1, Output: 1}
	j := &results.Job{Usage: llm.Usage{PromptTokens: 1_000_000, CompletionTokens: 0, TotalTokens: 1_000_000, CostUSD: 0.25}}
	assert.Equal(t, 0.25, budgetCost(j, price))
	j.Usage.CostUSD = 0
	assert.Equal(t, 1.0, budgetCost(j, price))
	j.Cost = &results.Cost{USD: new(0.5)}
	assert.Equal(t, 0.5, budgetCost(j, price), "a known total wins")
}

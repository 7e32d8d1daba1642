package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/plan"
)

func TestPlanText(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, "plan", "--agent", "openai:gpt-4o-mini", "--concurrency", "2", "--runs", "3", "testdata/run/echo.scenario.yaml", "testdata/run/sweep.matrix.yaml")
	require.Equal(t, exitOK, code, stderr)
	for _, want := range []string{
		"15 job(s) at concurrency 2",
		"model calls: agent 15, simulated user 0, judge 0",
		"agent  gpt-4o-mini",
		"0.15/0.6, 2026-03-21 (openai.com/api/pricing)",
		"tokens: 19500 (15000 input, 4500 output)",
		"cost: $0.0050",
		"wall time: at most 37m30s at concurrency 2",
		"basis: 0 job(s) from past results, 15 from limits",
	} {
		assert.Contains(t, out, want)
	}
}

// TestPlanStopsReadingHistoryWhenInterrupted: an interrupted plan stops
// in the middle of its history (a results file of any size) and says so,
// rather than reading on until the signal's grace ends the process.
func TestPlanStopsReadingHistoryWhenInterrupted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, _, stderr := runCLI(t, "run", "--agent", "echo", "--runs", "3", "--out", filepath.Join(dir, "r"), "testdata/run/echo.scenario.yaml")
	require.Equal(t, exitOK, code, stderr)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), getenv: func(string) string { return "" }}
	code = mainWith(ctx, env, []string{"plan", "--agent", "echo", "--history", filepath.Join(dir, "r"), "testdata/run/echo.scenario.yaml"})
	assert.Equal(t, exitFail, code)
	assert.Contains(t, errb.String(), "agenteval plan: --history: ")
	assert.Contains(t, errb.String(), "context canceled")
	assert.Empty(t, out.String(), "no forecast")
}

func TestPlanJSONAndHistory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	agent, scen := writeUsageAgent(t, dir)
	out := filepath.Join(dir, "out")
	code, _, stderr := runCLI(t, "run", "--agent", "exec:"+agent, "--runs", "4", "--out", out, scen)
	require.Equal(t, exitOK, code, stderr)

	// Without history: limits. With it (the folder's results): the 100
	// tokens a job really used, and the job's time.
	code, js, stderr := runCLI(t, "plan", "--format", "json", "--agent", "exec:"+agent, "--agent-model", "gpt-4o", "--runs", "4", scen)
	require.Equal(t, exitOK, code, stderr)
	var p plan.Plan
	require.NoError(t, json.Unmarshal([]byte(js), &p))
	assert.Equal(t, 1, p.Version, "the plan's shape version")
	assert.EqualValues(t, 4, p.Jobs)
	assert.EqualValues(t, 4*1300, p.Tokens.Total)
	assert.EqualValues(t, 4, p.Basis.LimitJobs)

	code, js, stderr = runCLI(t, "plan", "--format", "json", "--agent", "exec:"+agent, "--agent-model", "gpt-4o", "--runs", "4", "--history", dir, scen)
	require.Equal(t, exitOK, code, stderr)
	p = plan.Plan{}
	require.NoError(t, json.Unmarshal([]byte(js), &p))
	assert.EqualValues(t, 4, p.Basis.HistoryJobs)
	assert.EqualValues(t, 4*100, p.Tokens.Total)
	require.NotNil(t, p.CostUSD)
	assert.InDelta(t, 4*(60*2.5+40*10.0)/1e6, *p.CostUSD, 1e-12)
	assert.Less(t, p.LongestJobMS, 60_000.0, "a job's observed time, not its 5-minute limit")
}

func TestPlanUsage(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, "schema", "plan")
	require.Equal(t, exitOK, code, stderr)
	assert.JSONEq(t, string(plan.Schema()), out)
	code, _, stderr = runCLI(t, "schema", "plna")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `did you mean "plan"?`)
	code, out, _ = runCLI(t, "plan", "-h")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "usage: agenteval plan")
	assert.Contains(t, out, "-history")
	bad := filepath.Join(t.TempDir(), "prices.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("models:\n  m: {input_per_mtok: -1, output_per_mtok: 1}\n"), 0o644))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"plan"}, "usage: agenteval plan"},
		{[]string{"plan", "--format", "yaml", "testdata/run/echo.scenario.yaml"}, "--format"},
		{[]string{"plan", "--shard", "4/3", "testdata/run/echo.scenario.yaml"}, "shard"},
		{[]string{"plan", "--history", "testdata/run/echo.scenario.yaml", "testdata/run/echo.scenario.yaml"}, "--history: testdata/run/echo.scenario.yaml holds no results record"},
		{[]string{"plan", "--history", "nope.jsonl", "testdata/run/echo.scenario.yaml"}, "--history: open nope.jsonl"},
		{[]string{"plan", "--prices", bad, "testdata/run/echo.scenario.yaml"}, "prices.yaml:2:23: models.m.input_per_mtok: want a price of zero or more US dollars per million tokens"},
		{[]string{"plan", "testdata/run-bad/bad.scenario.yaml"}, "nothing forecast"},
		{[]string{"plan", "--concurrency", "0", "testdata/run/echo.scenario.yaml"}, "--concurrency 0"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		assert.Equal(t, exitUsage, code, tc.args)
		assert.Contains(t, stderr, tc.want, tc.args)
	}
}

// TestPlanSuite forecasts a suite as run --suite runs it: every agent ×
// model × scenario × repetition, each agent priced by its own model (echo
// by none), the suite's step timeout applied, its warm-up said.
func TestPlanSuite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, scen := writeUsageAgent(t, dir)
	suite := filepath.Join(dir, "cmp.suite.yaml")
	require.NoError(t, os.WriteFile(suite, []byte(`name: cmp
agents:
  - {name: base, agent: echo}
  - {name: model, agent: openai}
models:
  - {id: gpt-4o-mini}
  - {id: gpt-4o}
scenarios:
  paths: [`+filepath.Base(scen)+`]
repetitions: 2
warmup: true
timeouts: {step: 30s}
`), 0o644))
	code, js, stderr := runCLI(t, "plan", "--format", "json", "--suite", suite)
	require.Equal(t, exitOK, code, stderr)
	var p plan.Plan
	require.NoError(t, json.Unmarshal([]byte(js), &p))
	assert.EqualValues(t, 2*2*2, p.Jobs, "2 agents × 2 models × 2 repetitions")
	var got []string
	for _, r := range p.Roles {
		got = append(got, r.Role+" "+r.Agent+" "+r.Model)
	}
	assert.Equal(t, []string{"agent base ", "agent model gpt-4o-mini", "agent model gpt-4o", "user  ", "judge  "}, got)
	require.NotNil(t, p.CostUSD, "every agent's model has a price: %v", p.CostUnknown)
	assert.Zero(t, p.Roles[0].InputTokens, "echo makes no model calls")
	assert.InDelta(t, 30_000, p.LongestJobMS, 1e-9, "the suite's step timeout")
	assert.Contains(t, p.Notes, "the suite's warm-up (one uncounted session for each of its 4 agent x model) is not counted")

	code, _, stderr = runCLI(t, "plan", "--suite", suite, scen)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--suite names the scenarios")
}

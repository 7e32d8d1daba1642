package report

import (
	"bufio"
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/stats"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
)

// suiteResults builds a suite's results: agents a (passes 9 of 10 runs per
// scenario) and b (passes 2 of 10) on models m1 and m2, two scenarios; b
// spends half the tokens and tool calls of a, and 40 of its tokens a job are
// read from the provider's cache (active tokens leave them out).
func suiteResults(t *testing.T) *Results {
	t.Helper()
	lines := []string{planLine(t, results.Plan{RunID: "r", TotalJobs: 80, Agent: "suite:s"})}
	var index int64
	for _, agent := range []string{"a", "b"} {
		for _, model := range []string{"m1", "m2"} {
			for _, sc := range []string{"s1", "s2"} {
				for run := 1; run <= 10; run++ {
					j := simpleJob(sc, run, index, "fail")
					index++
					j.ID = fmt.Sprintf("%s@%s/%s", agent, model, j.ID)
					j.Agent, j.Model = agent, model
					tokens, tools := 100+run, 4
					if agent == "b" {
						tokens, tools = 50+run, 2
					}
					if (agent == "a" && run <= 9) || (agent == "b" && run <= 2) {
						applyOutcome(&j, "pass")
					}
					j.Usage = llm.Usage{PromptTokens: tokens - 5, CompletionTokens: 5, TotalTokens: tokens}
					if agent == "b" {
						j.Usage.CacheReadTokens = 40
					}
					j.Efficiency = results.Efficiency{Turns: 1, ToolCalls: results.ToolCalls{Total: tools,
						ByCategory: results.Counts{{Name: "search", N: 1}, {Name: "bash", N: tools - 1}}}}
					lines = append(lines, jobLine(t, j))
				}
			}
		}
	}
	r, err := Read([]Input{input("results.jsonl", lines...)}, Options{})
	require.NoError(t, err)
	return r
}

func TestSummaryRanksVariantsWithIntervals(t *testing.T) {
	t.Parallel()
	s := suiteResults(t).Summary()
	require.Len(t, s.Variants, 4)
	for i, want := range []struct {
		agent, model string
		rank, passed int
	}{{"a", "m1", 1, 18}, {"a", "m2", 1, 18}, {"b", "m1", 3, 4}, {"b", "m2", 3, 4}} {
		v := s.Variants[i]
		assert.Equal(t, want.agent, v.Agent)
		assert.Equal(t, want.model, v.Model)
		assert.Equal(t, want.rank, v.Rank, "%s × %s", v.Agent, v.Model)
		assert.Equal(t, want.passed, v.Passed)
		assert.Equal(t, 20, v.Runs)
		assert.Equal(t, stats.Wilson(want.passed, 20), v.PassInterval)
	}
	assert.Equal(t, 105.5, s.Variants[0].Median.Tokens)
	assert.Equal(t, 105.5, s.Variants[0].Median.ActiveTokens, "no cache: active is total")
	assert.Equal(t, 55.5, s.Variants[2].Median.Tokens)
	assert.Equal(t, 15.5, s.Variants[2].Median.ActiveTokens, "the cache's 40 left out")
	assert.Equal(t, float64(2), s.Variants[2].Median.ToolCalls)
	assert.Equal(t, "a × m1", s.Scenarios[0].Combinations[0].Label)
	assert.Equal(t, results.Counts{{Name: "bash", N: 60}, {Name: "search", N: 20}}, s.Variants[0].ToolCalls, "ghx's categories first, then the suite's")
	assert.Equal(t, results.Counts{{Name: "bash", N: 20}, {Name: "search", N: 20}}, s.Variants[3].ToolCalls)

	md := render(t, func(b *bytes.Buffer) error { return writeMarkdown(b, s, nil) })
	assert.Contains(t, md, "## Agents\n\n| Rank | Agent | Model | Pass rate [95% CI] |")
	assert.Contains(t, md, "| 3 | b | m2 | 20.0% (4/20) [")
	assert.Contains(t, md, "| bash 20 · search 20 |")

	junit := render(t, func(b *bytes.Buffer) error { return writeJUnit(b, suiteResults(t)) })
	assert.Contains(t, junit, `<testsuite name="s1 (a × m1)"`, "each agent × model its own testsuite")
	assert.Contains(t, junit, `<testsuite name="s1 (b × m2)"`)
	assert.Contains(t, junit, `<property name="suite_agent" value="b"></property>`)
	checkJUnitSchema(t, junit)
	checkConsumerCounts(t, junit, s)

	html := render(t, func(b *bytes.Buffer) error { return writeHTML(b, suiteResults(t), WriteOptions{}) })
	assert.Contains(t, html, `<section id="agents"><h2>Agents</h2>`)
	assert.Contains(t, html, `<tr data-agent="b" data-model="m1" data-rank="3">`)
	assert.Contains(t, html, `<span class="pn">agent</span>=<span class="pv">a</span>`)
	assert.Contains(t, html, `<td data-label="Tool calls by category">bash 60 · search 20</td>`)
}

func TestCompareByAgentAndModel(t *testing.T) {
	t.Parallel()
	r := suiteResults(t)
	assert.Equal(t, []string{"a", "b"}, r.VariantNames(byAgent))
	assert.Equal(t, []string{"m1", "m2"}, r.VariantNames(byModel))

	c, err := r.CompareBy(byAgent, "a", "b", CompareOptions{})
	require.NoError(t, err)
	assert.Len(t, c.Rows, 4, "scenario × model, matched across the agents")
	assert.Empty(t, c.OnlyBaseline)
	assert.True(t, c.Overall.Regression)
	assert.True(t, c.Failed)
	assert.Equal(t, 36, c.Baseline.Passed)
	assert.Equal(t, 8, c.Candidate.Passed)
	metrics := map[string]EfficiencyRow{}
	for _, e := range c.Efficiency {
		metrics[e.Metric] = e
	}
	tok := metrics["total_tokens"]
	assert.Equal(t, 105.5, tok.BaselineMedian)
	assert.Equal(t, 55.5, tok.CandidateMedian)
	assert.InDelta(t, (1-55.5/105.5)*100, tok.ReductionPct, 1e-9, "ghx's reduction of the medians")
	assert.True(t, tok.Significant)
	assert.Greater(t, tok.CI95[0], 0.0)
	active := metrics["active_tokens"]
	assert.Equal(t, 105.5, active.BaselineMedian)
	assert.Equal(t, 15.5, active.CandidateMedian)
	assert.InDelta(t, (1-15.5/105.5)*100, active.ReductionPct, 1e-9, "ghx compares active tokens: the cache does not count")
	assert.Equal(t, "active_tokens", c.Efficiency[1].Metric, "active tokens come first of the tokens")
	assert.Equal(t, float64(50), metrics["tool_calls"].ReductionPct)
	_, hasTurns := metrics["turns"]
	assert.True(t, hasTurns)

	again, err := r.CompareBy(byAgent, "a", "b", CompareOptions{})
	require.NoError(t, err)
	assert.Equal(t, c.Efficiency, again.Efficiency, "seeded: the same intervals every time")

	c, err = r.CompareBy(byModel, "m1", "m2", CompareOptions{})
	require.NoError(t, err)
	assert.False(t, c.Failed, "the models do not differ")
	assert.Len(t, c.Rows, 4)

	md := render(t, func(b *bytes.Buffer) error { return writeComparisonMarkdown(b, c) })
	assert.Contains(t, md, "By model: baseline `m1`, candidate `m2`.")
	agentCmp, err := r.CompareBy(byAgent, "a", "b", CompareOptions{})
	require.NoError(t, err)
	html := render(t, func(b *bytes.Buffer) error { return writeComparisonHTML(b, agentCmp) })
	assert.Contains(t, html, "<style>")
	assert.Contains(t, html, `<section id="verdict" data-failed="true">`)
	assert.Contains(t, html, `<tr data-metric="active_tokens" data-significant="true">`)
	assert.Contains(t, html, `<div class="meta">By agent: baseline <code>a</code>, candidate <code>b</code>`)
	assert.Contains(t, html, "Regression overall")
	assert.Contains(t, md, "| total tokens | 80.5 | 80.5 | 0.0% [")

	for _, tc := range []struct{ by, a, b, want string }{
		{"agents", "a", "b", `by "agents"; want agent or model`},
		{byAgent, "a", "c", `no agent "c" in the results; they hold a, b`},
		{byAgent, "a", "a", `baseline and candidate are both agent "a"`},
	} {
		_, err := r.CompareBy(tc.by, tc.a, tc.b, CompareOptions{})
		assert.ErrorContains(t, err, tc.want)
	}
	plain, err := Read([]Input{input("r.jsonl", jobLine(t, simpleJob("s", 1, 0, "pass")))}, Options{})
	require.NoError(t, err)
	_, err = plain.CompareBy(byAgent, "a", "b", CompareOptions{})
	assert.ErrorContains(t, err, "the results hold no suite's agents")
}

// TestVariantWithoutACompletedJobIsNotRanked: a variant none of whose jobs
// completed was not measured: it shows "—" for its rank and medians, not
// "0 ms", and is not ranked among the others (issue 25 point 8).
func TestVariantWithoutACompletedJobIsNotRanked(t *testing.T) {
	t.Parallel()
	lines := []string{planLine(t, results.Plan{RunID: "r", TotalJobs: 6, Agent: "suite:s"})}
	var index int64
	for _, agent := range []string{"down", "ok"} {
		for run := 1; run <= 3; run++ {
			outcome := "fail"
			if agent == "down" {
				outcome = "error"
			}
			j := simpleJob("s1", run, index, outcome)
			index++
			j.ID, j.Agent = agent+"/"+j.ID, agent
			lines = append(lines, jobLine(t, j))
		}
	}
	r, err := Read([]Input{input("x", lines...)}, Options{})
	require.NoError(t, err)
	s := r.Summary()
	require.Len(t, s.Variants, 2)
	assert.Equal(t, 0, s.Variants[0].Rank, "down: nothing completed")
	assert.Zero(t, s.Variants[0].Median.DurationMS)
	assert.Equal(t, 1, s.Variants[1].Rank, "ok is first, though it passed nothing either")
	md := render(t, func(b *bytes.Buffer) error { return writeMarkdown(b, s, nil) })
	assert.Contains(t, md, "| — | down | - | 0.0% (0/3) [0.0%, 56.1%] | 0/3 | — | — | — | — | — |")
	assert.Contains(t, md, "| 1 | ok | - |")
	page := render(t, func(b *bytes.Buffer) error { return writeHTML(b, r, WriteOptions{}) })
	assert.Contains(t, page, `<td class="n" data-label="Rank">—</td><td data-label="Agent">down</td>`)
}

// TestEfficiencySaysWhyNotSignificant: a permutation p under α with an
// interval that includes 0 is not significant, and the table says why.
func TestEfficiencySaysWhyNotSignificant(t *testing.T) {
	t.Parallel()
	e := EfficiencyRow{Metric: "duration_ms", GroupComparison: stats.GroupComparison{PValue: 0.014, CI95: [2]float64{-3, 20}}}
	assert.Equal(t, "not significant: the 95% interval includes 0", significanceText(e, 0.05))
	c := &Comparison{Alpha: 0.05, Efficiency: []EfficiencyRow{e}}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	writeMarkdownEfficiency(w, c)
	require.NoError(t, w.Flush())
	assert.Contains(t, b.String(), "| 0.0140 | not significant: the 95% interval includes 0 |")
	e.PValue = 0.2
	assert.Empty(t, significanceText(e, 0.05))
	e.Significant = true
	assert.Equal(t, "significant", significanceText(e, 0.05))
}

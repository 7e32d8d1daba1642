package report

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/results"
)

func usd(v float64) *float64 { return &v }

// pricedSuite is a suite of agents a and b, 20 jobs each, whose every job
// costs perJob[agent] (agent part, plus a simulated user's $0.0001); a
// job of b costs unknown when unknownB.
func pricedSuite(t *testing.T, unknownB bool) *Results {
	t.Helper()
	perJob := map[string]float64{"a": 0.0021, "b": 0.0011}
	lines := []string{planLine(t, results.Plan{RunID: "r", TotalJobs: 40, Agent: "suite:s"})}
	var index int64
	for _, agent := range []string{"a", "b"} {
		for run := 1; run <= 20; run++ {
			j := simpleJob("s1", run, index, "pass")
			index++
			j.ID = fmt.Sprintf("%s/%s", agent, j.ID)
			j.Agent = agent
			j.Cost = &results.Cost{USD: usd(perJob[agent]), Agent: usd(perJob[agent] - 0.0001), User: usd(0.0001), Judge: usd(0), AsOf: []string{"2026-03-21"}}
			if unknownB && agent == "b" && run == 7 {
				j.Cost.USD, j.Cost.Judge, j.Cost.Unpriced = nil, nil, []string{"judge: judge-x"}
			}
			lines = append(lines, jobLine(t, j))
		}
	}
	r, err := Read([]Input{input("results.jsonl", lines...)}, Options{})
	require.NoError(t, err)
	return r
}

func TestCostIsTotalledRankedAndCompared(t *testing.T) {
	t.Parallel()
	r := pricedSuite(t, false)
	s := r.Summary()
	require.NotNil(t, s.Cost)
	require.NotNil(t, s.Cost.USD)
	assert.Equal(t, 0.064, *s.Cost.USD, "20 × $0.0021 + 20 × $0.0011, summed without floating-point noise")
	assert.Equal(t, 0.06, *s.Cost.Agent)
	assert.Equal(t, 0.004, *s.Cost.User)
	assert.Equal(t, 0.0, *s.Cost.Judge)
	assert.Equal(t, []string{"2026-03-21"}, s.Cost.AsOf)
	require.Len(t, s.Variants, 2)
	require.NotNil(t, s.Variants[0].Median.CostUSD)
	assert.Equal(t, 0.0021, *s.Variants[0].Median.CostUSD)
	assert.Equal(t, 0.0011, *s.Variants[1].Median.CostUSD)

	md := render(t, func(w *bytes.Buffer) error { return writeMarkdown(w, s, nil) })
	assert.Contains(t, md, "| Cost | $0.064 (agent $0.06 · user $0.004 · judge $0); prices as of 2026-03-21 |")
	assert.Contains(t, md, "| Median cost |")
	assert.Contains(t, md, "| $0.0021 |")
	html := render(t, func(w *bytes.Buffer) error { return writeHTML(w, r, WriteOptions{}) })
	assert.Contains(t, html, "Median cost")
	assert.Contains(t, html, "$0.064 (agent $0.06")

	c, err := r.CompareBy(byAgent, "a", "b", CompareOptions{})
	require.NoError(t, err)
	var cost *EfficiencyRow
	for i := range c.Efficiency {
		if c.Efficiency[i].Metric == "cost_usd" {
			cost = &c.Efficiency[i]
		}
	}
	require.NotNil(t, cost, "report compare --by agent has a cost row")
	assert.Equal(t, 0.0021, cost.BaselineMedian)
	assert.Equal(t, 0.0011, cost.CandidateMedian)
	assert.InDelta(t, (1-0.0011/0.0021)*100, cost.ReductionPct, 1e-3)
	cmd := render(t, func(b *bytes.Buffer) error { return writeComparisonMarkdown(b, c) })
	assert.Contains(t, cmd, "| cost (US dollars: agent, user and judge) | $0.0021 | $0.0011 |")
}

func TestAnUnknownCostIsNeverZero(t *testing.T) {
	t.Parallel()
	r := pricedSuite(t, true)
	s := r.Summary()
	require.NotNil(t, s.Cost)
	assert.Nil(t, s.Cost.USD, "one job's unknown cost makes the total unknown")
	assert.Nil(t, s.Cost.Judge)
	require.NotNil(t, s.Cost.Agent)
	assert.Equal(t, 0.06, *s.Cost.Agent, "the known parts are still totalled")
	assert.Equal(t, []string{"judge: judge-x"}, s.Cost.Unpriced)
	assert.NotNil(t, s.Variants[0].Median.CostUSD)
	assert.Nil(t, s.Variants[1].Median.CostUSD, "b's median cost is unknown")
	md := render(t, func(w *bytes.Buffer) error { return writeMarkdown(w, s, nil) })
	assert.Contains(t, md, "| Cost | unknown (agent $0.06 · user $0.004 · judge unknown); no price for judge: judge-x")
	assert.Contains(t, md, "| unknown |")
	c, err := r.CompareBy(byAgent, "a", "b", CompareOptions{})
	require.NoError(t, err)
	for _, e := range c.Efficiency {
		assert.NotEqual(t, "cost_usd", e.Metric, "no comparison of an unknown cost")
	}
}

func TestUSDText(t *testing.T) {
	t.Parallel()
	for v, want := range map[float64]string{0: "$0", 0.007058: "$0.00706", 0.00042: "$0.00042", 0.000038: "$0.000038",
		1.234: "$1.23", 12: "$12.00", 0.1: "$0.1", 1e-12: "$1e-12"} {
		assert.Equal(t, want, usdText(v), "%g", v)
	}
}

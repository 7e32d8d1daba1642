package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/agenteval/agenteval/results"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// outcomeSummary builds a summary from per-combination pass counts of
// `runs` runs each.
func outcomeSummary(t *testing.T, runs int, passes map[string]int) *Summary {
	t.Helper()
	var names []string
	var counts []int
	for _, comb := range []string{"c1", "c2", "c3", "c4"} {
		if p, ok := passes[comb]; ok {
			names = append(names, comb)
			counts = append(counts, p)
		}
	}
	return combinationsSummary(t, runs, names, counts)
}

// passesSummary builds a summary of one scenario whose combinations c01,
// c02, … have `runs` runs each, passes[i] of them passing in the i-th.
func passesSummary(t *testing.T, runs int, passes []int) *Summary {
	t.Helper()
	names := make([]string, len(passes))
	for i := range passes {
		names[i] = fmt.Sprintf("c%02d", i+1)
	}
	return combinationsSummary(t, runs, names, passes)
}

// combinationsSummary builds a summary of scenario s whose combination
// names[i] (parameter model=names[i]) has `runs` runs, the first passes[i]
// of them passing.
func combinationsSummary(t *testing.T, runs int, names []string, passes []int) *Summary {
	t.Helper()
	lines := []string{planLine(t, results.Plan{RunID: "r", TotalJobs: int64(runs * len(names))})}
	idx := int64(0)
	for i, comb := range names {
		for run := 1; run <= runs; run++ {
			outcome := "fail"
			if run <= passes[i] {
				outcome = "pass"
			}
			j := results.Job{ID: fmt.Sprintf("s/%s/run-%d", comb, run), Index: idx, Scenario: "s", Combination: comb,
				Params: map[string]any{"model": comb}, Run: run, Attempts: 1}
			applyOutcome(&j, outcome)
			lines = append(lines, jobLine(t, j))
			idx++
		}
	}
	r, err := Read([]Input{input("x", lines...)}, Options{})
	require.NoError(t, err)
	return r.Summary()
}

func TestCompare(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		base, cand  map[string]int
		opts        CompareOptions
		regressions int
		failed      bool
	}{
		{"no change", map[string]int{"c1": 8, "c2": 5}, map[string]int{"c1": 8, "c2": 5}, CompareOptions{}, 0, false},
		// 10/10 → 5/10: p = 3003/184756 ≈ 0.016 < 0.05.
		{"significant drop", map[string]int{"c1": 10}, map[string]int{"c1": 5}, CompareOptions{}, 1, true},
		// 3/4 → 1/4 scaled to 10 runs: 8/10 → 6/10 is not significant.
		{"small drop is noise", map[string]int{"c1": 8}, map[string]int{"c1": 6}, CompareOptions{}, 0, false},
		{"improvement never fails", map[string]int{"c1": 2}, map[string]int{"c1": 10}, CompareOptions{}, 0, false},
		// With four combinations Holm multiplies the smallest p by 4: 0.065 > 0.05.
		{"holm keeps a lone drop among many", map[string]int{"c1": 10, "c2": 5, "c3": 5, "c4": 5}, map[string]int{"c1": 5, "c2": 5, "c3": 5, "c4": 5}, CompareOptions{}, 0, false},
		{"uncorrected flags it", map[string]int{"c1": 10, "c2": 5, "c3": 5, "c4": 5}, map[string]int{"c1": 5, "c2": 5, "c3": 5, "c4": 5}, CompareOptions{Correction: correctionNone}, 1, true},
		{"below minimum pass rate", map[string]int{"c1": 5}, map[string]int{"c1": 5}, CompareOptions{MinPassRate: 0.6}, 0, true},
		{"at minimum pass rate", map[string]int{"c1": 6}, map[string]int{"c1": 6}, CompareOptions{MinPassRate: 0.6}, 0, false},
		{"strict alpha", map[string]int{"c1": 10}, map[string]int{"c1": 5}, CompareOptions{Alpha: 0.01}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := Compare(outcomeSummary(t, 10, tt.base), outcomeSummary(t, 10, tt.cand), tt.opts)
			require.NoError(t, err)
			assert.Equal(t, tt.regressions, c.Regressions)
			assert.Equal(t, tt.failed, c.Failed)
			md := render(t, func(b *bytes.Buffer) error { return writeComparisonMarkdown(b, c) })
			assert.Contains(t, md, "# agenteval comparison")
		})
	}
}

func TestCompareDetails(t *testing.T) {
	t.Parallel()
	c, err := Compare(outcomeSummary(t, 10, map[string]int{"c1": 10, "c2": 4}), outcomeSummary(t, 10, map[string]int{"c1": 5, "c3": 4}), CompareOptions{})
	require.NoError(t, err)
	require.Len(t, c.Rows, 1)
	row := c.Rows[0]
	assert.Equal(t, "s/c1", row.Key)
	assert.InDelta(t, -0.5, row.Delta, 1e-12)
	assert.InDelta(t, 3003.0/184756, row.PValue, 1e-12)
	assert.Equal(t, row.PValue, row.AdjustedP, "one comparison needs no correction")
	assert.Equal(t, []string{"s/c2"}, c.OnlyBaseline)
	assert.Equal(t, []string{"s/c3"}, c.OnlyCandidate)
	assert.Equal(t, 10, c.Baseline.Runs)
	assert.Equal(t, 20, c.CandidateAll.Runs)
	md := render(t, func(b *bytes.Buffer) error { return writeComparisonMarkdown(b, c) })
	assert.Contains(t, md, "**Regression:** 1 combination(s)")
	assert.Contains(t, md, "| s | model=c1 | 100.0% (10/10) | 50.0% (5/10) | -50.0 pp | 0.0163 | 0.0163 | ≥ 40.0 pp | ❌ |")
	assert.Contains(t, md, "Only in baseline: 1")
	assert.True(t, c.Incomplete, "the candidate lacks s/c2")
	assert.Contains(t, md, "**The candidate does not cover the baseline:** 1 combination(s) of the baseline did not run")
	assert.Contains(t, md, "Power: at these sample sizes the overall test would flag a drop of 40.0 pp or more in the pass rate, and a combination's test needs a drop of at least 40.0 pp (α = 0.05).")
	require.NotNil(t, row.MinDetectableDrop)
	assert.InDelta(t, 0.4, *row.MinDetectableDrop, 1e-12, "10/10 → 6/10 is the largest count flagged (p = 0.0433); 7/10 has p = 0.105")
	require.NotNil(t, c.Overall.MinDetectableDrop)
	assert.InDelta(t, 0.4, *c.Overall.MinDetectableDrop, 1e-12, "one combination: the overall power is the row's")
}

// TestCompareRefusesToBeBlind: no combination in common is an error
// whatever the options; a candidate missing baseline combinations, jobs of
// its run or shards fails unless AllowMissing, and the comparison names them.
func TestCompareRefusesToBeBlind(t *testing.T) {
	t.Parallel()
	base := outcomeSummary(t, 20, map[string]int{"c1": 20})
	other := outcomeSummary(t, 20, map[string]int{"c2": 0})
	for _, allow := range []bool{false, true} {
		c, err := Compare(base, other, CompareOptions{AllowMissing: allow})
		require.NoError(t, err)
		assert.True(t, c.NothingMatched)
		assert.True(t, c.Failed)
		md := render(t, func(b *bytes.Buffer) error { return writeComparisonMarkdown(b, c) })
		assert.Contains(t, md, "**Nothing compared:**")
		assert.NotContains(t, md, "No significant regression")
		page := render(t, func(b *bytes.Buffer) error { return writeComparisonHTML(b, c) })
		assert.Contains(t, page, "Nothing compared")
	}
	cand := outcomeSummary(t, 20, map[string]int{"c1": 20})
	cand.Shards, cand.TotalJobs, cand.MissingJobs, cand.Missing = []string{"1/3", "2/3"}, 30, 10, []IndexRange{{From: 2, To: 29}}
	c, err := Compare(base, cand, CompareOptions{})
	require.NoError(t, err)
	assert.True(t, c.Failed)
	assert.True(t, c.Incomplete)
	assert.Equal(t, []string{"3/3"}, c.MissingShards)
	assert.Equal(t, int64(10), c.CandidateMissingJobs)
	md := render(t, func(b *bytes.Buffer) error { return writeComparisonMarkdown(b, c) })
	assert.Contains(t, md, "shard(s) 3/3 have no results; 10 job(s) of its run never ran (indexes 2-29)")
	c, err = Compare(base, cand, CompareOptions{AllowMissing: true})
	require.NoError(t, err)
	assert.False(t, c.Failed)
	assert.False(t, c.Incomplete)
	md = render(t, func(b *bytes.Buffer) error { return writeComparisonMarkdown(b, c) })
	assert.Contains(t, md, "Accepted as missing (`--allow-missing`): shard(s) 3/3 have no results")
}

func TestCompareRejectsBadOptions(t *testing.T) {
	t.Parallel()
	s := outcomeSummary(t, 2, map[string]int{"c1": 1})
	for _, o := range []CompareOptions{{Alpha: 1.5}, {Alpha: -0.1}, {Alpha: math.NaN()}, {MinPassRate: 2}, {MinPassRate: math.NaN()}, {Correction: "bonf"}} {
		_, err := Compare(s, s, o)
		assert.Error(t, err, "%+v", o)
	}
}

func repeatInt(n, v int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// TestCompareOverall: the per-combination tests and the overall stratified
// test each catch what the other cannot. The expected p-values were computed
// independently: exact rational arithmetic in Python
// (internal/stats/testdata/stratified_reference.py) and R's
// mantelhaen.test(exact = TRUE) and fisher.test agree on every one; the
// per-combination p's are one-sided Fisher p's from math.comb:
// 5/5 → 0/5 is 1/C(10,5) = 1/252, 10/10 → 0/10 is 1/C(20,10) = 1/184756.
func TestCompareOverall(t *testing.T) {
	t.Parallel()
	// 62 of 120 → 0 of 120 over 24 combinations of 5 runs.
	collapse := []int{5, 5, 5, 5, 4, 4, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0}
	tests := []struct {
		name       string
		runs       int
		base, cand []int
		// the smallest adjusted per-combination p
		minAdjusted float64
		regressions int
		overallP    float64
		observed    int
		expected    float64
		strata      int
		overall     bool
	}{
		// Holm lifts 1/252 to 24/252 = 0.095 in every combination; the
		// overall p is 1.5e-25 (the pooled Fisher p is 4.4e-24).
		{"collapse spread over 24 combinations", 5, collapse, repeatInt(24, 0), 24.0 / 252, 0, 1.4643525978335375e-25, 0, 31, 22, true},
		// 7/10 → 4/10 in each of 8: p = 0.185 each (Holm: 1), 0.00016 overall.
		{"a drop in every combination, none significant alone", 10, repeatInt(8, 7), repeatInt(8, 4), 1, 0, 0.00016193994503427628, 32, 44, 8, true},
		// 10/10 → 0/10 in one (Holm: 4/184756), 3/10 → 8/10 in three: the
		// overall test sees a net gain, the per-combination test the collapse.
		{"one collapse among improvements", 10, []int{10, 3, 3, 3}, []int{0, 8, 8, 8}, 4.0 / 184756, 1, 0.9068279611808373, 24, 21.5, 4, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := Compare(passesSummary(t, tt.runs, tt.base), passesSummary(t, tt.runs, tt.cand), CompareOptions{})
			require.NoError(t, err)
			minAdj := 1.0
			for _, r := range c.Rows {
				minAdj = min(minAdj, r.AdjustedP)
			}
			assert.InEpsilon(t, tt.minAdjusted, minAdj, 1e-9)
			assert.Equal(t, tt.regressions, c.Regressions)
			assert.Equal(t, "exact", c.Overall.Method)
			assert.InEpsilon(t, tt.overallP, c.Overall.PValue, 1e-12)
			assert.Equal(t, tt.observed, c.Overall.Observed)
			assert.InEpsilon(t, tt.expected, c.Overall.Expected, 1e-12)
			assert.Equal(t, tt.strata, c.Overall.Combinations)
			assert.Equal(t, tt.overall, c.Overall.Regression)
			assert.True(t, c.Failed, "either test alone fails the gate")

			md := render(t, func(b *bytes.Buffer) error { return writeComparisonMarkdown(b, c) })
			assert.NotContains(t, md, "No significant regression")
			if tt.overall {
				assert.Contains(t, md, "**Regression overall:** the candidate passes significantly less often across the matched combinations (one-sided exact conditional test stratified by combination, p = ")
			} else {
				assert.NotContains(t, md, "**Regression overall:**")
			}
			if tt.regressions > 0 {
				assert.Contains(t, md, fmt.Sprintf("**Regression:** %d combination(s)", tt.regressions))
			} else {
				assert.NotContains(t, md, "**Regression:**")
			}

			var decoded struct {
				Failed  bool `json:"failed"`
				Overall struct {
					Method     string  `json:"method"`
					PValue     float64 `json:"p_value"`
					Observed   int     `json:"observed"`
					Regression bool    `json:"regression"`
				} `json:"overall"`
			}
			raw, err := json.Marshal(c)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &decoded))
			assert.True(t, decoded.Failed)
			assert.Equal(t, tt.overall, decoded.Overall.Regression)
			assert.Equal(t, c.Overall.PValue, decoded.Overall.PValue)
		})
	}
}

func TestCompareOverallMarkdown(t *testing.T) {
	t.Parallel()
	collapse := []int{5, 5, 5, 5, 4, 4, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0}
	c, err := Compare(passesSummary(t, 5, collapse), passesSummary(t, 5, repeatInt(24, 0)), CompareOptions{})
	require.NoError(t, err)
	md := render(t, func(b *bytes.Buffer) error { return writeComparisonMarkdown(b, c) })
	assert.Contains(t, md, "**Regression overall:** the candidate passes significantly less often across the matched combinations (one-sided exact conditional test stratified by combination, p = 1.5e-25, α = 0.05).\n")
	assert.Contains(t, md, "| Pass rate (matched) | 51.7% (62/120)")
	assert.Contains(t, md, "| 0.0% (0/120)")
	assert.Contains(t, md, "Overall, stratified by combination: the candidate passed 0 time(s) where 31.0 were expected if nothing had changed (22 combination(s) with both passes and failures); one-sided p = 1.5e-25.\n")

	same, err := Compare(passesSummary(t, 5, collapse), passesSummary(t, 5, collapse), CompareOptions{})
	require.NoError(t, err)
	assert.False(t, same.Failed)
	md = render(t, func(b *bytes.Buffer) error { return writeComparisonMarkdown(b, same) })
	assert.Contains(t, md, "No significant regression (overall: one-sided exact conditional test stratified by combination, p = ")
	assert.Contains(t, md, "; per combination: one-sided Fisher exact, holm correction; α = 0.05).")

	for p, want := range map[float64]string{0: "< 1e-300", 1.4643525978335375e-25: "1.5e-25", 0.00009: "9.0e-05", 0.0001: "0.0001", 0.5: "0.5000", 1: "1.0000"} {
		assert.Equal(t, want, pValueText(p))
	}
}

// TestListedRowsAreTheMostSignificant: the rows listed per distinct table
// are those a stable sort of every row by adjusted p, then raw p, would
// list, in their order, ties included.
func TestListedRowsAreTheMostSignificant(t *testing.T) {
	t.Parallel()
	ps := []float64{0.5, 0.01, 0.01, 0.2, 1, 0.01}
	adjusted := []float64{1, 0.04, 0.04, 1, 1, 0.05}
	for seed := range 50 {
		var matched []matchedPair
		counts := make([]int, len(ps))
		for i := range 40 + seed {
			tab := (i*7 + seed*3 + i*i) % len(ps)
			matched = append(matched, matchedPair{cand: int32(i), table: int32(tab)})
			counts[tab]++
		}
		for _, limit := range []int{1, 3, 7, 12, 25, 39, 1000} {
			want := make([]int, len(matched))
			for m := range want {
				want[m] = m
			}
			if len(want) > limit {
				slices.SortStableFunc(want, func(a, b int) int {
					x, y := matched[a].table, matched[b].table
					return cmp.Or(cmpFloat(adjusted[x], adjusted[y]), cmpFloat(ps[x], ps[y]))
				})
				want = want[:limit]
				slices.Sort(want)
			}
			require.Equal(t, want, listedRows(matched, ps, adjusted, counts, limit), "seed %d limit %d", seed, limit)
		}
	}
}

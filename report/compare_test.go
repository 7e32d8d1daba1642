package report

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// outcomeSummary builds a summary from per-combination pass counts of
// `runs` runs each.
func outcomeSummary(t *testing.T, runs int, passes map[string]int) *Summary {
	t.Helper()
	lines := []string{planLine(t, Plan{RunID: "r", TotalJobs: int64(runs * len(passes))})}
	idx := int64(0)
	for _, comb := range []string{"c1", "c2", "c3", "c4"} {
		p, ok := passes[comb]
		if !ok {
			continue
		}
		for run := 1; run <= runs; run++ {
			outcome := "fail"
			if run <= p {
				outcome = "pass"
			}
			j := Job{ID: fmt.Sprintf("s/%s/run-%d", comb, run), Index: idx, Scenario: "s", Combination: comb,
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
		{"uncorrected flags it", map[string]int{"c1": 10, "c2": 5, "c3": 5, "c4": 5}, map[string]int{"c1": 5, "c2": 5, "c3": 5, "c4": 5}, CompareOptions{Correction: CorrectionNone}, 1, true},
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
			md := render(t, func(b *bytes.Buffer) error { return WriteComparisonMarkdown(b, c) })
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
	md := render(t, func(b *bytes.Buffer) error { return WriteComparisonMarkdown(b, c) })
	assert.Contains(t, md, "**Regression:** 1 combination(s)")
	assert.Contains(t, md, "| s | model=c1 | 100.0% (10/10) | 50.0% (5/10) | -50.0 pp | 0.0163 | 0.0163 | ❌ |")
	assert.Contains(t, md, "Only in baseline: 1")
}

func TestCompareRejectsBadOptions(t *testing.T) {
	t.Parallel()
	s := outcomeSummary(t, 2, map[string]int{"c1": 1})
	for _, o := range []CompareOptions{{Alpha: 1.5}, {Alpha: -0.1}, {MinPassRate: 2}, {Correction: "bonf"}} {
		_, err := Compare(s, s, o)
		assert.Error(t, err, "%+v", o)
	}
}

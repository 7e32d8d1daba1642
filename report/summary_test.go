package report

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSummaryMatrix(t *testing.T) {
	t.Parallel()
	s := sampleResults(t).Summary()
	triage := s.Scenarios[1]
	require.Equal(t, "triage", triage.ID)
	assert.Equal(t, "Triage an issue", triage.Name)
	require.Len(t, triage.Combinations, 4)

	byLabel := map[string]CombinationSummary{}
	for _, c := range triage.Combinations {
		byLabel[c.Label] = c
	}
	tests := []struct {
		label                   string
		runs, completed, passed int
		flaky                   bool
		chosen                  *KValue
		p50                     float64
	}{
		{"plugins[0].model=a, run[0].conversation.max_turns=2", 3, 3, 3, false, &KValue{K: 2, PassAtK: 1, PassHatK: 1}, 1300},
		// 2 of 3: pass@2 = 1 − C(1,2)/C(3,2) = 1; pass^2 = C(2,2)/C(3,2) = 1/3.
		{"plugins[0].model=a, run[0].conversation.max_turns=4", 3, 3, 2, true, &KValue{K: 2, PassAtK: 1, PassHatK: 1.0 / 3}, 1300},
		// The incomplete run is not a disagreement: 0 of 2 completed passed.
		{"plugins[0].model=b, run[0].conversation.max_turns=2", 3, 2, 0, false, &KValue{K: 2, PassAtK: 0, PassHatK: 0}, 1300},
		{"plugins[0].model=b, run[0].conversation.max_turns=4", 2, 2, 2, false, &KValue{K: 2, PassAtK: 1, PassHatK: 1}, 1050},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			t.Parallel()
			c, ok := byLabel[tt.label]
			require.True(t, ok)
			assert.Equal(t, tt.runs, c.Runs)
			assert.Equal(t, tt.completed, c.Completed)
			assert.Equal(t, tt.passed, c.Passed)
			assert.Equal(t, tt.flaky, c.Flaky)
			require.NotNil(t, c.Chosen)
			assert.Equal(t, tt.chosen.K, c.Chosen.K)
			assert.InDelta(t, tt.chosen.PassAtK, c.Chosen.PassAtK, 1e-12)
			assert.InDelta(t, tt.chosen.PassHatK, c.Chosen.PassHatK, 1e-12)
			assert.Len(t, c.PassK, tt.runs)
			assert.InDelta(t, tt.p50, c.Durations.P50, 1e-9)
		})
	}
	assert.Equal(t, 1, triage.FlakyCombinations)
	assert.Equal(t, 2, s.FlakyCombinations, "greet is flaky too")

	// Marginals: model a has 6 runs with 5 passes; max_turns 4 has 5 runs, 4 passes.
	require.Len(t, triage.Parameters, 2)
	assert.Equal(t, "plugins[0].model", triage.Parameters[0].Path)
	assert.Equal(t, []ValueSummary{
		{Value: "a", Counts: newCounts(6, 6, 5)},
		{Value: "b", Counts: newCounts(5, 4, 2)},
	}, triage.Parameters[0].Values)
	assert.Equal(t, []ValueSummary{
		{Value: "2", Counts: newCounts(6, 5, 3)},
		{Value: "4", Counts: newCounts(5, 5, 4)},
	}, triage.Parameters[1].Values)

	// Scenario pass@k averages its combinations with ≥ k runs: pass^3 over
	// the three combinations with 3 runs is (1 + 0 + 0)/3.
	require.Len(t, triage.PassK, 3)
	assert.Equal(t, 3, triage.PassK[2].K)
	assert.InDelta(t, 1.0/3, triage.PassK[2].PassHatK, 1e-12)
	assert.InDelta(t, 2.0/3, triage.PassK[2].PassAtK, 1e-12)

	assert.Equal(t, newCounts(16, 15, 10), s.Totals)
}

func TestSummaryEmpty(t *testing.T) {
	t.Parallel()
	r, err := Read(nil, Options{})
	require.NoError(t, err)
	s := r.Summary()
	assert.Equal(t, 0, s.Totals.Runs)
	assert.Equal(t, Interval{Lower: 0, Upper: 1}, s.Totals.PassInterval)
	assert.Empty(t, s.Scenarios)
	assert.Empty(t, s.Missing)
}

func TestParamsLabelAndValues(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "-", paramsLabel(nil))
	assert.Equal(t, `a=x, b=3, c={"k":[1,true]}`, paramsLabel(map[string]any{"c": map[string]any{"k": []any{1, true}}, "b": 3, "a": "x"}))
	assert.Equal(t, -1, compareValues("2", "10"), "numbers sort numerically")
	assert.Equal(t, -1, compareValues("10", "9x"), "otherwise as strings")
}

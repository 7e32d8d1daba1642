package stats

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repeatedTables draws n tables from a few shapes, so that most repeat.
func repeatedTables(seed int64, n int) []Table2x2 {
	r := NewMulberry32(seed)
	pool := []Table2x2{{3, 0, 3, 0}, {3, 0, 2, 1}, {2, 1, 2, 1}, {5, 5, 4, 6}, {1, 0, 0, 1}, {10, 0, 9, 1}, {0, 3, 0, 3}, {4, 1, 1, 4}}
	out := make([]Table2x2, n)
	for i := range out {
		out[i] = pool[r.index(len(pool))]
	}
	return out
}

// TestGroupedStrataKeepTheAnswers: grouping identical tables changes no
// test and no power. The expected figures were computed table by table,
// before the tables were grouped.
func TestGroupedStrataKeepTheAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		seed, n    int64
		method     string
		p          float64
		observed   int
		expected   float64
		strata     int
		drop       float64
		detectable bool
	}{
		{1, 5, "exact", 0.0038540879314688894, 11, 15, 4, 0.25, true},
		{2, 30, "exact", 1.6623749127473216e-05, 71, 85.5, 23, 0.07586206896551728, true},
		{3, 200, "exact", 2.0546588180976788e-22, 441, 526, 146, 0.028391167192428957, true},
		{4, 3000, "exact", 0, 6804, 8117.5, 2207, 0.006594640101024285, true},
		{5, 40, "exact", 2.158075029899899e-05, 101, 117.5, 29, 0.0640394088669951, true},
	} {
		tabs := repeatedTables(tc.seed, int(tc.n))
		res := StratifiedLess(tabs)
		assert.Equal(t, tc.method, res.Method, "seed %d", tc.seed)
		assert.InDelta(t, tc.p, res.PValue, 1e-12*tc.p+1e-300, "seed %d", tc.seed)
		assert.Equal(t, tc.observed, res.Observed, "seed %d", tc.seed)
		assert.InDelta(t, tc.expected, res.Expected, 1e-9, "seed %d", tc.seed)
		assert.Equal(t, tc.strata, res.Strata, "seed %d", tc.seed)
		drop, ok := MinDetectableStratifiedDrop(tabs, 0.05)
		assert.Equal(t, tc.detectable, ok, "seed %d", tc.seed)
		assert.InDelta(t, tc.drop, drop, 1e-12, "seed %d", tc.seed)
		assert.Less(t, len(GroupTables(tabs).Tables), 9, "seed %d: a table a shape", tc.seed)
	}
	// Past the work limit, the CMH approximation, as before grouping.
	cmh := stratifiedLess(GroupTables(repeatedTables(3, 200)), 1000)
	assert.Equal(t, MethodCMH, cmh.Method)
	assert.InEpsilon(t, 5.918262336279057e-22, cmh.PValue, 1e-12)
	assert.InDelta(t, 78.13508771929826, cmh.Variance, 1e-9)
	// The work depends on the strata's order (79,428 table by table), not on its size.
	assert.InDelta(t, 78260, exactWork(informative(GroupTables(repeatedTables(3, 200))), 1e18), 0)
}

// TestHolmCounted: a p-value standing for several is adjusted as those
// several would be.
func TestHolmCounted(t *testing.T) {
	t.Parallel()
	p := []float64{0.3, 0.01, 0.3, 0.02, 0.01, 1, 0.5, 0.02}
	assert.Equal(t, []float64{1, 0.08, 1, 0.12, 0.08, 1, 1, 0.12}, Holm(p))
	got := HolmCounted([]float64{0.3, 0.01, 0.02, 1, 0.5}, []int{2, 2, 2, 1, 1})
	require.Len(t, got, 5)
	assert.InDeltaSlice(t, []float64{1, 0.08, 0.12, 1, 1}, got, 1e-15)
	assert.Equal(t, []float64{0.5}, HolmCounted([]float64{0.25}, []int{2}))
}

package stats

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func tables(rows ...[4]int) []Table2x2 {
	out := make([]Table2x2, len(rows))
	for i, r := range rows {
		out[i] = Table2x2{Succ1: r[0], Fail1: r[1], Succ2: r[2], Fail2: r[3]}
	}
	return out
}

func repeat(n int, r [4]int) [][4]int {
	out := make([][4]int, n)
	for i := range out {
		out[i] = r
	}
	return out
}

// collapseTables: 24 combinations of 5 runs; the baseline passes 62 of the
// 120 runs, the candidate none.
func collapseTables() []Table2x2 {
	var rows [][4]int
	for _, p := range []int{5, 5, 5, 5, 4, 4, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0} {
		rows = append(rows, [4]int{p, 5 - p, 0, 5})
	}
	return tables(rows...)
}

// largeTables: k combinations of 30 runs a side, a drop of one pass in
// every fourth.
func largeTables(k int) []Table2x2 {
	var rows [][4]int
	for k := range k {
		s1 := 10 + k%11
		s2 := s1
		if k%4 == 0 {
			s2--
		}
		rows = append(rows, [4]int{s1, 30 - s1, s2, 30 - s2})
	}
	return tables(rows...)
}

// TestStratifiedLessReferenceValues checks the exact and CMH p-values
// against values computed independently, twice:
// testdata/stratified_reference.py (exact rational arithmetic with Python's
// fractions and math.comb; CMH from the textbook formula with math.erfc)
// and testdata/stratified_reference.R (R 4.2.2's mantelhaen.test with
// exact = TRUE and with correct = TRUE, fisher.test for one stratum). The
// two agree to 1e-15 relative; the values below are Python's, except the
// large case's exact p, which only R computes.
func TestStratifiedLessReferenceValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		tables     []Table2x2
		exact, cmh float64
		observed   int
		expected   float64
		variance   float64
		strata     int
	}{
		// The overall one-sided Fisher p of the pooled table (62/120 vs
		// 0/120) is 4.362138423638486e-24; stratified by combination the
		// evidence is stronger still. CMH's normal tail is 1e5 times too big.
		{"collapse", collapseTables(), 1.4643525978335375e-25, 2.3010018778174595e-20, 0, 31, 11.055555555555555, 22},
		{"overall only", tables(repeat(8, [4]int{7, 3, 4, 6})...), 0.00016193994503427628, 0.00018374360675549922, 32, 44, 10.421052631578947, 8},
		{"one collapse among improvements", tables(append([][4]int{{10, 0, 0, 10}}, repeat(3, [4]int{3, 7, 8, 2})...)...),
			0.9068279611808373, 0.809231401533975, 24, 21.5, 5.223684210526315, 4},
		{"mixed", tables([4]int{3, 2, 1, 4}, [4]int{6, 4, 2, 8}, [4]int{1, 9, 0, 10}, [4]int{5, 5, 5, 5}, [4]int{0, 4, 0, 4}, [4]int{9, 1, 7, 3}),
			0.02606608785808937, 0.027393213357636247, 15, 19.5, 4.337719298245614, 5},
		{"improvement", tables([4]int{2, 8, 7, 3}, [4]int{3, 7, 6, 4}, [4]int{4, 1, 5, 0}),
			0.9988609656037475, 0.9910386376778789, 18, 13.5, 2.8552631578947367, 3},
		{"extreme tail", tables([4]int{200, 0, 0, 200}), 9.713217247611181e-120, 3.3420296130274253e-88, 0, 100, 25.06265664160401, 1},
		{"unequal sizes", tables([4]int{12, 3, 2, 3}, [4]int{4, 16, 0, 5}, [4]int{30, 10, 20, 20}),
			0.0026920047507878455, 0.0030237054093752093, 22, 29.3, 6.135782811459028, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := StratifiedLess(tt.tables)
			assert.Equal(t, MethodExact, got.Method)
			assert.InEpsilon(t, tt.exact, got.PValue, 1e-12)
			assert.InEpsilon(t, tt.exact, ExactStratifiedLess(tt.tables), 1e-12)
			assert.InEpsilon(t, tt.cmh, CMHLess(tt.tables), 1e-12)
			assert.Equal(t, tt.observed, got.Observed)
			assert.InEpsilon(t, tt.expected, got.Expected, 1e-12)
			assert.InEpsilon(t, tt.variance, got.Variance, 1e-12)
			assert.Equal(t, tt.strata, got.Strata)
		})
	}
}

// TestStratifiedLessLarge: 400 combinations of 30 runs a side are within
// ExactWorkLimit, 2000 are past it and CMH is used; at these counts the two
// agree to 1e-4 relative. References: CMH from stratified_reference.py
// (R's mantelhaen.test agrees to 1e-14), exact from R's
// mantelhaen.test(exact = TRUE), since rational arithmetic is too slow here.
func TestStratifiedLessLarge(t *testing.T) {
	t.Parallel()
	tabs := largeTables(400)
	require.LessOrEqual(t, exactWork(informative(GroupTables(tabs)), math.Inf(1)), float64(ExactWorkLimit))
	got := StratifiedLess(tabs)
	assert.Equal(t, MethodExact, got.Method)
	assert.InEpsilon(t, 0.097334489776156052, got.PValue, 1e-10)
	assert.InEpsilon(t, 0.09733967520222232, CMHLess(tabs), 1e-12)
	assert.Equal(t, 5886, got.Observed)

	tabs = largeTables(2000)
	require.Greater(t, exactWork(informative(GroupTables(tabs)), math.Inf(1)), float64(ExactWorkLimit))
	got = StratifiedLess(tabs)
	assert.Equal(t, MethodCMH, got.Method)
	assert.InEpsilon(t, 0.001733773255966666, got.PValue, 1e-12)
	assert.Equal(t, 29491, got.Observed)
	assert.InEpsilon(t, 29741.0, got.Expected, 1e-12)
	assert.InEpsilon(t, 7286.2542372882135, got.Variance, 1e-12)
	if testing.Short() {
		return
	}
	assert.InEpsilon(t, 0.0017336068416313076, ExactStratifiedLess(tabs), 1e-10)
}

// TestStratifiedLessEdges: cases whose answer follows from the definition.
func TestStratifiedLessEdges(t *testing.T) {
	t.Parallel()
	// One stratum is Fisher's exact test: 10/10 → 5/10 has
	// P(X ≤ 5) = C(10,5)·C(5,5)/C(15,10)… = 3003/184756 (report's own
	// FisherLess test, from the hypergeometric terms by hand).
	assert.InEpsilon(t, 3003.0/184756, ExactStratifiedLess(tables([4]int{10, 0, 5, 5})), 1e-13)
	// Two strata that are each certain: only x = 0 in both is as low, and
	// P = 1/C(10,5) · 1/C(10,5) = 1/63504.
	assert.InEpsilon(t, 1.0/63504, ExactStratifiedLess(tables([4]int{5, 0, 0, 5}, [4]int{5, 0, 0, 5})), 1e-13)

	for _, tt := range []struct {
		name   string
		tables []Table2x2
		strata int
	}{
		{"no tables", nil, 0},
		{"all pass", tables([4]int{5, 0, 5, 0}), 0},
		{"all fail", tables([4]int{0, 5, 0, 5}), 0},
		{"a side without runs", tables([4]int{3, 2, 0, 0}, [4]int{0, 0, 1, 1}), 0},
		{"negative counts are left out", tables([4]int{-1, 5, 0, 5}), 0},
		// The candidate's highest possible total: the upper tail is empty.
		{"best possible candidate", tables([4]int{0, 5, 5, 0}, [4]int{1, 4, 5, 0}), 2},
	} {
		got := StratifiedLess(tt.tables)
		assert.Equal(t, 1.0, got.PValue, tt.name)
		assert.Equal(t, tt.strata, got.Strata, tt.name)
		if tt.strata == 0 {
			assert.Equal(t, 1.0, CMHLess(tt.tables), tt.name+": CMH")
		}
	}

	// Strata without information change nothing.
	base := collapseTables()
	padded := append(tables([4]int{5, 0, 5, 0}, [4]int{0, 0, 3, 2}, [4]int{0, 5, 0, 5}), base...)
	assert.Equal(t, StratifiedLess(base), StratifiedLess(padded))

	// A tail far below the smallest float64 is 0, never NaN.
	p := ExactStratifiedLess(tables([4]int{1000, 0, 0, 1000}))
	assert.Equal(t, 0.0, p)
	assert.False(t, math.IsNaN(CMHLess(tables([4]int{1000, 0, 0, 1000}))))
}

// enumerateLess is P(S ≤ observed) by brute force: every vector of the
// candidate's successes across the strata, each weighted by the product of
// its hypergeometric probabilities in exact rational arithmetic.
func enumerateLess(tabs []Table2x2) float64 {
	obs := 0
	total := new(big.Rat)
	var walk func(i, sum int, p *big.Rat)
	walk = func(i, sum int, p *big.Rat) {
		if i == len(tabs) {
			if sum <= obs {
				total.Add(total, p)
			}
			return
		}
		t := tabs[i]
		n1, n2, m := t.Succ1+t.Fail1, t.Succ2+t.Fail2, t.Succ1+t.Succ2
		denom := new(big.Int).Binomial(int64(n1+n2), int64(n2))
		for x := max(0, m-n1); x <= min(n2, m); x++ {
			num := new(big.Int).Mul(new(big.Int).Binomial(int64(m), int64(x)), new(big.Int).Binomial(int64(n1+n2-m), int64(n2-x)))
			q := new(big.Rat).Mul(p, new(big.Rat).SetFrac(num, denom))
			walk(i+1, sum+x, q)
		}
	}
	for _, t := range tabs {
		obs += t.Succ2
	}
	walk(0, 0, big.NewRat(1, 1))
	f, _ := total.Float64()
	return f
}

// FuzzStratifiedLess compares the exact test with brute-force enumeration
// on up to four small strata, and checks that no input gives a p-value
// outside [0, 1].
func FuzzStratifiedLess(f *testing.F) {
	f.Add([]byte{3, 2, 1, 4, 6, 4, 2, 8})
	f.Add([]byte{5, 0, 0, 5, 5, 0, 0, 5, 4, 1, 0, 5})
	f.Add([]byte{0, 5, 5, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		var tabs []Table2x2
		for i := 0; i+3 < len(data) && len(tabs) < 4; i += 4 {
			tabs = append(tabs, Table2x2{int(data[i] % 7), int(data[i+1] % 7), int(data[i+2] % 7), int(data[i+3] % 7)})
		}
		got := StratifiedLess(tabs)
		require.GreaterOrEqual(t, got.PValue, 0.0)
		require.LessOrEqual(t, got.PValue, 1.0)
		cmh := CMHLess(tabs)
		require.False(t, math.IsNaN(cmh) || cmh < 0 || cmh > 1, "CMH p %v", cmh)
		var informativeTabs []Table2x2
		for _, tab := range tabs {
			if len(informative(GroupTables([]Table2x2{tab}))) == 1 {
				informativeTabs = append(informativeTabs, tab)
			}
		}
		want := enumerateLess(informativeTabs)
		require.InDelta(t, want, got.PValue, 1e-12*max(want, 1e-300)+1e-15, "%v", tabs)
	})
}

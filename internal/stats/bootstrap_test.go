package stats

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBootstrapGoldenValuesOfTheReference: the values ../shared/reference/ghx.md
// §6.5 lists, checked there by running ghx's TypeScript.
func TestBootstrapGoldenValuesOfTheReference(t *testing.T) {
	t.Parallel()
	rng := NewMulberry32(42)
	for _, want := range []float64{0.6011037519201636, 0.44829055899754167, 0.8524657934904099, 0.6697340414393693, 0.17481389874592423} {
		assert.Equal(t, want, rng.Float64())
	}

	iv, err := BootstrapCI([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, BootstrapOptions{Seed: 123, Resamples: 1000})
	require.NoError(t, err)
	assert.Equal(t, BootstrapInterval{Lower: 3, Upper: 8, PointEstimate: 5.5, ConfidenceLevel: 0.95, Resamples: 1000}, iv)
	iv, err = BootstrapCI([]float64{10, 20, 30, 40, 50}, BootstrapOptions{})
	require.NoError(t, err)
	assert.Equal(t, BootstrapInterval{Lower: 10, Upper: 50, PointEstimate: 30, ConfidenceLevel: 0.95, Resamples: 10000}, iv)

	a, b := []float64{10, 12, 11, 13, 10}, []float64{20, 22, 21, 23, 20}
	for _, r := range []int{1000, 10000} {
		iv, err = BootstrapReductionCI(a, b, BootstrapOptions{Seed: 42, Resamples: r})
		require.NoError(t, err)
		assert.Equal(t, BootstrapInterval{Lower: 38.095238095238095, Upper: 54.54545454545454, PointEstimate: 47.61904761904761,
			ConfidenceLevel: 0.95, Resamples: r}, iv)
	}

	d := Describe([]float64{1, 2, 3, 4, 5})
	assert.Equal(t, Descriptive{Count: 5, Mean: 3, Median: 3, P90: 4.6, P95: 4.8, Min: 1, Max: 5, IQR: 2,
		StdDev: 1.5811388300841898, CV: 0.5270462766947299}, d)

	assert.Equal(t, EffectSize{D: 5.692099788303082, Magnitude: "large"}, CohensD([]float64{10, 11, 12, 13, 14}, []float64{1, 2, 3, 4, 5}))
	assert.Equal(t, EffectSize{D: -7.669649888473704, Magnitude: "large"}, CohensD(a, b))

	for _, tt := range []struct {
		a, b []float64
		opts PermutationOptions
		p    float64
	}{
		{[]float64{100, 101, 102, 103, 104}, []float64{1, 2, 3, 4, 5}, PermutationOptions{Seed: 42, Permutations: 1000}, 0.007},
		{[]float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10}, PermutationOptions{Seed: 77, Permutations: 500}, 0.014},
		{a, b, PermutationOptions{}, 0.0078},
	} {
		res, err := PermutationTest(tt.a, tt.b, tt.opts)
		require.NoError(t, err)
		assert.Equal(t, tt.p, res.PValue)
	}

	// ghx's report: Reduction 47.6%, [38.1%, 54.5%], -7.670 (large), 0.0070.
	cmp, err := CompareGroups(a, b, GroupOptions{Bootstrap: BootstrapOptions{Resamples: 1000, Seed: 42}, Permutation: PermutationOptions{Permutations: 1000, Seed: 42}})
	require.NoError(t, err)
	assert.Equal(t, GroupComparison{ReductionPct: 47.61904761904761, CI95: [2]float64{38.095238095238095, 54.54545454545454},
		EffectSize: -7.669649888473704, EffectMagnitude: "large", PValue: 0.007}, cmp)
}

func TestMulberry32Seeds(t *testing.T) {
	t.Parallel()
	first := func(seed int64) float64 { return NewMulberry32(seed).Float64() }
	assert.Equal(t, first(-1), first(1<<32-1), "only the low 32 bits count")
	assert.Equal(t, first(0), first(1<<32))
	assert.Equal(t, first(5), first(1<<32+5))
	rng := NewMulberry32(9)
	for range 100_000 {
		u := rng.Float64()
		require.True(t, u >= 0 && u < 1, "%v", u)
		require.Less(t, rng.index(3), 3)
	}

	// Seed 0 in the options is the default 42; seed 0 itself is 1<<32.
	values := []float64{3, 1, 4, 1, 5, 9, 2, 6}
	def, err := BootstrapCI(values, BootstrapOptions{Resamples: 200})
	require.NoError(t, err)
	fortyTwo, err := BootstrapCI(values, BootstrapOptions{Resamples: 200, Seed: 42})
	require.NoError(t, err)
	assert.Equal(t, def, fortyTwo)
}

func TestBootstrapRefusesWhatItCannotReproduce(t *testing.T) {
	t.Parallel()
	ok := []float64{1, 2, 3}
	for _, tt := range []struct {
		name string
		err  func() error
		want string
	}{
		{"negative resamples", func() error { _, err := BootstrapCI(ok, BootstrapOptions{Resamples: -1}); return err }, "stats: -1 resamples; want at least 1"},
		{"confidence 1", func() error { _, err := BootstrapCI(ok, BootstrapOptions{ConfidenceLevel: 1}); return err },
			"stats: confidence level 1; want a level between 0 and 1, such as 0.95"},
		{"confidence NaN", func() error {
			_, err := BootstrapReductionCI(ok, ok, BootstrapOptions{ConfidenceLevel: math.NaN()})
			return err
		},
			"stats: confidence level NaN; want a level between 0 and 1, such as 0.95"},
		{"NaN value", func() error { _, err := BootstrapCI([]float64{1, math.NaN()}, BootstrapOptions{}); return err }, "stats: values[1] is NaN; want finite numbers"},
		{"infinite a", func() error {
			_, err := BootstrapReductionCI([]float64{math.Inf(1)}, ok, BootstrapOptions{})
			return err
		}, "stats: a[0] is +Inf; want finite numbers"},
		{"infinite b", func() error { _, err := CompareGroups(ok, []float64{2, math.Inf(-1)}, GroupOptions{}); return err }, "stats: b[1] is -Inf; want finite numbers"},
		{"NaN statistic", func() error {
			_, err := BootstrapCI(ok, BootstrapOptions{Statistic: func(v []float64) float64 {
				if v[0] == 3 {
					return math.NaN()
				}
				return v[0]
			}})
			return err
		}, "stats: the statistic of resample 1 is NaN"},
		{"NaN reduction", func() error {
			_, err := BootstrapReductionCI(ok, ok, BootstrapOptions{Statistic: func([]float64) float64 { return math.Inf(1) }})
			return err
		}, "stats: the reduction of the samples is NaN"},
		{"negative permutations", func() error { _, err := PermutationTest(ok, ok, PermutationOptions{Permutations: -5}); return err }, "stats: -5 permutations; want at least 1"},
		{"unknown alternative", func() error { _, err := PermutationTest(ok, ok, PermutationOptions{Alternative: "lesser"}); return err },
			`stats: alternative "lesser"; want two-sided, less or greater`},
		{"NaN in a permutation test", func() error { _, err := PermutationTest([]float64{math.NaN()}, ok, PermutationOptions{}); return err }, "stats: a[0] is NaN; want finite numbers"},
	} {
		assert.EqualError(t, tt.err(), tt.want, tt.name)
	}
}

// TestBootstrapLeavesInputsAlone: the statistic sees copies and resamples,
// never the caller's slices.
func TestBootstrapLeavesInputsAlone(t *testing.T) {
	t.Parallel()
	a, b := []float64{5, 3, 1, 4}, []float64{9, 7, 8, 6}
	sorting := func(v []float64) float64 { return Median(v) }
	_, err := BootstrapReductionCI(a, b, BootstrapOptions{Resamples: 50, Statistic: func(v []float64) float64 {
		for i := range v { // a statistic that scribbles on its input
			v[i] = -v[i]
		}
		return sorting(v)
	}})
	require.NoError(t, err)
	assert.Equal(t, []float64{5, 3, 1, 4}, a)
	assert.Equal(t, []float64{9, 7, 8, 6}, b)
	d := Describe(a)
	assert.Equal(t, 3.5, d.Median)
	assert.Equal(t, []float64{5, 3, 1, 4}, a)
	assert.Equal(t, 0.0, Median(nil))
}

// FuzzBootstrapMedianByCounting: the median of each resample found by
// counting draws equals the median of the resample built and sorted as ghx
// does (Median as a custom statistic takes that path), bit for bit, for
// samples with ties, negative values and zeros of either sign.
func FuzzBootstrapMedianByCounting(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5}, int64(42))
	f.Add([]byte{7, 7, 7, 0, 128, 0}, int64(7))
	f.Add([]byte{128, 128, 3}, int64(-1))
	f.Fuzz(func(t *testing.T, data []byte, seed int64) {
		if len(data) > 64 {
			data = data[:64]
		}
		values := make([]float64, len(data))
		for i, c := range data {
			// small values, so ties are common; 128 is −0, 0 is +0
			values[i] = float64(int8(c)) / 4
			if c == 128 {
				values[i] = math.Copysign(0, -1)
			}
		}
		opts := BootstrapOptions{Resamples: 101, Seed: seed}
		counted, err := BootstrapCI(values, opts)
		require.NoError(t, err)
		opts.Statistic = Median
		sorted, err := BootstrapCI(values, opts)
		require.NoError(t, err)
		for _, pair := range [][2]float64{{counted.Lower, sorted.Lower}, {counted.Upper, sorted.Upper}, {counted.PointEstimate, sorted.PointEstimate}} {
			require.Equal(t, math.Float64bits(pair[1]), math.Float64bits(pair[0]), "%v: counted %v, sorted %v", values, counted, sorted)
		}
		half := len(values) / 2
		rc, err := BootstrapReductionCI(values[:half], values[half:], BootstrapOptions{Resamples: 51, Seed: seed})
		require.NoError(t, err)
		rs, err := BootstrapReductionCI(values[:half], values[half:], BootstrapOptions{Resamples: 51, Seed: seed, Statistic: Median})
		require.NoError(t, err)
		require.Equal(t, math.Float64bits(rs.Lower), math.Float64bits(rc.Lower))
		require.Equal(t, math.Float64bits(rs.Upper), math.Float64bits(rc.Upper))
	})
}

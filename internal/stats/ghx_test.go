package stats

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ghxGolden is testdata/ghx_golden.json: inputs and the outputs ghx's
// agent-profiler statistics gave for them, run as ghx's own TypeScript
// (aryeko/ghx f128993, compiled with tsc 5, Node.js 20.20.2) by
// testdata/ghx_golden.mjs, which says how to regenerate it. Numbers are
// JavaScript's String(n), "-0" for negative zero.
type ghxGolden struct {
	Samples    map[string][]string `json:"samples"`
	Mulberry32 []struct {
		Seed    float64  `json:"seed"`
		First   []string `json:"first"`
		At10000 string   `json:"at10000"`
	} `json:"mulberry32"`
	BootstrapCI []struct {
		Values string          `json:"values"`
		Opts   ghxBootstrapOpt `json:"opts"`
		Want   ghxInterval     `json:"want"`
	} `json:"bootstrapCI"`
	BootstrapReductionCI []struct {
		A    string          `json:"a"`
		B    string          `json:"b"`
		Opts ghxBootstrapOpt `json:"opts"`
		Want ghxInterval     `json:"want"`
	} `json:"bootstrapReductionCI"`
	Describe []struct {
		Values string            `json:"values"`
		Inline []string          `json:"inline"`
		Want   map[string]string `json:"want"`
	} `json:"describe"`
	CohensD []struct {
		A, B      string
		D         string `json:"d"`
		Magnitude string `json:"magnitude"`
	} `json:"cohensD"`
	PermutationTest []struct {
		A, B string
		Opts struct {
			Permutations int     `json:"permutations"`
			Alternative  string  `json:"alternative"`
			Seed         float64 `json:"seed"`
		} `json:"opts"`
		PValue             string `json:"pValue"`
		ObservedDifference string `json:"observedDifference"`
		Permutations       int    `json:"permutations"`
	} `json:"permutationTest"`
	CompareGroups []struct {
		A, B            string
		ReductionPct    string   `json:"reductionPct"`
		CI95            []string `json:"ci95"`
		EffectSize      string   `json:"effectSize"`
		EffectMagnitude string   `json:"effectMagnitude"`
		PValue          string   `json:"pValue"`
	} `json:"compareGroups"`
}

type ghxBootstrapOpt struct {
	Resamples       int      `json:"resamples"`
	ConfidenceLevel float64  `json:"confidenceLevel"`
	Seed            *float64 `json:"seed"`
	Statistic       string   `json:"statistic"`
}

type ghxInterval struct {
	Lower, Upper, PointEstimate, ConfidenceLevel string
	Resamples                                    int
}

func loadGhxGolden(t *testing.T) ghxGolden {
	t.Helper()
	raw, err := os.ReadFile("testdata/ghx_golden.json")
	require.NoError(t, err)
	var g ghxGolden
	require.NoError(t, json.Unmarshal(raw, &g))
	return g
}

// jsNumber reads a number as JavaScript's String(n) wrote it.
func jsNumber(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err, s)
	return v
}

func (g ghxGolden) sample(t *testing.T, name string) []float64 {
	t.Helper()
	texts, ok := g.Samples[name]
	require.True(t, ok, name)
	out := make([]float64, len(texts))
	for i, s := range texts {
		out[i] = jsNumber(t, s)
	}
	return out
}

// sameBits asserts got has exactly the bits of ghx's value, so -0 ≠ 0 and
// the last digit counts.
func sameBits(t *testing.T, want string, got float64, what string) {
	t.Helper()
	w := jsNumber(t, want)
	if math.Float64bits(w) != math.Float64bits(got) {
		t.Errorf("%s: got %s, ghx %s", what, jsString(got), want)
	}
}

func jsString(v float64) string {
	if v == 0 && math.Signbit(v) {
		return "-0"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// goSeed maps ghx's seed (a JavaScript number, `| 0`'d) to ours, where 0
// means the default and seed 0 itself is written 1<<32.
func goSeed(seed float64) int64 {
	if seed == 0 {
		return 1 << 32
	}
	return int64(seed)
}

func (o ghxBootstrapOpt) String() string {
	seed := "default"
	if o.Seed != nil {
		seed = jsString(*o.Seed)
	}
	return fmt.Sprintf("{resamples %d, confidence %v, seed %s, statistic %q}", o.Resamples, o.ConfidenceLevel, seed, o.Statistic)
}

func (o ghxBootstrapOpt) options() BootstrapOptions {
	opts := BootstrapOptions{Resamples: o.Resamples, ConfidenceLevel: o.ConfidenceLevel}
	if o.Seed != nil {
		opts.Seed = goSeed(*o.Seed)
	}
	switch o.Statistic {
	case "mean": // v.reduce((a, x) => a + x, 0) / v.length: NaN when empty
		opts.Statistic = func(v []float64) float64 { return sum(v) / float64(len(v)) }
	case "max": // Math.max(...v): -Infinity when empty
		opts.Statistic = func(v []float64) float64 {
			m := math.Inf(-1)
			for _, x := range v {
				m = max(m, x)
			}
			return m
		}
	}
	return opts
}

func checkInterval(t *testing.T, want ghxInterval, got BootstrapInterval, what string) {
	t.Helper()
	sameBits(t, want.Lower, got.Lower, what+" lower")
	sameBits(t, want.Upper, got.Upper, what+" upper")
	sameBits(t, want.PointEstimate, got.PointEstimate, what+" point estimate")
	sameBits(t, want.ConfidenceLevel, got.ConfidenceLevel, what+" confidence level")
	assert.Equal(t, want.Resamples, got.Resamples, what)
}

func TestMulberry32MatchesGhx(t *testing.T) {
	t.Parallel()
	g := loadGhxGolden(t)
	require.NotEmpty(t, g.Mulberry32)
	for _, c := range g.Mulberry32 {
		// NewMulberry32 takes the seed as it is; goSeed's 0 → 1<<32 is for
		// the options only, and both give ghx's seed 0.
		for _, seed := range []int64{int64(c.Seed), goSeed(c.Seed)} {
			rng := NewMulberry32(seed)
			for i, want := range c.First {
				sameBits(t, want, rng.Float64(), fmt.Sprintf("seed %v, number %d", c.Seed, i+1))
			}
			for range 9999 - len(c.First) {
				rng.Float64()
			}
			sameBits(t, c.At10000, rng.Float64(), fmt.Sprintf("seed %v, number 10000", c.Seed))
		}
	}
}

func TestBootstrapCIMatchesGhx(t *testing.T) {
	t.Parallel()
	g := loadGhxGolden(t)
	require.NotEmpty(t, g.BootstrapCI)
	for _, c := range g.BootstrapCI {
		what := fmt.Sprintf("bootstrapCI(%s, %v)", c.Values, c.Opts)
		values := g.sample(t, c.Values)
		before := slices.Clone(values)
		got, err := BootstrapCI(values, c.Opts.options())
		if c.Want.PointEstimate == "NaN" {
			// ghx returns NaN (the mean of nothing); we refuse.
			assert.EqualError(t, err, "stats: the statistic of the sample is NaN", what)
			continue
		}
		require.NoError(t, err, what)
		checkInterval(t, c.Want, got, what)
		assert.Equal(t, before, values, "%s changed its input", what)
	}
}

func TestBootstrapReductionCIMatchesGhx(t *testing.T) {
	t.Parallel()
	g := loadGhxGolden(t)
	require.NotEmpty(t, g.BootstrapReductionCI)
	for _, c := range g.BootstrapReductionCI {
		what := fmt.Sprintf("bootstrapReductionCI(%s, %s, %v)", c.A, c.B, c.Opts)
		got, err := BootstrapReductionCI(g.sample(t, c.A), g.sample(t, c.B), c.Opts.options())
		require.NoError(t, err, what)
		checkInterval(t, c.Want, got, what)
	}
}

func TestDescribeMatchesGhx(t *testing.T) {
	t.Parallel()
	g := loadGhxGolden(t)
	require.NotEmpty(t, g.Describe)
	for _, c := range g.Describe {
		var values []float64
		if c.Inline != nil {
			for _, s := range c.Inline {
				values = append(values, jsNumber(t, s))
			}
		} else {
			values = g.sample(t, c.Values)
		}
		d := Describe(values)
		what := "computeDescriptive(" + c.Values + ")"
		assert.Equal(t, c.Want["count"], strconv.Itoa(d.Count), what)
		for field, got := range map[string]float64{"mean": d.Mean, "median": d.Median, "p90": d.P90, "p95": d.P95,
			"min": d.Min, "max": d.Max, "iqr": d.IQR, "stddev": d.StdDev, "cv": d.CV} {
			sameBits(t, c.Want[field], got, what+"."+field)
		}
		if len(values) > 0 {
			sameBits(t, c.Want["median"], Median(values), "median("+c.Values+")")
		}
	}
}

func TestCohensDMatchesGhx(t *testing.T) {
	t.Parallel()
	g := loadGhxGolden(t)
	require.NotEmpty(t, g.CohensD)
	for _, c := range g.CohensD {
		got := CohensD(g.sample(t, c.A), g.sample(t, c.B))
		sameBits(t, c.D, got.D, "cohensD("+c.A+", "+c.B+")")
		assert.Equal(t, c.Magnitude, got.Magnitude)
	}
}

func TestPermutationTestMatchesGhx(t *testing.T) {
	t.Parallel()
	g := loadGhxGolden(t)
	require.NotEmpty(t, g.PermutationTest)
	for _, c := range g.PermutationTest {
		what := fmt.Sprintf("permutationTest(%s, %s, %+v)", c.A, c.B, c.Opts)
		opts := PermutationOptions{Permutations: c.Opts.Permutations, Alternative: Alternative(c.Opts.Alternative)}
		if c.Opts.Seed != 0 {
			opts.Seed = goSeed(c.Opts.Seed)
		}
		got, err := PermutationTest(g.sample(t, c.A), g.sample(t, c.B), opts)
		require.NoError(t, err, what)
		sameBits(t, c.PValue, got.PValue, what+" p")
		sameBits(t, c.ObservedDifference, got.ObservedDifference, what+" observed difference")
		assert.Equal(t, c.Permutations, got.Permutations, what)
	}
}

// TestCompareGroupsMatchesGhx uses the options ghx's report compares modes
// with (reporter/pairwise-comparison.ts): 1,000 resamples and 1,000
// permutations, seed 42.
func TestCompareGroupsMatchesGhx(t *testing.T) {
	t.Parallel()
	g := loadGhxGolden(t)
	require.NotEmpty(t, g.CompareGroups)
	opts := GroupOptions{Bootstrap: BootstrapOptions{Resamples: 1000, Seed: 42}, Permutation: PermutationOptions{Permutations: 1000, Seed: 42}}
	for _, c := range g.CompareGroups {
		what := "compareGroups(" + c.A + ", " + c.B + ")"
		got, err := CompareGroups(g.sample(t, c.A), g.sample(t, c.B), opts)
		require.NoError(t, err)
		sameBits(t, c.ReductionPct, got.ReductionPct, what+" reduction")
		sameBits(t, c.CI95[0], got.CI95[0], what+" ci95[0]")
		sameBits(t, c.CI95[1], got.CI95[1], what+" ci95[1]")
		sameBits(t, c.EffectSize, got.EffectSize, what+" effect size")
		assert.Equal(t, c.EffectMagnitude, got.EffectMagnitude, what)
		sameBits(t, c.PValue, got.PValue, what+" p")
	}
}

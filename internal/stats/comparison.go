package stats

import (
	"fmt"
	"math"
	"slices"
)

// EffectSize is Cohen's d with ghx's name for its size.
type EffectSize struct {
	D float64 `json:"d"`
	// Magnitude is "negligible" (|d| < 0.2), "small" (< 0.5), "medium"
	// (< 0.8) or "large".
	Magnitude string `json:"magnitude"`
}

// CohensD is ghx's cohensD: (mean(a) − mean(b)) over the pooled standard
// deviation √(((nA−1)·varA + (nB−1)·varB)/(nA+nB−2)), the variances with
// n−1. d is 0 when either group is empty, when nA+nB−2 ≤ 0 or when the
// pooled deviation is 0.
func CohensD(a, b []float64) EffectSize {
	if len(a) == 0 || len(b) == 0 {
		return EffectSize{Magnitude: magnitude(0)}
	}
	meanA, meanB := meanOf(a), meanOf(b)
	varA, varB := sampleVariance(a, meanA), sampleVariance(b, meanB)
	pooled := 0.0
	if den := len(a) + len(b) - 2; den > 0 {
		pooled = math.Sqrt((float64(float64(len(a)-1)*varA) + float64(float64(len(b)-1)*varB)) / float64(den))
	}
	d := 0.0
	if pooled != 0 {
		d = (meanA - meanB) / pooled
	}
	return EffectSize{D: d, Magnitude: magnitude(d)}
}

func magnitude(d float64) string {
	switch d = math.Abs(d); {
	case d < 0.2:
		return "negligible"
	case d < 0.5:
		return "small"
	case d < 0.8:
		return "medium"
	}
	return "large"
}

// Alternative is the direction of PermutationTest's hypothesis.
type Alternative string

// The alternatives of PermutationTest.
const (
	// TwoSided counts permutations with |difference| ≥ |observed|.
	TwoSided Alternative = "two-sided"
	// Less counts permutations with difference ≤ observed.
	Less Alternative = "less"
	// Greater counts permutations with difference ≥ observed.
	Greater Alternative = "greater"
)

// PermutationOptions tune PermutationTest. The zero value is ghx's
// defaults: 10,000 permutations, two-sided, seed 42.
type PermutationOptions struct {
	// Permutations is the number of shuffles (DefaultPermutations when 0).
	Permutations int
	// Alternative is TwoSided when "".
	Alternative Alternative
	// Seed seeds the Mulberry32 of the shuffles, by its low 32 bits
	// (DefaultSeed when 0; 1<<32 is seed 0).
	Seed int64
}

// PermutationResult is the outcome of PermutationTest.
type PermutationResult struct {
	PValue             float64 `json:"p_value"`
	ObservedDifference float64 `json:"observed_difference"`
	Permutations       int     `json:"permutations"`
}

// PermutationTest is ghx's permutationTest of a difference in means: the
// observed mean(a) − mean(b) against the same difference after each of
// Permutations Fisher–Yates shuffles of a's values followed by b's (for
// j from the last index down to 1, swap j with floor(u·(j+1))), the first
// len(a) shuffled values taken as a. The p-value is the share of shuffles
// at least as extreme (see Alternative), without the +1 that would keep it
// above 0. With an empty group the p-value is 1.
func PermutationTest(a, b []float64, opts PermutationOptions) (PermutationResult, error) {
	if opts.Permutations == 0 {
		opts.Permutations = DefaultPermutations
	}
	if opts.Alternative == "" {
		opts.Alternative = TwoSided
	}
	if opts.Seed == 0 {
		opts.Seed = DefaultSeed
	}
	switch {
	case opts.Permutations < 0:
		return PermutationResult{}, fmt.Errorf("stats: %d permutations; want at least 1", opts.Permutations)
	case opts.Alternative != TwoSided && opts.Alternative != Less && opts.Alternative != Greater:
		return PermutationResult{}, fmt.Errorf("stats: alternative %q; want %s, %s or %s", opts.Alternative, TwoSided, Less, Greater)
	}
	if err := checkFinite("a", a); err != nil {
		return PermutationResult{}, err
	}
	if err := checkFinite("b", b); err != nil {
		return PermutationResult{}, err
	}
	res := PermutationResult{PValue: 1, Permutations: opts.Permutations}
	if len(a) == 0 || len(b) == 0 {
		return res, nil
	}
	observed := meanOf(a) - meanOf(b)
	pooled := slices.Concat(a, b)
	shuffled := make([]float64, len(pooled))
	rng := NewMulberry32(opts.Seed)
	count := 0
	for range opts.Permutations {
		copy(shuffled, pooled)
		for j := len(shuffled) - 1; j > 0; j-- {
			k := rng.index(j + 1)
			shuffled[j], shuffled[k] = shuffled[k], shuffled[j]
		}
		diff := meanOf(shuffled[:len(a)]) - meanOf(shuffled[len(a):])
		switch opts.Alternative {
		case TwoSided:
			if math.Abs(diff) >= math.Abs(observed) {
				count++
			}
		case Less:
			if diff <= observed {
				count++
			}
		case Greater:
			if diff >= observed {
				count++
			}
		}
	}
	res.PValue = float64(count) / float64(opts.Permutations)
	res.ObservedDifference = observed
	return res, nil
}

// GroupOptions tune CompareGroups; the zero value is ghx's defaults.
// ghx's own report compares modes with 1,000 resamples and 1,000
// permutations, both seeded 42.
type GroupOptions struct {
	Bootstrap   BootstrapOptions
	Permutation PermutationOptions
}

// GroupComparison compares a candidate sample with a baseline on one metric
// (lower is better, as for tokens, time and tool calls).
type GroupComparison struct {
	// ReductionPct is (1 − median(a)/median(b))·100 and CI95 its bootstrap
	// interval (BootstrapReductionCI).
	ReductionPct float64    `json:"reduction_pct"`
	CI95         [2]float64 `json:"ci95"`
	// EffectSize and EffectMagnitude are Cohen's d of a against b.
	EffectSize      float64 `json:"effect_size"`
	EffectMagnitude string  `json:"effect_magnitude"`
	// PValue is the permutation test's on the difference in means.
	PValue float64 `json:"p_value"`
}

// CompareGroups is ghx's compareGroups: the reduction of a relative to b
// with its bootstrap interval, Cohen's d and the permutation test's
// p-value, each as the functions above compute them.
func CompareGroups(a, b []float64, opts GroupOptions) (GroupComparison, error) {
	ci, err := BootstrapReductionCI(a, b, opts.Bootstrap)
	if err != nil {
		return GroupComparison{}, err
	}
	perm, err := PermutationTest(a, b, opts.Permutation)
	if err != nil {
		return GroupComparison{}, err
	}
	d := CohensD(a, b)
	return GroupComparison{ReductionPct: ci.PointEstimate, CI95: [2]float64{ci.Lower, ci.Upper},
		EffectSize: d.D, EffectMagnitude: d.Magnitude, PValue: perm.PValue}, nil
}

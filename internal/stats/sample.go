package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// The helpers here compute as ghx's agent-profiler does, to the bit: sums
// in the same order, the same interpolation, the same sort. Products that
// are then added are rounded on their own (float64(a*b) + c): Go may fuse
// a*b+c into one FMA instruction on some processors, JavaScript never does,
// and an explicit conversion forbids the fusion.

// sortAscending sorts xs as JavaScript's xs.sort((a, b) => a - b) does for
// finite numbers: ascending, with −0 and +0 equal and left in their order
// (V8's sort is stable). Any other equal numbers have the same bits, so a
// faster unstable sort gives the same result when there is no −0.
func sortAscending(xs []float64) {
	for _, x := range xs {
		if x == 0 && math.Signbit(x) {
			slices.SortStableFunc(xs, cmp.Compare[float64])
			return
		}
	}
	slices.Sort(xs)
}

// interpolate is ghx's percentile of sorted values (p in 0..100): linear
// between the closest ranks of index p/100·(n−1), as
// lower·(1−fraction) + upper·fraction. Empty input gives 0.
func interpolate(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	index := p / 100 * float64(n-1)
	lower := math.Floor(index)
	upper := math.Ceil(index)
	fraction := index - lower
	return float64(sorted[int(lower)]*(1-fraction)) + float64(sorted[int(upper)]*fraction)
}

// Median is the median as ghx's agent-profiler computes it (the default
// statistic of its bootstrap): the values sorted, then the mean of the
// middle two for an even count, as 0.5·a + 0.5·b. Empty input gives 0.
// values is not modified.
func Median(values []float64) float64 {
	return medianInPlace(slices.Clone(values))
}

// medianInPlace is Median on a slice it may reorder.
func medianInPlace(values []float64) float64 {
	sortAscending(values)
	return interpolate(values, 50)
}

// sum adds values from the first to the last, from 0, as
// values.reduce((acc, v) => acc + v, 0).
func sum(values []float64) float64 {
	s := 0.0
	for _, v := range values {
		s += v
	}
	return s
}

// meanOf is ghx's mean: the sum in order over the count; 0 when empty.
func meanOf(values []float64) float64 {
	if len(values) == 0 {
		return 0
	}
	return sum(values) / float64(len(values))
}

// sampleVariance is ghx's variance around m with n−1 in the denominator; 0
// for fewer than two values.
func sampleVariance(values []float64, m float64) float64 {
	if len(values) <= 1 {
		return 0
	}
	s := 0.0
	for _, v := range values {
		d := v - m
		s += float64(d * d)
	}
	return s / float64(len(values)-1)
}

// checkFinite refuses NaN and infinities: ghx's sorts compare with a − b,
// which has no order for them, so no result could be reproduced.
func checkFinite(what string, values []float64) error {
	for i, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("stats: %s[%d] is %v; want finite numbers", what, i, v)
		}
	}
	return nil
}

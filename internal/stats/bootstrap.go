package stats

import (
	"fmt"
	"math"
	"slices"
)

// ghx's agent-profiler defaults.
const (
	// DefaultResamples is the number of bootstrap resamples.
	DefaultResamples = 10_000
	// DefaultConfidenceLevel is the bootstrap interval's confidence level.
	DefaultConfidenceLevel = 0.95
	// DefaultSeed seeds the bootstrap's and the permutation test's Mulberry32.
	DefaultSeed = 42
	// DefaultPermutations is the number of permutations of PermutationTest.
	DefaultPermutations = 10_000
)

// BootstrapOptions tune BootstrapCI and BootstrapReductionCI. The zero
// value is ghx's defaults: 10,000 resamples, 95%, the median, seed 42.
type BootstrapOptions struct {
	// Resamples is the number of resamples (DefaultResamples when 0).
	Resamples int
	// ConfidenceLevel is in (0, 1) (DefaultConfidenceLevel when 0).
	ConfidenceLevel float64
	// Statistic summarises a sample (Median when nil). It is called with a
	// slice it may reorder but must not keep: resamples reuse it.
	Statistic func([]float64) float64
	// Seed seeds the Mulberry32 the resamples are drawn with, by its low 32
	// bits (DefaultSeed when 0; 1<<32 is seed 0).
	Seed int64
}

// resolve fills in the defaults and checks the options.
func (o BootstrapOptions) resolve() (BootstrapOptions, error) {
	if o.Resamples == 0 {
		o.Resamples = DefaultResamples
	}
	if o.ConfidenceLevel == 0 {
		o.ConfidenceLevel = DefaultConfidenceLevel
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	if o.Resamples < 0 {
		return o, fmt.Errorf("stats: %d resamples; want at least 1", o.Resamples)
	}
	if !(o.ConfidenceLevel > 0 && o.ConfidenceLevel < 1) {
		return o, fmt.Errorf("stats: confidence level %v; want a level between 0 and 1, such as 0.95", o.ConfidenceLevel)
	}
	return o, nil
}

// BootstrapInterval is a percentile bootstrap confidence interval.
type BootstrapInterval struct {
	Lower           float64 `json:"lower"`
	Upper           float64 `json:"upper"`
	PointEstimate   float64 `json:"point_estimate"`
	ConfidenceLevel float64 `json:"confidence_level"`
	Resamples       int     `json:"resamples"`
}

// BootstrapCI is ghx's bootstrapCI: a percentile bootstrap interval for a
// statistic (by default the median) of one sample, reproducible from its
// seed and equal to ghx's to the bit.
//
// The point estimate is the statistic of values. Each of the resamples
// draws len(values) values with replacement, index floor(u·n) for each
// u from Mulberry32; the resamples' statistics are sorted, and with
// α = 1 − level the interval is [s[floor(α/2·R)], s[floor((1−α/2)·R) − 1]]
// (an index outside the resamples gives the point estimate). With fewer
// than two values the interval is the point estimate alone.
//
// values must be finite; a statistic returning NaN is an error too, since
// ghx's sort would leave such a result in no defined order.
func BootstrapCI(values []float64, opts BootstrapOptions) (BootstrapInterval, error) {
	o, err := opts.resolve()
	if err != nil {
		return BootstrapInterval{}, err
	}
	if err := checkFinite("values", values); err != nil {
		return BootstrapInterval{}, err
	}
	statistic := o.Statistic
	if statistic == nil {
		statistic = medianInPlace
	}
	point := statistic(slices.Clone(values))
	if math.IsNaN(point) {
		return BootstrapInterval{}, fmt.Errorf("stats: the statistic of the sample is NaN")
	}
	iv := BootstrapInterval{Lower: point, Upper: point, PointEstimate: point, ConfidenceLevel: o.ConfidenceLevel, Resamples: o.Resamples}
	if len(values) <= 1 {
		return iv, nil
	}
	rng := NewMulberry32(o.Seed)
	sampler := newResampler(values, o.Statistic)
	estimates := make([]float64, o.Resamples)
	for i := range estimates {
		if estimates[i] = sampler.next(rng); math.IsNaN(estimates[i]) {
			return BootstrapInterval{}, fmt.Errorf("stats: the statistic of resample %d is NaN", i)
		}
	}
	iv.Lower, iv.Upper = percentileBounds(estimates, o.ConfidenceLevel, point)
	return iv, nil
}

// BootstrapReductionCI is ghx's bootstrapReductionCI: a percentile
// bootstrap interval for the reduction of a candidate a relative to a
// baseline b, in percent, (1 − stat(a)/stat(b))·100 (0 when stat(b) is 0),
// positive when a is lower. The statistic is the median by default.
//
// Each resample draws len(a) values of a, then len(b) values of b, from one
// Mulberry32 stream: the two samples are resampled independently, not as
// pairs. The interval is read off the sorted reductions as in BootstrapCI.
// With fewer than two values on either side the interval is the point
// estimate alone.
func BootstrapReductionCI(a, b []float64, opts BootstrapOptions) (BootstrapInterval, error) {
	o, err := opts.resolve()
	if err != nil {
		return BootstrapInterval{}, err
	}
	if err := checkFinite("a", a); err != nil {
		return BootstrapInterval{}, err
	}
	if err := checkFinite("b", b); err != nil {
		return BootstrapInterval{}, err
	}
	statistic := o.Statistic
	if statistic == nil {
		statistic = medianInPlace
	}
	point := reduction(statistic(slices.Clone(a)), statistic(slices.Clone(b)))
	if math.IsNaN(point) {
		return BootstrapInterval{}, fmt.Errorf("stats: the reduction of the samples is NaN")
	}
	iv := BootstrapInterval{Lower: point, Upper: point, PointEstimate: point, ConfidenceLevel: o.ConfidenceLevel, Resamples: o.Resamples}
	if len(a) <= 1 || len(b) <= 1 {
		return iv, nil
	}
	rng := NewMulberry32(o.Seed)
	samplerA, samplerB := newResampler(a, o.Statistic), newResampler(b, o.Statistic)
	reductions := make([]float64, o.Resamples)
	for i := range reductions {
		// a's draws, then b's: the order of ghx's stream.
		statA := samplerA.next(rng)
		statB := samplerB.next(rng)
		if reductions[i] = reduction(statA, statB); math.IsNaN(reductions[i]) {
			return BootstrapInterval{}, fmt.Errorf("stats: the reduction of resample %d is NaN", i)
		}
	}
	iv.Lower, iv.Upper = percentileBounds(reductions, o.ConfidenceLevel, point)
	return iv, nil
}

// reduction is (1 − a/b)·100, or 0 when b is 0.
func reduction(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return (1 - a/b) * 100
}

// percentileBounds sorts estimates and reads the interval's ends off them
// at ghx's indices; an index outside them gives the point estimate.
func percentileBounds(estimates []float64, level, point float64) (lower, upper float64) {
	sortAscending(estimates)
	r := len(estimates)
	alpha := 1 - level
	lowerIdx := max(0, int(math.Floor(alpha/2*float64(r))))
	upperIdx := min(r-1, int(math.Floor((1-alpha/2)*float64(r)))-1)
	lower, upper = point, point
	if lowerIdx < r {
		lower = estimates[lowerIdx]
	}
	if upperIdx >= 0 {
		upper = estimates[upperIdx]
	}
	return lower, upper
}

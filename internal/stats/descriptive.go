package stats

import (
	"math"
	"slices"
)

// Descriptive summarises a sample as ghx's agent-profiler does
// (computeDescriptive), to the bit.
type Descriptive struct {
	Count  int     `json:"count"`
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
	P95    float64 `json:"p95"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	// IQR is P75 − P25.
	IQR float64 `json:"iqr"`
	// StdDev is the sample standard deviation (n−1; 0 for one value).
	StdDev float64 `json:"stddev"`
	// CV is StdDev/Mean, 0 when the mean is 0.
	CV float64 `json:"cv"`
}

// Describe is ghx's computeDescriptive. Percentiles interpolate linearly
// at index p/100·(n−1) of the sorted values (lower·(1−f) + upper·f, which
// rounds differently from lower + (upper−lower)·f); the mean and the
// variance sum over the sorted values, smallest first. Empty input gives
// all zeros. values is not modified; NaN has no place in a sorted order
// and gives an unspecified result.
func Describe(values []float64) Descriptive {
	n := len(values)
	if n == 0 {
		return Descriptive{}
	}
	sorted := slices.Clone(values)
	sortAscending(sorted)
	mean := sum(sorted) / float64(n)
	d := Descriptive{
		Count:  n,
		Mean:   mean,
		Median: interpolate(sorted, 50),
		P90:    interpolate(sorted, 90),
		P95:    interpolate(sorted, 95),
		Min:    sorted[0],
		Max:    sorted[n-1],
		IQR:    interpolate(sorted, 75) - interpolate(sorted, 25),
		StdDev: math.Sqrt(sampleVariance(sorted, mean)),
	}
	if mean != 0 {
		d.CV = d.StdDev / mean
	}
	return d
}

package stats

import (
	"cmp"
	"math"
	"slices"
)

// resampler draws bootstrap resamples of one sample from a shared
// Mulberry32, exactly as ghx draws them (n indices floor(u·n) in a row),
// and returns each resample's statistic.
//
// For the default statistic, the median, it does not build and sort each
// resample: it counts how often each of the sample's values was drawn and
// walks the counts in sorted order to the middle, O(n) instead of
// O(n log n) per resample (10,000 resamples of 30 values: 5× faster).
// Equal values have equal bits, so the sorted resample, and its median,
// are the same either way. The one exception is −0 beside +0, equal to
// ghx's sort but not the same number: their order in ghx's stable sort is
// the order they were drawn in, so a sample holding both is resampled and
// sorted as ghx does.
type resampler struct {
	values    []float64
	statistic func([]float64) float64 // nil: the median, by counting
	resample  []float64

	sorted   []float64 // values in ascending order
	rank     []int     // rank[i] is the position of values[i] in sorted
	counts   []int     // draws of each rank in the current resample
	lo, hi   int       // positions of the median in a sorted resample
	fraction float64
}

func newResampler(values []float64, statistic func([]float64) float64) *resampler {
	r := &resampler{values: values, statistic: statistic}
	if statistic == nil && !mixedZeros(values) {
		n := len(values)
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return cmp.Compare(values[a], values[b]) })
		r.sorted = make([]float64, n)
		r.rank = make([]int, n)
		for pos, i := range order {
			r.sorted[pos] = values[i]
			r.rank[i] = pos
		}
		r.counts = make([]int, n)
		index := 0.5 * float64(n-1)
		r.lo, r.hi = int(math.Floor(index)), int(math.Ceil(index))
		r.fraction = index - math.Floor(index)
		return r
	}
	if r.statistic == nil {
		r.statistic = medianInPlace
	}
	r.resample = make([]float64, len(values))
	return r
}

// next draws one resample and returns its statistic.
func (r *resampler) next(rng *Mulberry32) float64 {
	n := len(r.values)
	if r.counts == nil {
		for j := range r.resample {
			r.resample[j] = r.values[rng.index(n)]
		}
		return r.statistic(r.resample)
	}
	for range n {
		r.counts[r.rank[rng.index(n)]]++
	}
	var lower, upper float64
	seen := 0
	for pos, c := range r.counts {
		if c == 0 {
			continue
		}
		if seen <= r.lo && r.lo < seen+c {
			lower = r.sorted[pos]
		}
		if seen += c; r.hi < seen {
			upper = r.sorted[pos]
			break
		}
	}
	clear(r.counts)
	return float64(lower*(1-r.fraction)) + float64(upper*r.fraction)
}

// mixedZeros reports whether values hold both −0 and +0.
func mixedZeros(values []float64) bool {
	var negative, positive bool
	for _, v := range values {
		if v == 0 {
			if math.Signbit(v) {
				negative = true
			} else {
				positive = true
			}
		}
	}
	return negative && positive
}

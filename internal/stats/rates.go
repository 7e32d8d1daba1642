package stats

import (
	"math"
	"slices"
)

// z95 is the two-sided 95% quantile of the standard normal distribution.
const z95 = 1.959963984540054

// Interval is a closed interval of proportions.
type Interval struct {
	Lower float64 `json:"lower"`
	Upper float64 `json:"upper"`
}

// Wilson returns the Wilson score 95% interval for successes out of n trials.
// With no trials nothing is known and the interval is [0, 1].
func Wilson(successes, n int) Interval {
	if n <= 0 {
		return Interval{Lower: 0, Upper: 1}
	}
	s := min(max(successes, 0), n)
	p := float64(s) / float64(n)
	nf := float64(n)
	z2 := z95 * z95
	denom := 1 + z2/nf
	center := (p + z2/(2*nf)) / denom
	half := z95 / denom * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi := center-half, center+half
	// The interval touches 0 or 1 exactly at the extremes; remove rounding noise.
	if s == 0 {
		lo = 0
	}
	if s == n {
		hi = 1
	}
	return Interval{Lower: max(lo, 0), Upper: min(hi, 1)}
}

// Rate returns part/whole, or 0 when whole is 0.
func Rate(part, whole int) float64 {
	if whole <= 0 {
		return 0
	}
	return float64(part) / float64(whole)
}

// PassAtK is the unbiased estimate of the probability that at least one of k
// runs drawn without replacement from n runs with c passes passes:
// 1 − C(n−c, k)/C(n, k). ok is false when k is not in 1..n.
func PassAtK(n, c, k int) (p float64, ok bool) {
	if k < 1 || k > n || c < 0 || c > n {
		return 0, false
	}
	// C(n−c, k)/C(n, k) = ∏_{i<k} (n−c−i)/(n−i); zero once a factor is zero.
	q := 1.0
	for i := range k {
		f := float64(n-c-i) / float64(n-i)
		if f <= 0 {
			return 1, true
		}
		q *= f
	}
	return 1 - q, true
}

// PassHatK is the unbiased estimate of the probability that all of k runs
// drawn without replacement from n runs with c passes pass: C(c, k)/C(n, k).
// ok is false when k is not in 1..n.
func PassHatK(n, c, k int) (p float64, ok bool) {
	if k < 1 || k > n || c < 0 || c > n {
		return 0, false
	}
	q := 1.0
	for i := range k {
		f := float64(c-i) / float64(n-i)
		if f <= 0 {
			return 0, true
		}
		q *= f
	}
	return q, true
}

// Percentile returns the p-th percentile (0..100) of sorted values by linear
// interpolation between closest ranks (index p/100·(n−1)); 0 when empty.
func Percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	idx := p / 100 * float64(n-1)
	lo := int(math.Floor(idx))
	hi := int(math.Ceil(idx))
	lo, hi = min(max(lo, 0), n-1), min(max(hi, 0), n-1)
	return sorted[lo] + (sorted[hi]-sorted[lo])*(idx-float64(lo))
}

// logChoose returns ln C(n, k) via log-gamma.
func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// FisherLess is the one-sided p-value of Fisher's exact test that the second
// group's success rate is lower than the first's: for the 2×2 table
//
//	first:  succ1 successes, fail1 failures
//	second: succ2 successes, fail2 failures
//
// it is P(X ≤ succ2) where X is hypergeometric with the table's margins.
// Probabilities are summed in log space with log-factorials, so large counts
// do not overflow. Negative counts give 1.
func FisherLess(succ1, fail1, succ2, fail2 int) float64 {
	if succ1 < 0 || fail1 < 0 || succ2 < 0 || fail2 < 0 {
		return 1
	}
	n := succ1 + fail1 + succ2 + fail2
	k := succ1 + succ2 // total successes
	n2 := succ2 + fail2
	if n == 0 || n2 == 0 || n2 == n {
		return 1
	}
	denom := logChoose(n, n2)
	lo := max(0, n2-(n-k))
	var p float64
	for x := lo; x <= succ2; x++ {
		p += math.Exp(logChoose(k, x) + logChoose(n-k, n2-x) - denom)
	}
	return min(p, 1)
}

// Holm adjusts p-values for multiple comparisons with the Holm–Bonferroni
// step-down method, which controls the family-wise error rate. The result
// is in the input's order.
func Holm(p []float64) []float64 {
	return HolmCounted(p, nil)
}

// HolmCounted is Holm over p-values each of which stands for times[i]
// equal p-values (1 each when times is nil; m is their sum): the adjusted
// value of each, which equal p-values share (Holm gives a run of ties the
// value of its first), so that 10^6 comparisons of a few distinct tables
// are adjusted in the time and memory of those few.
func HolmCounted(p []float64, times []int) []float64 {
	count := func(i int) int {
		if times == nil {
			return 1
		}
		return max(times[i], 0)
	}
	m := 0
	for i := range p {
		m += count(i)
	}
	order := make([]int, len(p))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpFloat(p[a], p[b]) })
	adj := make([]float64, len(p))
	running := 0.0
	rank := 0
	for _, i := range order {
		v := min(float64(m-rank)*p[i], 1)
		running = max(running, v)
		adj[i] = running
		rank += count(i)
	}
	return adj
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

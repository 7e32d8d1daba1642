package stats

import (
	"math"
)

// Table2x2 is one stratum of a stratified comparison: the first group
// (a baseline) and the second group (a candidate), each with its successes
// and failures.
type Table2x2 struct {
	Succ1, Fail1, Succ2, Fail2 int
}

// Methods of StratifiedLess.
const (
	// MethodExact is the exact conditional test: the distribution of the
	// second group's total successes given every stratum's margins.
	MethodExact = "exact"
	// MethodCMH is the Cochran–Mantel–Haenszel test with continuity
	// correction, a normal approximation of the same distribution.
	MethodCMH = "cmh"
)

// ExactWorkLimit bounds the work of the exact test in StratifiedLess, in
// multiply-adds (about 0.1 s on one core); past it the CMH approximation is
// used, which at such counts agrees with the exact test to a few digits.
const ExactWorkLimit = 200_000_000

// Stratified is the outcome of a one-sided stratified test.
type Stratified struct {
	// Method is MethodExact or MethodCMH.
	Method string
	// PValue is the one-sided p-value that the second group succeeds less
	// often than the first, stratum by stratum.
	PValue float64
	// Observed is the second group's successes over the informative strata;
	// Expected and Variance are their mean and variance given the strata's
	// margins if the groups did not differ.
	Observed int
	Expected float64
	Variance float64
	// Strata counts the informative strata: both groups ran, and the runs
	// neither all succeeded nor all failed.
	Strata int
}

// Strata are the tables of a stratified comparison with identical tables
// held once, counted: a comparison over 10^6 combinations whose counts
// take a handful of shapes costs a handful of entries, and its tests and
// power search work per shape, not per combination. The zero value is
// empty and ready to use.
type Strata struct {
	// Tables are the distinct tables in the order they were first added;
	// Counts[i] is how many times Tables[i] was added.
	Tables []Table2x2
	Counts []int
	index  map[Table2x2]int32
}

// GroupTables returns tables as Strata.
func GroupTables(tables []Table2x2) *Strata {
	s := &Strata{}
	for _, t := range tables {
		s.Add(t)
	}
	return s
}

// Add counts one more table t and returns its index in Tables.
func (s *Strata) Add(t Table2x2) int {
	return s.addN(t, 1)
}

func (s *Strata) addN(t Table2x2, n int) int {
	if s.index == nil {
		s.index = map[Table2x2]int32{}
	}
	i, ok := s.index[t]
	if !ok {
		i = int32(len(s.Tables))
		s.index[t] = i
		s.Tables = append(s.Tables, t)
		s.Counts = append(s.Counts, 0)
	}
	s.Counts[i] += n
	return int(i)
}

// StratifiedLess tests whether the second group succeeds less often than
// the first across strata that may differ in their base rates (scenarios,
// combinations), without pooling them: the common odds ratio of success
// (second over first) is 1 under the null and below 1 under the
// alternative. Conditioned on every stratum's margins, the second group's
// successes in a stratum are hypergeometric, and their sum S over the strata
// is the test statistic; the p-value is P(S ≤ observed).
//
// The exact conditional distribution of S is used (the convolution of the
// strata's hypergeometric distributions, as R's mantelhaen.test(exact =
// TRUE) computes it): with the few runs per combination agent evaluations
// have, the normal approximation is poor in the tail that matters. When the
// convolution would cost more than ExactWorkLimit, the counts are large
// enough for the Cochran–Mantel–Haenszel approximation, which is used then
// (Method says which). Strata that carry no information (a group without
// runs, or all runs passing or all failing) are left out; with none left,
// the p-value is 1. A table with a negative count is left out too.
func StratifiedLess(tables []Table2x2) Stratified {
	return GroupTables(tables).Less()
}

// Less is StratifiedLess over the strata, each table counted as many
// times as it was added.
func (s *Strata) Less() Stratified {
	return stratifiedLess(s, ExactWorkLimit)
}

// stratifiedLess is StratifiedLess with the exact test's work bounded by
// limit instead of ExactWorkLimit.
func stratifiedLess(tables *Strata, limit float64) Stratified {
	strata := informative(tables)
	res := Stratified{Method: MethodExact, PValue: 1}
	for _, s := range strata {
		res.Strata += s.times
		res.Observed += s.x * s.times
		res.Expected += s.mean() * float64(s.times)
		res.Variance += s.variance() * float64(s.times)
	}
	if len(strata) == 0 {
		return res
	}
	if res.Strata > 1 && exactWork(strata, limit) > limit { // one stratum is FisherLess, O(n)
		res.Method = MethodCMH
		res.PValue = cmhLess(float64(res.Observed), res.Expected, res.Variance)
		return res
	}
	res.PValue = exactLess(strata)
	return res
}

// fisherStratum is one stratum's p-value by FisherLess, so that a single
// stratum gets the very number the per-combination test computes: the
// two decisions on a one-row table cannot differ by rounding.
func fisherStratum(s stratum) float64 {
	return FisherLess(s.m-s.x, s.n1-(s.m-s.x), s.x, s.n2-s.x)
}

// ExactStratifiedLess is the exact conditional p-value of StratifiedLess,
// computed whatever it costs.
func ExactStratifiedLess(tables []Table2x2) float64 {
	strata := informative(GroupTables(tables))
	if len(strata) == 0 {
		return 1
	}
	return exactLess(strata)
}

// CMHLess is the one-sided Cochran–Mantel–Haenszel p-value that the second
// group succeeds less often than the first: Φ(z) for
// z = sign(Δ)·(|Δ| − ½)/√V, where Δ is the second group's successes minus
// their expectation and V their variance given the margins. The continuity
// correction of ½ is applied when |Δ| ≥ ½, as R's mantelhaen.test does.
func CMHLess(tables []Table2x2) float64 {
	var obs, mean, variance float64
	for _, s := range informative(GroupTables(tables)) {
		obs += float64(s.x * s.times)
		mean += s.mean() * float64(s.times)
		variance += s.variance() * float64(s.times)
	}
	return cmhLess(obs, mean, variance)
}

func cmhLess(obs, mean, variance float64) float64 {
	if variance <= 0 {
		return 1
	}
	delta := obs - mean
	correction := 0.0
	if math.Abs(delta) >= 0.5 {
		correction = 0.5
	}
	z := math.Copysign(math.Abs(delta)-correction, delta) / math.Sqrt(variance)
	return 0.5 * math.Erfc(-z/math.Sqrt2)
}

// stratum is an informative 2×2 table by its margins: n1 and n2 runs of
// the two groups, m successes in all, x of them the second group's; times
// is how many strata have these counts.
type stratum struct {
	n1, n2, m, x, times int
}

func informative(tables *Strata) []stratum {
	var out []stratum
	for i, t := range tables.Tables {
		if t.Succ1 < 0 || t.Fail1 < 0 || t.Succ2 < 0 || t.Fail2 < 0 || tables.Counts[i] <= 0 {
			continue
		}
		s := stratum{n1: t.Succ1 + t.Fail1, n2: t.Succ2 + t.Fail2, m: t.Succ1 + t.Succ2, x: t.Succ2, times: tables.Counts[i]}
		if s.n1 == 0 || s.n2 == 0 || s.m == 0 || s.m == s.n1+s.n2 {
			continue
		}
		out = append(out, s)
	}
	return out
}

// lo and hi bound the second group's successes given the margins.
func (s stratum) lo() int { return max(0, s.m-s.n1) }
func (s stratum) hi() int { return min(s.n2, s.m) }

func (s stratum) mean() float64 {
	return float64(s.n2) * float64(s.m) / float64(s.n1+s.n2)
}

func (s stratum) variance() float64 {
	n := float64(s.n1 + s.n2)
	return float64(s.n1) * float64(s.n2) * float64(s.m) * float64(s.n1+s.n2-s.m) / (n * n * (n - 1))
}

// logPMF returns ln P(X = lo+i) for the stratum's hypergeometric X, by the
// ratio of neighbouring terms in log space (no factorials, so no overflow,
// and no underflow however far in the tail a term lies).
func (s stratum) logPMF() []float64 {
	lo, hi := s.lo(), s.hi()
	n := s.n1 + s.n2
	out := make([]float64, hi-lo+1)
	for x := lo; x < hi; x++ {
		// P(x+1)/P(x) = (m−x)(n2−x) / ((x+1)(n−m−n2+x+1))
		num := float64(s.m-x) * float64(s.n2-x)
		den := float64(x+1) * float64(n-s.m-s.n2+x+1)
		out[x-lo+1] = out[x-lo] + math.Log(num/den)
	}
	top := out[0]
	for _, v := range out {
		top = max(top, v)
	}
	var sum float64
	for _, v := range out {
		sum += math.Exp(v - top)
	}
	norm := top + math.Log(sum)
	for i := range out {
		out[i] -= norm
	}
	return out
}

// tails returns the thresholds of the two ways to the p-value: the lower
// tail P(S ≤ obs) needs partial sums up to t above their minimum, the upper
// tail P(S ≥ obs+1) up to u below their maximum (u < 0: it is empty).
func tails(strata []stratum) (t, u int) {
	var obs, lo, hi int
	for _, s := range strata {
		obs += s.x * s.times
		lo += s.lo() * s.times
		hi += s.hi() * s.times
	}
	return obs - lo, hi - obs - 1
}

// exactLess computes P(S ≤ obs) from whichever tail is shorter to reach.
func exactLess(strata []stratum) float64 {
	if len(strata) == 1 && strata[0].times == 1 {
		return fisherStratum(strata[0])
	}
	t, u := tails(strata)
	if u < 0 {
		return 1
	}
	if t <= u {
		return min(math.Exp(logTailMass(strata, t, false)), 1)
	}
	return min(max(1-math.Exp(logTailMass(strata, u, true)), 0), 1)
}

// exactWork is the number of multiply-adds exactLess will do, or a
// number above enough once it is known to exceed enough.
func exactWork(strata []stratum, enough float64) float64 {
	t, u := tails(strata)
	if u < 0 {
		return 0
	}
	limit := min(t, u)
	var work float64
	length := 1
	for _, s := range strata {
		w := min(s.hi()-s.lo(), limit)
		for r := range s.times {
			if length == limit+1 || w == 0 {
				// The same work for each of the remaining repetitions.
				work += float64(s.times-r) * float64(length) * float64(w+1)
				break
			}
			work += float64(length) * float64(w+1)
			length = min(length+w, limit+1)
		}
		if work > enough {
			return work
		}
	}
	return work
}

// logTailMass returns ln P(Σ y ≤ limit), where y is each stratum's
// successes above its minimum (reversed: below its maximum). Only partial
// sums up to limit are kept, rescaled after each stratum so that the
// largest is 1, with the scale kept as a logarithm: tails far below the
// smallest float64 are still computed to full relative precision.
func logTailMass(strata []stratum, limit int, reversed bool) float64 {
	cur := make([]float64, 1, limit+1)
	cur[0] = 1
	next := make([]float64, 0, limit+1)
	logScale := 0.0
	for _, s := range strata {
		lp := s.logPMF()
		w := min(len(lp)-1, limit)
		at := func(y int) float64 {
			if reversed {
				return lp[len(lp)-1-y]
			}
			return lp[y]
		}
		top := math.Inf(-1)
		for y := 0; y <= w; y++ {
			top = max(top, at(y))
		}
		q := make([]float64, w+1)
		for y := range q {
			q[y] = math.Exp(at(y) - top)
		}
		for range s.times { // identical strata, convolved one by one
			size := min(len(cur)-1+w, limit) + 1
			next = next[:size]
			clear(next)
			for k, a := range cur {
				if a == 0 {
					continue
				}
				for y := 0; y <= w && k+y < size; y++ {
					next[k+y] += a * q[y]
				}
			}
			peak := 0.0
			for _, v := range next {
				peak = max(peak, v)
			}
			for i := range next {
				next[i] /= peak
			}
			logScale += top + math.Log(peak)
			cur, next = next, cur
		}
	}
	var sum float64
	for _, v := range cur {
		sum += v
	}
	return logScale + math.Log(sum)
}

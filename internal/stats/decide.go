package stats

import (
	"math"
	"sort"
	"strconv"
)

// RelativeTolerance is how far below α, relative to α, a p-value must lie
// for Below to call it significant. The exact tests' p-values are sums of
// many floating-point terms and land a few units in the last place off
// their true value: 3/3 passes against 0/3 has p = 1/20 exactly, computed
// as 0.04999999999999996. A true p-value within this tolerance under α
// is taken for α itself, and the documented rule p < α then says no. No
// exact test on the counts of an evaluation has a true p-value that close to
// α without being α.
const RelativeTolerance = 1e-9

// Below reports whether p is significant at level alpha: p < α, decided
// with RelativeTolerance so that a p-value equal to α up to floating-point
// error is not. Every decision of a p-value against α (each combination's
// test, after Holm's correction, the stratified overall test, the
// efficiency tests) goes through it, so two tests that compute one p-value
// by different routes decide alike.
func Below(p, alpha float64) bool {
	return p < alpha*(1-RelativeTolerance)
}

// RoundP rounds a p-value to 13 significant digits, which removes the
// floating-point noise of the exact tests (0.04999999999999996 → 0.05)
// while keeping every digit a reader could use.
func RoundP(p float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(p, 'g', 13, 64), 64)
	if err != nil {
		return p // NaN and infinities format and parse back; nothing else fails
	}
	return r
}

// MinDetectableDrop is the power of FisherLess for one combination: with
// succ1 passes out of n1 baseline runs and n2 candidate runs, the smallest
// drop in pass rate, succ1/n1 − c/n2, whose candidate count c the test
// flags at level alpha (Below). It searches the candidate's possible counts
// exactly (the p-value grows with c, so by bisection). ok is false when no
// outcome of the candidate, not even 0 passes, would be flagged: with these
// runs the test cannot see any drop.
func MinDetectableDrop(succ1, n1, n2 int, alpha float64) (drop float64, ok bool) {
	if n1 <= 0 || n2 <= 0 || succ1 < 0 || succ1 > n1 {
		return 0, false
	}
	flagged := func(c int) bool {
		return float64(c)/float64(n2) < float64(succ1)/float64(n1) && Below(FisherLess(succ1, n1-succ1, c, n2-c), alpha)
	}
	// The largest c that is flagged: flagged is true on 0..c* and false above.
	c := sort.Search(n2+1, func(c int) bool { return !flagged(c) }) - 1
	if c < 0 {
		return 0, false
	}
	return float64(succ1)/float64(n1) - float64(c)/float64(n2), true
}

// powerWorkLimit bounds the exact test's work in each step of
// MinDetectableStratifiedDrop's search (about 5 ms on one core).
const powerWorkLimit = 1e7

// MinDetectableStratifiedDrop is the power of StratifiedLess over several
// combinations: the smallest drop in the overall pass rate (the baseline's
// passes over its runs minus the candidate's) that the test flags at level
// alpha, for a candidate that keeps each combination's baseline rate (its
// expected passes, rounded) and loses k passes spread over the combinations
// in proportion to those passes (largest remainders first; among equal
// remainders, combinations with identical counts together, those first
// seen first). The smallest such k is found by bisection over k,
// each k tested as StratifiedLess tests it, except that the exact test is
// used only up to powerWorkLimit (the CMH approximation past it, as
// StratifiedLess does past ExactWorkLimit): a dozen exact tests at
// ExactWorkLimit would take seconds, and the power is a guide, not a verdict. Tables give each combination's
// baseline counts and the candidate's runs (Succ2+Fail2); ok is false when
// no k, not even every pass lost, would be flagged.
func MinDetectableStratifiedDrop(tables []Table2x2, alpha float64) (drop float64, ok bool) {
	return GroupTables(tables).MinDetectableDrop(alpha)
}

// MinDetectableDrop is MinDetectableStratifiedDrop over the strata, each
// table counted as many times as it was added. Its work and memory grow
// with the distinct tables, not with how many there are.
func (s *Strata) MinDetectableDrop(alpha float64) (drop float64, ok bool) {
	tables, counts := s.Tables, s.Counts
	n := len(tables)
	keep := make([]int, n) // a combination's passes with nothing changed
	var total, base1, runs1, runs2 int
	for i, t := range tables {
		n1, n2 := t.Succ1+t.Fail1, t.Succ2+t.Fail2
		if t.Succ1 < 0 || t.Fail1 < 0 || t.Succ2 < 0 || t.Fail2 < 0 || n1 == 0 || n2 == 0 || counts[i] <= 0 {
			continue
		}
		keep[i] = int(math.Round(float64(t.Succ1) / float64(n1) * float64(n2)))
		c := counts[i]
		total += keep[i] * c
		base1, runs1, runs2 = base1+t.Succ1*c, runs1+n1*c, runs2+n2*c
	}
	if runs1 == 0 || runs2 == 0 {
		return 0, false
	}
	type rem struct {
		i    int
		frac float64
	}
	rems := make([]rem, 0, n)
	lost := make([]int, n)
	outcome := func(k int) *Strata {
		given := 0
		rems = rems[:0]
		for i := range tables {
			lost[i] = 0
			if keep[i] == 0 || counts[i] <= 0 {
				continue
			}
			exact := float64(k) * float64(keep[i]) / float64(total)
			lost[i] = int(math.Floor(exact))
			given += lost[i] * counts[i]
			rems = append(rems, rem{i, exact - float64(lost[i])})
		}
		sort.SliceStable(rems, func(a, b int) bool { return rems[a].frac > rems[b].frac })
		// extra[i] of the combinations with table i lose one pass more.
		extra := make(map[int]int)
		for j := 0; given < k && j < len(rems); j++ {
			e := min(counts[rems[j].i], k-given)
			extra[rems[j].i] = e
			given += e
		}
		out := &Strata{}
		for i, t := range tables {
			if counts[i] <= 0 {
				continue
			}
			n2 := t.Succ2 + t.Fail2
			c := keep[i] - lost[i]
			if e := extra[i]; e > 0 {
				out.addN(Table2x2{Succ1: t.Succ1, Fail1: t.Fail1, Succ2: c - 1, Fail2: n2 - c + 1}, e)
			}
			if rest := counts[i] - extra[i]; rest > 0 {
				out.addN(Table2x2{Succ1: t.Succ1, Fail1: t.Fail1, Succ2: c, Fail2: n2 - c}, rest)
			}
		}
		return out
	}
	flagged := func(k int) bool {
		res := stratifiedLess(outcome(k), powerWorkLimit)
		return float64(res.Observed) < res.Expected && Below(res.PValue, alpha)
	}
	// The smallest k flagged: flagged is false on 0..k*−1 and true from k*.
	k := sort.Search(total+1, flagged)
	if k > total {
		return 0, false
	}
	return float64(base1)/float64(runs1) - float64(total-k)/float64(runs2), true
}

package stats

import (
	"math/big"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exactFisherLess is FisherLess in exact rationals, the reference the
// floating-point tests are decided against.
func exactFisherLess(succ1, fail1, succ2, fail2 int) *big.Rat {
	n := int64(succ1 + fail1 + succ2 + fail2)
	k := int64(succ1 + succ2)
	n2 := int64(succ2 + fail2)
	sum := new(big.Int)
	for x := max(0, n2-(n-k)); x <= int64(succ2); x++ {
		sum.Add(sum, new(big.Int).Mul(new(big.Int).Binomial(k, x), new(big.Int).Binomial(n-k, n2-x)))
	}
	return new(big.Rat).SetFrac(sum, new(big.Int).Binomial(n, n2))
}

// TestBelowDecidesAsTheExactRationalsDo: p < α is decided as exact
// arithmetic decides it: 3/3 → 0/3 has p = 1/20 exactly, computed a few
// units in the last place under 0.05, and is not significant at 0.05 (issue
// 25 point 2); the per-combination and the stratified test agree on a
// one-row table.
func TestBelowDecidesAsTheExactRationalsDo(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name                       string
		succ1, fail1, succ2, fail2 int
		alpha                      float64
		want                       bool
	}{
		{"3/3 to 0/3 at 0.05 is p = α", 3, 0, 0, 3, 0.05, false},
		{"3/3 to 0/3 at 0.0500001", 3, 0, 0, 3, 0.0500001, true},
		{"2/2 to 0/3 at 0.1 is p = α", 2, 0, 0, 3, 0.1, false},
		{"4/4 to 1/4 at 0.1 (p = 1/14)", 4, 0, 1, 3, 0.1, true},
		{"10/10 to 0/10", 10, 0, 0, 10, 0.05, true},
		{"5/5 to 2/5 (p = 1/6)", 5, 0, 2, 3, 0.05, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := FisherLess(tc.succ1, tc.fail1, tc.succ2, tc.fail2)
			exact := exactFisherLess(tc.succ1, tc.fail1, tc.succ2, tc.fail2)
			// α as the decimal the user typed, an exact rational.
			a, ok := new(big.Rat).SetString(strconv.FormatFloat(tc.alpha, 'g', -1, 64))
			require.True(t, ok)
			assert.Equal(t, exact.Cmp(a) < 0, Below(p, tc.alpha), "exact p = %s, float p = %v", exact.RatString(), p)
			assert.Equal(t, tc.want, Below(p, tc.alpha))
			one := StratifiedLess([]Table2x2{{tc.succ1, tc.fail1, tc.succ2, tc.fail2}})
			assert.Equal(t, p, one.PValue, "one row: the overall test is the row's test")
		})
	}
}

// TestBelowMatchesExactRationalsOnEveryTable: over every table up to 8 runs a
// side and every α of the form j/20, Below on FisherLess decides as the exact
// rational p-value compared with the exact α does.
func TestBelowMatchesExactRationalsOnEveryTable(t *testing.T) {
	t.Parallel()
	for n1 := 1; n1 <= 8; n1++ {
		for n2 := 1; n2 <= 8; n2++ {
			for s1 := 0; s1 <= n1; s1++ {
				for s2 := 0; s2 <= n2; s2++ {
					p := FisherLess(s1, n1-s1, s2, n2-s2)
					exact := exactFisherLess(s1, n1-s1, s2, n2-s2)
					for j := 1; j < 20; j++ {
						alpha := float64(j) / 20
						want := exact.Cmp(big.NewRat(int64(j), 20)) < 0
						require.Equal(t, want, Below(p, alpha), "%d/%d vs %d/%d at %d/20: exact p %s, float %v", s1, n1, s2, n2, j, exact.RatString(), p)
					}
				}
			}
		}
	}
}

// TestMinDetectableDropIsTheLargestFlaggedOutcome: the bisection finds the
// drop a linear scan over every candidate count finds.
func TestMinDetectableDropIsTheLargestFlaggedOutcome(t *testing.T) {
	t.Parallel()
	for n1 := 1; n1 <= 12; n1++ {
		for n2 := 1; n2 <= 12; n2++ {
			for s1 := 0; s1 <= n1; s1++ {
				best := -1
				for c := 0; c <= n2; c++ {
					if float64(c)/float64(n2) < float64(s1)/float64(n1) && Below(FisherLess(s1, n1-s1, c, n2-c), 0.05) {
						best = c
					}
				}
				drop, ok := MinDetectableDrop(s1, n1, n2, 0.05)
				require.Equal(t, best >= 0, ok, "%d/%d, %d runs", s1, n1, n2)
				if ok {
					assert.InDelta(t, float64(s1)/float64(n1)-float64(best)/float64(n2), drop, 1e-12)
				}
			}
		}
	}
	_, ok := MinDetectableDrop(3, 3, 3, 0.05)
	assert.False(t, ok, "3 runs a side cannot show a drop at 0.05: 3/3 → 0/3 has p = 0.05")
	drop, ok := MinDetectableDrop(20, 20, 20, 0.05)
	require.True(t, ok)
	assert.InDelta(t, 0.25, drop, 1e-12, "20/20 → 15/20 is the smallest drop flagged (p = 0.0237); 16/20 has p = 0.053")
}

// TestMinDetectableStratifiedDrop: the overall power grows with the number
// of combinations, and with one combination it is the combination's own.
func TestMinDetectableStratifiedDrop(t *testing.T) {
	t.Parallel()
	one, ok1 := MinDetectableStratifiedDrop([]Table2x2{{Succ1: 20, Fail1: 0, Succ2: 20, Fail2: 0}}, 0.05)
	alone, ok2 := MinDetectableDrop(20, 20, 20, 0.05)
	require.True(t, ok1)
	require.True(t, ok2)
	assert.InDelta(t, alone, one, 1e-12)
	var many []Table2x2
	for range 10 {
		many = append(many, Table2x2{Succ1: 3, Fail1: 0, Succ2: 3, Fail2: 0})
	}
	drop, ok := MinDetectableStratifiedDrop(many, 0.05)
	require.True(t, ok, "ten combinations of 3 runs together can see what none can alone")
	assert.Less(t, drop, 0.5)
	_, ok = MinDetectableStratifiedDrop([]Table2x2{{Succ1: 3, Fail1: 0, Succ2: 0, Fail2: 3}}, 0.05)
	assert.False(t, ok)
}

func TestRoundP(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 0.05, RoundP(0.04999999999999996))
	assert.Equal(t, 0.1, RoundP(0.10000000000000007))
	assert.Equal(t, 1.234e-20, RoundP(1.234e-20))
	assert.Equal(t, 0.0, RoundP(0))
	assert.Equal(t, 1.0, RoundP(1))
}

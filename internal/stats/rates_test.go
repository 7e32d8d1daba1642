package stats

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWilson(t *testing.T) {
	t.Parallel()
	// Hand-computed: centre (p + z²/2n)/(1 + z²/n), half-width
	// z/(1 + z²/n)·√(p(1−p)/n + z²/4n²), z = 1.959964.
	tests := []struct {
		name     string
		s, n     int
		lo, hi   float64
		exactEnd bool
	}{
		{"no runs is uninformative", 0, 0, 0, 1, true},
		{"0/10", 0, 10, 0, 0.2775328, true},
		{"7/10", 7, 10, 0.3967781, 0.8922087, false},
		{"10/10", 10, 10, 0.7224672, 1, true},
		{"1/1", 1, 1, 0.2065493, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			iv := Wilson(tt.s, tt.n)
			assert.InDelta(t, tt.lo, iv.Lower, 1e-6)
			assert.InDelta(t, tt.hi, iv.Upper, 1e-6)
			assert.LessOrEqual(t, iv.Lower, iv.Upper)
		})
	}
	assert.Equal(t, 0.0, Wilson(0, 10).Lower, "exactly 0 at the edge")
	assert.Equal(t, 1.0, Wilson(10, 10).Upper, "exactly 1 at the edge")
}

func TestPassAtKAndPassHatK(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		n, c, k   int
		at, hat   float64
		undefined bool
	}{
		// n=5, c=2, k=2: pass@2 = 1 − C(3,2)/C(5,2) = 1 − 3/10; pass^2 = C(2,2)/C(5,2) = 1/10.
		{"5,2,2", 5, 2, 2, 0.7, 0.1, false},
		// k=1 is the pass rate.
		{"5,2,1", 5, 2, 1, 0.4, 0.4, false},
		// n=4, c=3, k=3: pass@3 = 1 − C(1,3)/C(4,3) = 1; pass^3 = C(3,3)/C(4,3) = 1/4.
		{"4,3,3", 4, 3, 3, 1, 0.25, false},
		// n=3, c=1, k=2: pass@2 = 1 − C(2,2)/C(3,2) = 2/3; pass^2 = 0.
		{"3,1,2", 3, 1, 2, 2.0 / 3, 0, false},
		{"all pass", 6, 6, 4, 1, 1, false},
		{"none pass", 6, 0, 4, 0, 0, false},
		{"k beyond n", 3, 1, 4, 0, 0, true},
		{"k zero", 3, 1, 0, 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			at, ok1 := PassAtK(tt.n, tt.c, tt.k)
			hat, ok2 := PassHatK(tt.n, tt.c, tt.k)
			require.Equal(t, !tt.undefined, ok1)
			require.Equal(t, !tt.undefined, ok2)
			assert.InDelta(t, tt.at, at, 1e-12)
			assert.InDelta(t, tt.hat, hat, 1e-12)
		})
	}
}

func TestPercentile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		vals []float64
		p    float64
		want float64
	}{
		{"empty", nil, 50, 0},
		{"one", []float64{7}, 99, 7},
		{"median of 1..5", []float64{1, 2, 3, 4, 5}, 50, 3},
		{"p90 of 1..5", []float64{1, 2, 3, 4, 5}, 90, 4.6},
		{"p99 of 1..5", []float64{1, 2, 3, 4, 5}, 99, 4.96},
		{"median of even count", []float64{10, 20, 30, 40}, 50, 25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.InDelta(t, tt.want, Percentile(tt.vals, tt.p), 1e-12)
		})
	}
}

func TestFisherLess(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                       string
		succ1, fail1, succ2, fail2 int
		want                       float64
	}{
		// 10/10 → 5/10: margins 15 passes of 20, second group 10; X ≥ 5,
		// P(X ≤ 5) = P(X = 5) = C(15,5)·C(5,5)/C(20,10) = 3003/184756.
		{"10/10 vs 5/10", 10, 0, 5, 5, 3003.0 / 184756},
		// 3/4 → 1/4: P(X ≤ 1) = (C(4,0)C(4,4) + C(4,1)C(4,3))/C(8,4) = 17/70.
		{"3/4 vs 1/4", 3, 1, 1, 3, 17.0 / 70},
		// No drop: the whole distribution lies at or below the observation.
		{"improvement", 1, 3, 4, 0, 1},
		{"equal 2/4", 2, 2, 2, 2, 53.0 / 70},
		{"empty second group", 3, 1, 0, 0, 1},
		{"negative", -1, 0, 0, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.InDelta(t, tt.want, FisherLess(tt.succ1, tt.fail1, tt.succ2, tt.fail2), 1e-12)
		})
	}
	t.Run("large counts stay finite", func(t *testing.T) {
		t.Parallel()
		p := FisherLess(9000, 1000, 8800, 1200)
		assert.False(t, math.IsNaN(p))
		assert.Less(t, p, 1e-4)
	})
}

func TestHolm(t *testing.T) {
	t.Parallel()
	// Sorted 0.01, 0.02, 0.04 with m = 3: 0.03, 0.04, 0.04 (monotone).
	assert.InDeltaSlice(t, []float64{0.04, 0.03, 0.04}, Holm([]float64{0.04, 0.01, 0.02}), 1e-12)
	assert.Equal(t, []float64{0.7}, Holm([]float64{0.7}))
	assert.Equal(t, []float64{1, 1}, Holm([]float64{0.7, 0.9}))
	assert.Empty(t, Holm(nil))
}

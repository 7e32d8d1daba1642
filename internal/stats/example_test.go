package stats_test

import (
	"fmt"

	"github.com/agenteval/agenteval/internal/stats"
)

// A candidate that passes none of 120 runs where the baseline passed 62,
// over 24 combinations of 5 runs: no combination alone is significant
// after a correction for 24 tests, all of them together are.
func ExampleStratifiedLess() {
	var tables []stats.Table2x2
	for _, passed := range []int{5, 5, 5, 5, 4, 4, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0} {
		tables = append(tables, stats.Table2x2{Succ1: passed, Fail1: 5 - passed, Succ2: 0, Fail2: 5})
	}
	res := stats.StratifiedLess(tables)
	fmt.Printf("%s test over %d combinations: %d passes where %.1f were expected, p = %.2g\n",
		res.Method, res.Strata, res.Observed, res.Expected, res.PValue)
	// Output: exact test over 22 combinations: 0 passes where 31.0 were expected, p = 1.5e-25
}

// The wall time of a candidate mode against a baseline, as ghx's report
// compares modes (1,000 resamples and permutations, seed 42).
func ExampleCompareGroups() {
	candidate := []float64{10, 12, 11, 13, 10}
	baseline := []float64{20, 22, 21, 23, 20}
	c, err := stats.CompareGroups(candidate, baseline, stats.GroupOptions{
		Bootstrap:   stats.BootstrapOptions{Resamples: 1000, Seed: 42},
		Permutation: stats.PermutationOptions{Permutations: 1000, Seed: 42},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("Reduction %.1f%% [%.1f%%, %.1f%%], d = %.3f (%s), p = %.4f\n",
		c.ReductionPct, c.CI95[0], c.CI95[1], c.EffectSize, c.EffectMagnitude, c.PValue)
	// Output: Reduction 47.6% [38.1%, 54.5%], d = -7.670 (large), p = 0.0070
}

// A median with its 95% bootstrap interval, ghx's defaults: 10,000
// resamples, seed 42.
func ExampleBootstrapCI() {
	iv, err := stats.BootstrapCI([]float64{1523.4, 1877.25, 1402.1, 2210.9, 1650, 1733.33, 1999.99, 1580.5}, stats.BootstrapOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("median %v ms, 95%% interval [%v, %v]\n", iv.PointEstimate, iv.Lower, iv.Upper)
	// Output: median 1691.665 ms, 95% interval [1523.4, 1999.99]
}
func ExampleWilson() {
	for _, c := range [][2]int{{0, 10}, {7, 10}, {10, 10}} {
		iv := stats.Wilson(c[0], c[1])
		fmt.Printf("%d/%d: [%.4f, %.4f]\n", c[0], c[1], iv.Lower, iv.Upper)
	}
	// Output:
	// 0/10: [0.0000, 0.2775]
	// 7/10: [0.3968, 0.8922]
	// 10/10: [0.7225, 1.0000]
}

func ExampleFisherLess() {
	// Baseline 10/10 passed, candidate 5/10: is the drop significant?
	fmt.Printf("p = %.4f\n", stats.FisherLess(10, 0, 5, 5))
	// Output:
	// p = 0.0163
}

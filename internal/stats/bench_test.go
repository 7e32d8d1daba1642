package stats

import (
	"fmt"
	"testing"
)

// benchSample is n wall times in ms, deterministic and unsorted.
func benchSample(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = 1000 + float64((i*7919)%1000)/7 + float64(i)/10
	}
	return out
}

// BenchmarkBootstrapCI runs at ghx's default of 10,000 resamples.
func BenchmarkBootstrapCI(b *testing.B) {
	for _, n := range []int{5, 30, 100} {
		values := benchSample(n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := BootstrapCI(values, BootstrapOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBootstrapReductionCI runs at ghx's default of 10,000 resamples.
func BenchmarkBootstrapReductionCI(b *testing.B) {
	for _, n := range []int{5, 30, 100} {
		a, base := benchSample(n), benchSample(n+1)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := BootstrapReductionCI(a, base, BootstrapOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPermutationTest runs at ghx's default of 10,000 permutations.
func BenchmarkPermutationTest(b *testing.B) {
	for _, n := range []int{5, 30} {
		a, base := benchSample(n), benchSample(n+1)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := PermutationTest(a, base, PermutationOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkStratifiedLess(b *testing.B) {
	for _, c := range []struct {
		name   string
		tables []Table2x2
	}{
		{"collapse 24x5", collapseTables()},
		{"400x30 exact", largeTables(400)},
		{"2000x30 cmh", largeTables(2000)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				StratifiedLess(c.tables)
			}
		})
	}
}

// BenchmarkMinDetectableStratifiedDrop is the power of the overall test
// for a comparison of many combinations: each step of the bisection is one
// StratifiedLess.
func BenchmarkMinDetectableStratifiedDrop(b *testing.B) {
	for _, size := range []struct{ strata, runs int }{{24, 5}, {1000, 10}, {1000, 100}} {
		tables := make([]Table2x2, size.strata)
		for i := range tables {
			pass := size.runs * (i%5 + 5) / 10
			tables[i] = Table2x2{Succ1: pass, Fail1: size.runs - pass, Succ2: pass, Fail2: size.runs - pass}
		}
		b.Run(fmt.Sprintf("strata=%d,runs=%d", size.strata, size.runs), func(b *testing.B) {
			for b.Loop() {
				if _, ok := MinDetectableStratifiedDrop(tables, 0.05); !ok {
					b.Fatal("no drop detectable")
				}
			}
		})
	}
}

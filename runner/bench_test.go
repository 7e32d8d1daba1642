package runner

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// jsonDiscard encodes results as the JSONL writer does, without the disk,
// so the benchmark measures the runner's own overhead plus encoding.
type jsonDiscard struct{ buf *[]byte }

func newJSONDiscard() jsonDiscard { return jsonDiscard{buf: new([]byte)} }

func (d jsonDiscard) Write(r *JobResult) error {
	b, err := appendJobResult((*d.buf)[:0], r)
	*d.buf = b
	return err
}

// BenchmarkRunEcho is the runner's overhead per job: an in-process echo
// agent, three string evaluations (the workload of
// ../shared/bench/compare-promptfoo.sh), results encoded as JSONL.
func BenchmarkRunEcho(b *testing.B) {
	s := loadScenario(b, "echo.scenario.yaml")
	b.ReportAllocs()
	jobs, _, err := Combine([]Source{ScenarioSource("echo", s, b.N)}, Shard{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := time.Now()
	sum, err := Run(b.Context(), Config{Agent: Echo(), Results: newJSONDiscard()}, jobs)
	if err != nil || sum.Passed != int64(b.N) {
		b.Fatalf("sum %+v err %v", sum, err)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "jobs/s")
}

// BenchmarkRunEchoPeakMemory runs 10^4 and 10^5 jobs and reports the
// highest heap in use, sampled every 1000 jobs: it stays flat as the
// number of jobs grows.
func BenchmarkRunEchoPeakMemory(b *testing.B) {
	s := loadScenario(b, "echo.scenario.yaml")
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("jobs=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var peak uint64
			for b.Loop() {
				runtime.GC()
				jobs, _, _ := Combine([]Source{ScenarioSource("echo", s, n)}, Shard{})
				start := time.Now()
				sum, err := Run(b.Context(), Config{Agent: Echo(), Results: newJSONDiscard(),
					Progress: func(p Progress) {
						if p.Done%1000 == 0 {
							var ms runtime.MemStats
							runtime.ReadMemStats(&ms)
							peak = max(peak, ms.HeapInuse)
						}
					}}, jobs)
				if err != nil || sum.Passed != int64(n) {
					b.Fatalf("sum %+v err %v", sum, err)
				}
				b.ReportMetric(float64(n)/time.Since(start).Seconds(), "jobs/s")
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}

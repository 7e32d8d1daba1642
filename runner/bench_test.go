package runner

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
)

// jsonDiscard encodes results as the results writer does, without the
// disk, so the benchmark measures the runner's own overhead plus encoding.
type jsonDiscard struct{ buf *[]byte }

func newJSONDiscard() jsonDiscard { return jsonDiscard{buf: new([]byte)} }

func (d jsonDiscard) Write(r *results.Job) error {
	b, err := results.AppendJob((*d.buf)[:0], r)
	*d.buf = b
	return err
}

// BenchmarkRunEcho is the runner's overhead per job: an in-process echo
// agent, three string evaluations (the workload of
// ../shared/bench/compare-promptfoo.sh), results encoded as JSONL.
func BenchmarkRunEcho(b *testing.B) {
	s := loadScenario(b, "echo.scenario.yaml")
	b.ReportAllocs()
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("echo", s, b.N)}, matrix.Shard{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := time.Now()
	sum, err := Run(b.Context(), Config{Agent: echoAgent{}, Results: newJSONDiscard()}, jobs)
	if err != nil || sum.Passed != int64(b.N) {
		b.Fatalf("sum %+v err %v", sum, err)
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "jobs/s")
}

// BenchmarkRunFunc is BenchmarkRunEcho with the echo written as an
// AgentFunc: a host's own in-process agent, whose calls the runner guards
// (it cannot know the function honours its context), on the goroutine
// each worker keeps.
func BenchmarkRunFunc(b *testing.B) {
	s := loadScenario(b, "echo.scenario.yaml")
	b.ReportAllocs()
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("echo", s, b.N)}, matrix.Shard{})
	if err != nil {
		b.Fatal(err)
	}
	agent := AgentFunc(func(_ context.Context, _ SessionConfig, m string) (Reply, error) { return Reply{Text: m}, nil })
	b.ResetTimer()
	start := time.Now()
	sum, err := Run(b.Context(), Config{Agent: agent, Results: newJSONDiscard()}, jobs)
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
				jobs, _, _ := sources.Combine([]sources.Source{sources.Scenario("echo", s, n)}, matrix.Shard{})
				start := time.Now()
				sum, err := Run(b.Context(), Config{Agent: echoAgent{}, Results: newJSONDiscard(),
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

// BenchmarkResumeSkip is the cost of skipping recorded matrix jobs on
// --resume: each is built, its id looked up, and passed over (10^5 a loop).
func BenchmarkResumeSkip(b *testing.B) {
	src, err := sources.Matrix(shardCostMatrix(b), sources.Options{MaxJobs: -1})
	if err != nil {
		b.Fatal(err)
	}
	const n = 100_000
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		jobs, _, _ := sources.Combine([]sources.Source{src}, matrix.Shard{})
		first := func(yield func(matrix.Job, error) bool) {
			i := 0
			for j, err := range jobs {
				if i == n || !yield(j, err) {
					return
				}
				i++
			}
		}
		sum, err := Run(b.Context(), Config{Agent: echoAgent{}, Skip: func(string) bool { return true }}, first)
		if err != nil || sum.Skipped != n {
			b.Fatalf("sum %+v err %v", sum, err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N*n), "ns/skip")
}

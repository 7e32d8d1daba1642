package report

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agenteval/agenteval/results"
)

// writeOneAxisRun writes, into a file under dir, the results of the echo
// workload over a one-axis matrix of n values (one combination per job, as
// `agenteval run --agent echo` writes them for bench/scale.sh): three
// evaluations and a two-turn transcript a job, about 1.4 KiB a record; 1
// in 97 fails. It returns the file's path.
func writeOneAxisRun(tb testing.TB, dir string, n int, failEvery int) string {
	tb.Helper()
	path := filepath.Join(dir, fmt.Sprintf("one-axis-%d-%d.jsonl", n, failEvery))
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintln(w, planLine(tb, results.Plan{RunID: "scale", Started: t0, TotalJobs: int64(n), Agent: "echo", Sources: []string{"m.matrix.yaml"}}))
	for i := range n {
		q := fmt.Sprintf("Question %d: what is topic-%d?", i, i)
		passed := failEvery == 0 || i%failEvery != failEvery-1
		j := results.Job{ID: fmt.Sprintf("m/c-%08x/run-1", i), Index: int64(i), Scenario: "base", ScenarioName: "echo throughput",
			Matrix: "m", Combination: fmt.Sprintf("c-%08x", i), Run: 1, Attempts: 1, Completed: true, Passed: passed,
			Strategy: "all_pass", Params: map[string]any{"run[0].input": q}, Started: t0.Add(time.Duration(i) * time.Millisecond),
			DurationMS: float64(i%13) / 10, Transcript: []results.Turn{{Role: "user", Text: q}, {Role: "assistant", Text: q}}}
		for k, typ := range []string{"string_contains", "regex_match", "string_contains"} {
			e := results.Evaluation{Type: typ, Scope: "step", Turn: -1, Passed: true, Score: 1, Weight: 1,
				Message: fmt.Sprintf("reply matches check %d at %q", k, q)}
			if !passed && k == 1 {
				e.Passed, e.Score, e.Message = false, 0, "reply does not match"
			}
			j.Evaluations = append(j.Evaluations, e)
		}
		if _, err := fmt.Fprintln(w, jobLine(tb, j)); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkScale renders every report format and compares two runs of
// the one-axis echo workload at 10^4 and 10^5 jobs (10^6 too with
// REPORT_BENCH_MILLION=1: two files of 1.4 GB, run it with -benchtime=1x;
// bench/scale.sh measures the CLI's wall, CPU and peak RSS), each from
// the files: reading, summarising and writing. peak-heap-MB is the heap's
// high-water mark above where it started.
func BenchmarkScale(b *testing.B) {
	sizes := []int{10_000, 100_000}
	if os.Getenv("REPORT_BENCH_MILLION") != "" {
		sizes = append(sizes, 1_000_000)
	}
	for _, n := range sizes {
		dir := b.TempDir()
		base, cand := writeOneAxisRun(b, dir, n, 0), writeOneAxisRun(b, dir, n, 97)
		read := func(path string) *Results {
			r, err := ReadFiles([]string{path}, Options{})
			if err != nil {
				b.Fatal(err)
			}
			return r
		}
		for _, format := range []string{"json", "md", "html", "junit", "compare"} {
			b.Run(fmt.Sprintf("%s/%d", format, n), func(b *testing.B) {
				op := func() {
					r := read(cand)
					defer func() { _ = r.Close() }()
					if format != "compare" {
						if err := Write(io.Discard, r, format, WriteOptions{}); err != nil {
							b.Fatal(err)
						}
						return
					}
					bl := read(base)
					defer func() { _ = bl.Close() }()
					c, err := CompareResults(bl, r, CompareOptions{})
					if err != nil {
						b.Fatal(err)
					}
					if err := WriteComparison(io.Discard, c, "md"); err != nil {
						b.Fatal(err)
					}
				}
				peak := heapPeak(op) // once, untimed: the sampler stops the world
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					op()
				}
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			})
		}
	}
}

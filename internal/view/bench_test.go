//go:build unix

package view

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/agenteval/agenteval/results"
)

// BenchmarkViewer measures the viewer over N jobs (10^4 and 10^5; 10^6 too
// with VIEW_BENCH_MILLION=1, a file of about 700 MB) as a user meets it:
// the run writes the index beside its results when it ends (SaveIndex:
// save-ms, save-cpu-ms, what the run's end costs), then `agenteval view`
// opens the file from that index (open-ms, open-cpu-ms, open-heap-MB: the
// heap the open index holds) and answers: the first page of the jobs
// table, filters by status, by a parameter value and by a failing
// evaluation with a parameter, the last page of a filter, a sort by
// duration, a text search (it stops after 800 ms: -searched says how many
// jobs it read), the reasons grouped and one job opened. Each figure is a
// metric of one iteration; -cpu-ms figures are the process's CPU time, the
// honest figure on a shared machine.
func BenchmarkViewer(b *testing.B) {
	sizes := []int{10_000, 100_000}
	if os.Getenv("VIEW_BENCH_MILLION") != "" {
		sizes = append(sizes, 1_000_000)
	}
	for _, n := range sizes {
		b.Run("jobs="+strconv.Itoa(n), func(b *testing.B) {
			dir := b.TempDir()
			path := writeResults(b, dir, "bench", n, func(j *results.Job) {
				j.Params["vars.city"] = []string{"Paris", "Tokyo", "Lima", "Oslo"}[j.Index%4]
			})
			st, _ := os.Stat(path)
			b.ReportMetric(float64(st.Size())/(1<<20), "file-MB")
			for b.Loop() {
				_ = os.Remove(path + savedSuffix)
				runtime.GC()
				t, c := time.Now(), cpu()
				if err := SaveIndex(b.Context(), path, nil); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(ms(t), "save-ms")
				b.ReportMetric(cpu()-c, "save-cpu-ms")

				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				t, c = time.Now(), cpu()
				s, err := New(Options{Paths: []string{dir}})
				if err != nil || !s.runs[0].files[0].fromSaved {
					b.Fatalf("open: %v (from the saved index: %v)", err, err == nil && s.runs[0].files[0].fromSaved)
				}
				b.ReportMetric(ms(t), "open-ms")
				b.ReportMetric(cpu()-c, "open-cpu-ms")
				runtime.GC()
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.HeapInuse-min(before.HeapInuse, after.HeapInuse))/(1<<20), "open-heap-MB")
				r := s.runs[0]
				step := func(name string, q query) {
					t, c := time.Now(), cpu()
					p, err := r.query(q)
					if err != nil || (len(p.Rows) == 0 && !p.More) {
						b.Fatalf("%s: %v (%d rows)", name, err, len(p.Rows))
					}
					b.ReportMetric(ms(t), name+"-ms")
					b.ReportMetric(cpu()-c, name+"-cpu-ms")
					if p.Searched > 0 {
						b.ReportMetric(float64(p.Searched), name+"-searched")
					}
				}
				step("first-page", query{Limit: 50})
				step("filter-failed", query{Status: "failed", Limit: 50})
				step("filter-param", query{Params: []string{"vars.city=Lima"}, Limit: 50})
				step("filter-failing-eval", query{Failing: "string_contains", Params: []string{"vars.city=Oslo"}, Limit: 50})
				step("last-page", query{Status: "failed", Offset: r.counts[statusFailed] - 50, Limit: 50})
				step("sort-duration", query{Sort: "duration", Desc: true, Limit: 50})
				step("search-first-page", query{Text: "reply number 9", Limit: 50})
				step("search-rare", query{Text: fmt.Sprintf("reply number %d\"", n-1), Limit: 50})
				t, c = time.Now(), cpu()
				if gs, err := r.groups(100); err != nil || len(gs) != 2 {
					b.Fatalf("groups: %v %d", err, len(gs))
				}
				b.ReportMetric(ms(t), "groups-ms")
				b.ReportMetric(cpu()-c, "groups-cpu-ms")
				t = time.Now()
				if _, err := r.job(fmt.Sprintf("greet/c%d/run-1", n/2), int64(n/2)); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(ms(t), "open-job-ms")
				s.Close()
			}
		})
	}
}

func ms(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

// cpu is the process's CPU time so far (user and system) in milliseconds:
// on a shared machine wall time says more about the neighbours.
func cpu() float64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

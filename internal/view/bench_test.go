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
// with VIEW_BENCH_MILLION=1, a file of about 1 GB): the time to index the
// file, to the first page of the jobs table, to filter by status, by a
// parameter value and by a failing evaluation, to sort by duration, to
// group the reasons, to search the text (a search stops after 800 ms:
// -searched says how many jobs it read), and the heap the index holds;
// then the same file opened again from the index saved beside it
// (reopen-ms, reopen-heap-MB) and its first page. Each figure is a
// metric of one iteration.
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
				runtime.GC()
				var before runtime.MemStats
				runtime.ReadMemStats(&before)
				t, c := time.Now(), cpu()
				s, err := New(Options{Paths: []string{dir}})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(ms(t), "index-ms")
				b.ReportMetric(cpu()-c, "index-cpu-ms")
				runtime.GC()
				var after runtime.MemStats
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.HeapInuse-min(before.HeapInuse, after.HeapInuse))/(1<<20), "index-heap-MB")
				r := s.runs[0]
				step := func(name string, q query) {
					t := time.Now()
					p, err := r.query(q)
					if err != nil || (len(p.Rows) == 0 && !p.More) {
						b.Fatalf("%s: %v (%d rows)", name, err, len(p.Rows))
					}
					b.ReportMetric(ms(t), name+"-ms")
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
				t = time.Now()
				if gs, err := r.groups(100); err != nil || len(gs) != 2 {
					b.Fatalf("groups: %v %d", err, len(gs))
				}
				b.ReportMetric(ms(t), "groups-ms")
				t = time.Now()
				if _, err := r.job(fmt.Sprintf("greet/c%d/run-1", n/2), int64(n/2)); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(ms(t), "open-job-ms")
				s.Close()

				runtime.GC()
				runtime.ReadMemStats(&before)
				t, c = time.Now(), cpu()
				s, err = New(Options{Paths: []string{dir}})
				if err != nil || !s.runs[0].files[0].fromSaved {
					b.Fatalf("reopen: %v (from the saved index: %v)", err, err == nil && s.runs[0].files[0].fromSaved)
				}
				b.ReportMetric(ms(t), "reopen-ms")
				b.ReportMetric(cpu()-c, "reopen-cpu-ms")
				runtime.GC()
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.HeapInuse-min(before.HeapInuse, after.HeapInuse))/(1<<20), "reopen-heap-MB")
				r = s.runs[0]
				step("reopen-first-page", query{Limit: 50})
				step("reopen-filter-param", query{Params: []string{"vars.city=Lima"}, Limit: 50})
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

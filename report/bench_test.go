package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
)

// benchInput generates a run of n jobs: 50 scenarios × 20 combinations of
// a two-parameter matrix × n/1000 runs, each record with three evaluations,
// a short transcript and about 1 KiB of JSON; 1 in 7 fails, 1 in 50 errors.
func benchInput(b *testing.B, n int) Input {
	b.Helper()
	var buf bytes.Buffer
	runs := max(n/1000, 1)
	buf.WriteString(planLine(b, results.Plan{RunID: "bench", Started: t0, TotalJobs: int64(n), Agent: "bench", Sources: []string{"x.yaml"}}))
	buf.WriteByte('\n')
	idx := int64(0)
	for s := 0; s < 50 && idx < int64(n); s++ {
		for c := 0; c < 20 && idx < int64(n); c++ {
			for run := 1; run <= runs && idx < int64(n); run++ {
				outcome := "pass"
				switch {
				case idx%50 == 0:
					outcome = "error"
				case idx%7 == 0:
					outcome = "fail"
				}
				j := results.Job{ID: fmt.Sprintf("scenario-%02d/comb%02d/run-%d", s, c, run), Index: idx, Scenario: fmt.Sprintf("scenario-%02d", s),
					Combination: fmt.Sprintf("comb%02d", c), Matrix: "m", Run: run, Attempts: 1, Strategy: "all",
					Params:  map[string]any{"model": fmt.Sprintf("model-%d", c%4), "max_turns": c / 4},
					Started: t0.Add(time.Duration(idx) * time.Second), DurationMS: float64(200 + idx%977),
					Usage: llm.Usage{PromptTokens: 300, CompletionTokens: 80, TotalTokens: 380}, TerminationReasons: []string{"goal_reached"},
					Transcript: []results.Turn{{Role: "user", Text: "Please triage issue #42 and label it."}, {Role: "assistant", Text: "Labelled it as bug; it reproduces on main.", Actions: []results.Action{{Name: "add_label", Args: map[string]any{"label": "bug"}}}}}}
				applyOutcome(&j, outcome)
				j.Evaluations = append(j.Evaluations, results.Evaluation{Type: "trajectory_contains_action", Description: "labels the issue", Scope: "final", Passed: true, Score: 1, Message: "add_label called", Weight: 1})
				buf.WriteString(jobLine(b, j))
				buf.WriteByte('\n')
				idx++
			}
		}
	}
	// A file, as the CLI reads it: the records are not on the heap.
	path := filepath.Join(b.TempDir(), "bench.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	inputs, files, err := openFiles([]string{path})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = closeFiles(files) })
	return inputs[0]
}

// heapPeak samples HeapInuse while running f and returns the high-water
// mark above the level before f started.
func heapPeak(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	})
	f()
	close(done)
	wg.Wait()
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}

func benchmarkReport(b *testing.B, n int, render func(*Results) error) {
	in := benchInput(b, n)
	op := func() {
		r, err := Read([]Input{in}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := render(r); err != nil {
			b.Fatal(err)
		}
		if r.Summary().Totals.Runs != n {
			b.Fatalf("read %d jobs, want %d", r.Summary().Totals.Runs, n)
		}
	}
	peak := heapPeak(op) // once, untimed: the sampler stops the world
	b.SetBytes(in.Size)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		op()
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}

func BenchmarkReadSummary100k(b *testing.B) {
	benchmarkReport(b, 100_000, func(r *Results) error { return writeJSON(io.Discard, r.Summary()) })
}

func BenchmarkMarkdown100k(b *testing.B) {
	benchmarkReport(b, 100_000, func(r *Results) error { return writeMarkdown(io.Discard, r.Summary(), nil) })
}

func BenchmarkJUnit100k(b *testing.B) {
	benchmarkReport(b, 100_000, func(r *Results) error { return writeJUnit(io.Discard, r) })
}

func BenchmarkHTML100k(b *testing.B) {
	benchmarkReport(b, 100_000, func(r *Results) error { return writeHTML(io.Discard, r, WriteOptions{}) })
}

// BenchmarkRetained measures what a Results keeps per job after reading.
func BenchmarkRetained(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			in := benchInput(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			var keep *Results
			var before, after runtime.MemStats
			for range b.N {
				runtime.GC()
				runtime.ReadMemStats(&before)
				r, err := Read([]Input{in}, Options{})
				if err != nil {
					b.Fatal(err)
				}
				keep = r
				runtime.GC()
				runtime.ReadMemStats(&after)
			}
			b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(n), "retained-B/job")
			runtime.KeepAlive(keep)
		})
	}
}

package matrix

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agenteval/agenteval/internal/benchecho"
	"github.com/agenteval/agenteval/internal/testvocab"
	"github.com/agenteval/agenteval/scenario"
)

// benchAxes are the parameters the benchmarks sweep, each through a
// different kind of container: list elements, pointers, maps, free-form data.
var benchAxes = []string{
	"run[1].conversation.user_simulator.persona",
	"run[0].input",
	`plugins[1].config["api-key"]`,
	"character.llm.model",
	"name",
	"run[1].conversation.max_turns",
}

// Matrix shapes: the same four axes, so that per-job work is the same and
// only the number of combinations differs.
var (
	shape1e4 = []int{10, 10, 10, 10}
	shape1e6 = []int{10, 10, 100, 100}
)

// benchMatrix returns a matrix over the first len(sizes) axes of benchAxes
// with sizes[a] values on axis a.
func benchMatrix(sizes []int) string {
	var b strings.Builder
	b.WriteString("name: bench\nbase_scenario: base.scenario.yaml\nmatrix:\n")
	for a, size := range sizes {
		fmt.Fprintf(&b, "  - parameter: '%s'\n    values: [", benchAxes[a])
		for v := range size {
			if v > 0 {
				b.WriteString(", ")
			}
			if strings.HasSuffix(benchAxes[a], "max_turns") {
				fmt.Fprintf(&b, "%d", v+1)
			} else {
				fmt.Fprintf(&b, "'value %d'", v)
			}
		}
		b.WriteString("]\n")
	}
	return b.String()
}

// largeBase is the fixture base with a great deal added where the axes do
// not go: 2,000 virtual files of 1 KiB, 500 evaluations on the first step,
// 100 checkpoints and long texts.
func largeBase(b *testing.B) []byte {
	base, err := os.ReadFile("testdata/base.scenario.yaml")
	if err != nil {
		b.Fatal(err)
	}
	s := string(base)
	var vfs, evals, checks strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&vfs, "    file-%04d.txt: '%s'\n", i, strings.Repeat("x", 1024))
	}
	for i := range 500 {
		fmt.Fprintf(&evals, "      - type: string_contains\n        value: 'word %d'\n        description: '%s'\n", i, strings.Repeat("d", 200))
	}
	for i := range 100 {
		fmt.Fprintf(&checks, "  - id: c%d\n    description: check %d\n    task: pr.commits.list\n    input: {n: %d}\n    condition: {type: non_empty}\n", i, i, i)
	}
	s = strings.Replace(s, "    notes/readme.md: '# notes'\n", "    notes/readme.md: '# notes'\n"+vfs.String(), 1)
	s = strings.Replace(s, "        description: mentions issues\n", "        description: mentions issues\n"+evals.String(), 1)
	s = strings.Replace(s, "description: A scenario", "description: '"+strings.Repeat("long ", 20000)+"' # A scenario", 1)
	return []byte(s + "checkpoints:\n" + checks.String())
}

func benchPlan(b *testing.B, base []byte, sizes []int) *Plan {
	b.Helper()
	fsys := fstest.MapFS{"base.scenario.yaml": {Data: base}, "m.matrix.yaml": {Data: []byte(benchMatrix(sizes))}}
	l := scenario.NewLoader(testvocab.Registries(), scenario.Options{})
	f, _ := l.LoadFS(fsys, "m.matrix.yaml")
	p, diags := Compile(f, Options{MaxJobs: 0})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	return p
}

// runJobs consumes b.N jobs (one job per op, so -benchmem reports per-job
// allocation), restarting the expansion whenever it ends, and reports jobs/s.
func runJobs(b *testing.B, p *Plan, materialise bool) {
	ctx := context.Background()
	seq := p.Headers
	if materialise {
		seq = p.Jobs
	}
	var sink *scenario.Scenario
	var ids int
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; {
		for j, err := range seq(ctx) {
			if err != nil {
				b.Fatal(err)
			}
			sink = j.Scenario
			ids += len(j.ID)
			if n++; n == b.N {
				break
			}
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
	_ = sink
}

// BenchmarkJobs expands matrices of 10^4 and 10^6 jobs with each job's
// scenario built (copy-on-write), on the fixture base and on a large base.
// Per-job time and allocation should not depend on either size.
func BenchmarkJobs(b *testing.B) {
	small, err := os.ReadFile("testdata/base.scenario.yaml")
	if err != nil {
		b.Fatal(err)
	}
	large := largeBase(b)
	for _, c := range []struct {
		name  string
		base  []byte
		shape []int
	}{
		{"base=small/jobs=1e4", small, shape1e4},
		{"base=small/jobs=1e6", small, shape1e6},
		{"base=large/jobs=1e4", large, shape1e4},
		{"base=large/jobs=1e6", large, shape1e6},
	} {
		b.Run(c.name, func(b *testing.B) { runJobs(b, benchPlan(b, c.base, c.shape), true) })
	}
}

// BenchmarkHeaders expands the same matrices without building scenarios:
// ids and parameters only.
func BenchmarkHeaders(b *testing.B) {
	small, err := os.ReadFile("testdata/base.scenario.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		shape []int
	}{{"jobs=1e4", shape1e4}, {"jobs=1e6", shape1e6}} {
		b.Run(c.name, func(b *testing.B) { runJobs(b, benchPlan(b, small, c.shape), false) })
	}
}

// BenchmarkCount counts a 10^6-job matrix with a filter and a shard.
func BenchmarkCount(b *testing.B) {
	small, err := os.ReadFile("testdata/base.scenario.yaml")
	if err != nil {
		b.Fatal(err)
	}
	p := benchPlan(b, small, shape1e6)
	f, err := parseFilter("character.llm.model='value 3'")
	if err != nil {
		b.Fatal(err)
	}
	q, err := p.Select([]Filter{f}, Shard{Index: 2, Count: 3})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := q.Count(); err != nil {
			b.Fatal(err)
		}
	}
}

// echoFile loads bench/compare-promptfoo.sh's echo workload: one axis,
// run[0].input, of n free-text values over bench/echo's base scenario.
func echoFile(b *testing.B, n int) *scenario.File {
	b.Helper()
	base, err := os.ReadFile("../bench/echo/base.scenario.yaml")
	if err != nil {
		b.Fatal(err)
	}
	fsys := fstest.MapFS{"base.scenario.yaml": {Data: base}, "m.matrix.yaml": {Data: benchecho.Matrix(n)}}
	l := scenario.NewLoader(testvocab.Registries(), scenario.Options{})
	f, err := l.LoadFS(fsys, "m.matrix.yaml")
	if err != nil || f.Diagnostics.HasErrors() {
		b.Fatal(err, f.Diagnostics)
	}
	return f
}

// BenchmarkEchoCompile compiles the echo workload's matrix of 10^4 inputs
// (one op is the whole Compile), as the CLI does before its first job.
func BenchmarkEchoCompile(b *testing.B) {
	f := echoFile(b, 10_000)
	b.ReportAllocs()
	for b.Loop() {
		if _, diags := Compile(f, Options{}); diags.HasErrors() {
			b.Fatal(diags)
		}
	}
}

// BenchmarkEchoJobs expands the echo workload's 10^4 jobs with their
// scenarios built (one op is one job), as the CLI's feeder does.
func BenchmarkEchoJobs(b *testing.B) {
	p, diags := Compile(echoFile(b, 10_000), Options{})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	runJobs(b, p, true)
}

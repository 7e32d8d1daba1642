package plan_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/plan"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// BenchmarkPlanHistoryOneAxis is plan --history over the echo workload
// bench/scale.sh measures, at 10^4 jobs: a one-axis matrix of 10^4 inputs
// over bench/echo's base scenario (a regex_match among its evaluations),
// and a history of one completed job per combination (a record of about
// 1 KiB as run writes it). read is History.Read of the history; make is
// Make from it.
func BenchmarkPlanHistoryOneAxis(b *testing.B) {
	const n = 10_000
	dir := b.TempDir()
	base := must(os.ReadFile("../bench/echo/base.scenario.yaml"))
	if err := os.WriteFile(filepath.Join(dir, "base.scenario.yaml"), base, 0o644); err != nil {
		b.Fatal(err)
	}
	var m strings.Builder
	m.WriteString("name: m\ndescription: N inputs\nbase_scenario: base.scenario.yaml\nmatrix:\n  - parameter: \"run[0].input\"\n    values:\n")
	for i := range n {
		fmt.Fprintf(&m, "      - \"Question %d: what is topic-%d?\"\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "m.matrix.yaml"), []byte(m.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	reg := runner.NewRegistries()
	set, err := scenario.NewLoader(reg, scenario.Options{}).LoadPaths(filepath.Join(dir, "m.matrix.yaml"))
	if set == nil || set.Diagnostics.HasErrors() {
		b.Fatal(err, set.Diagnostics)
	}
	srcs, err := sources.Files(set.Files, sources.Options{Runs: 1})
	if err != nil {
		b.Fatal(err)
	}
	jobs, total, err := sources.Combine(srcs, matrix.Shard{})
	if err != nil || total != n {
		b.Fatal(err, total)
	}
	var hist strings.Builder
	hist.WriteString(`{"record":"plan","run_id":"r","total_jobs":10000,"agent":"echo","sources":["m.matrix.yaml"]}` + "\n")
	i := 0
	for j, err := range jobs {
		if err != nil {
			b.Fatal(err)
		}
		q := fmt.Sprintf("Question %d: what is topic-%d?", i, i)
		fmt.Fprintf(&hist, `{"record":"job","id":%q,"index":%d,"scenario":"base","scenario_name":"echo throughput","matrix":"m","combination":%q,"params":{"run[0].input":%q},"run":1,"attempts":1,"completed":true,"passed":true,"score":1,"reason":"all 3 evaluations passed","strategy":"all_pass","evaluations":[{"type":"string_contains","scope":"step","step":0,"turn":-1,"passed":true,"score":1,"message":"reply contains \"topic-\" (case-insensitive)","details":{"case_sensitive":false,"evidence":"reply","value":"topic-"},"weight":1},{"type":"regex_match","scope":"step","step":0,"turn":-1,"passed":true,"score":1,"message":%q,"details":{"match":%q,"match_index":0},"weight":1}],"started":"2026-11-28T21:57:41.062806718Z","duration_ms":%d.16,"usage":{"prompt_tokens":%d,"completion_tokens":3,"total_tokens":0},"cost":{"usd":0},"efficiency":{"turns":1,"tool_calls":{"total":0,"failed":0}},"environment":"local"}`+"\n",
			j.ID, i, j.Combination, q, fmt.Sprintf("reply matches at %q", q), q, i%7, i%100)
		i++
	}
	text := hist.String()
	for line := range strings.Lines(text) {
		if !json.Valid([]byte(line)) {
			b.Fatalf("not JSON: %s", line)
		}
	}
	h := plan.NewHistory()
	b.Run("read", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		for b.Loop() {
			h = plan.NewHistory()
			if err := h.Read("history", strings.NewReader(text)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("make", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p, err := plan.Make(context.Background(), jobs, plan.Options{Evaluations: reg.Evaluations, History: h, AgentModel: "gpt-4o"})
			if err != nil || p.Jobs != n || p.Basis.HistoryJobs != n {
				b.Fatal(err, p.Basis)
			}
		}
	})
}

//go:build unix

package runner

import (
	"testing"

	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/scenario"
)

// BenchmarkCodeStepJob is a job of one code step (`echo 42`, checked by a
// regex): the cost of starting a process group, reading its output,
// checking it for leftovers and killing none.
func BenchmarkCodeStepJob(b *testing.B) {
	s := codeScenarioB(b)
	b.ReportAllocs()
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("code", s, b.N)}, matrix.Shard{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	sum, err := Run(b.Context(), Config{Agent: echoAgent{}, AllowCommands: true, Results: newJSONDiscard()}, jobs)
	if err != nil || sum.Passed != int64(b.N) {
		b.Fatalf("sum %+v err %v", sum, err)
	}
}

func codeScenarioB(b *testing.B) *scenario.Scenario {
	b.Helper()
	f, err := testLoad("code.scenario.yaml", []byte(`name: code
description: a code step
environment: {type: local}
run:
  - {lang: sh, code: "echo 42", evaluations: [{type: regex_match, pattern: "^42"}]}
judgment: {strategy: all_pass}
`))
	if err != nil {
		b.Fatal(err)
	}
	return f.Scenario
}

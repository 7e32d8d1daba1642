//go:build unix

package runner

import (
	"os"
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

// BenchmarkExecAgentJob is a job against an exec agent (this test binary
// speaking the protocol): start the program in its group, one message with
// a mock call and an action, close the session.
func BenchmarkExecAgentJob(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	b.Setenv("AGENTEVAL_TEST_AGENT", "1")
	agent, err := newExecAgent(exe)
	if err != nil {
		b.Fatal(err)
	}
	s := loadScenario(b, "echo.scenario.yaml")
	b.ReportAllocs()
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("exec", s, b.N)}, matrix.Shard{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	sum, err := Run(b.Context(), Config{Agent: agent, Results: newJSONDiscard()}, jobs)
	if err != nil || sum.Jobs != int64(b.N) {
		b.Fatalf("sum %+v err %v", sum, err)
	}
}

// BenchmarkExecAgentJobPersistent is BenchmarkExecAgentJob's job against
// a persistent agent (this test binary serving many sessions with
// ServeExec, as the agent kits do): the process is started once per slot of
// the pool, so a job costs the protocol's lines, not a process.
func BenchmarkExecAgentJobPersistent(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	agent, err := newExecAgent("AGENTEVAL_TEST_AGENT=serve exec " + exe)
	if err != nil {
		b.Fatal(err)
	}
	s := loadScenario(b, "issues.scenario.yaml")
	b.ReportAllocs()
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("exec", s, b.N)}, matrix.Shard{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	sum, err := Run(b.Context(), Config{Agent: agent, Concurrency: 4, Results: newJSONDiscard()}, jobs)
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

//go:build unix

package exec

import (
	"os"
	"testing"

	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/runner"
)

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
	sum, err := runner.Run(b.Context(), runner.Config{Agent: agent, Results: newJSONDiscard()}, jobs)
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
	sum, err := runner.Run(b.Context(), runner.Config{Agent: agent, Concurrency: 4, Results: newJSONDiscard()}, jobs)
	if err != nil || sum.Passed != int64(b.N) {
		b.Fatalf("sum %+v err %v", sum, err)
	}
}

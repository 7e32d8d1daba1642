package exec

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// testLoader is one loader of the built-in registries, shared by the tests
// so that its schemas compile once.
var testLoader = sync.OnceValue(func() *scenario.Loader {
	return scenario.NewLoader(runner.NewRegistries(), scenario.Options{})
})

// testLoad loads a document from bytes with testLoader.
func testLoad(name string, data []byte) (*scenario.File, error) { return testLoader().Load(name, data) }

// loadScenario loads testdata/name.
func loadScenario(t testing.TB, name string) *scenario.Scenario {
	t.Helper()
	f, err := testLoader().LoadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return f.Scenario
}

// memSink keeps the results of a run in memory.
type memSink struct{ results []*results.Job }

func (m *memSink) Write(r *results.Job) error { m.results = append(m.results, r); return nil }

// runOne runs s once with cfg and returns its result.
func runOne(t *testing.T, cfg runner.Config, s *scenario.Scenario) *results.Job {
	t.Helper()
	sink := &memSink{}
	cfg.Results = sink
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("s", s, 1)}, matrix.Shard{})
	require.NoError(t, err)
	_, err = runner.Run(t.Context(), cfg, jobs)
	require.NoError(t, err)
	require.Len(t, sink.results, 1)
	return sink.results[0]
}

// inputScenario sends "hello" and expects it back, within timeout.
func inputScenario(t *testing.T, timeout string) *scenario.Scenario {
	t.Helper()
	f, err := testLoad("agent.scenario.yaml", []byte(`name: agent
description: one message to the agent
environment: {type: local}
run:
  - input: hello
    timeout: `+timeout+`
    evaluations: [{type: string_contains, value: hello}]
judgment: {strategy: all_pass}
`))
	require.NoError(t, err)
	return f.Scenario
}

// buildAgent builds spec ("exec:./bot", "echo") from this package's type
// and an echo type, as agenteval.Kit.Agent does with its registry.
func buildAgent(spec string, opts runner.AgentOptions) (runner.Agent, error) {
	name, arg, _ := strings.Cut(spec, ":")
	if name == "exec" {
		return Type().New(arg, opts)
	}
	if name == "echo" {
		return echoAgent{}, nil
	}
	return nil, &unknownAgentError{name}
}

type unknownAgentError struct{ name string }

func (e *unknownAgentError) Error() string {
	return "unknown agent type " + e.name + ` (did you mean "echo"?)`
}

// echoAgent replies with the message it was sent.
type echoAgent struct{}

func (echoAgent) NewSession(context.Context, runner.SessionConfig) (runner.Session, error) {
	return runner.AgentFunc(func(_ context.Context, _ runner.SessionConfig, m string) (runner.Reply, error) {
		return runner.Reply{Text: m}, nil
	}).NewSession(context.Background(), runner.SessionConfig{})
}

// jsonDiscard encodes results as the results writer does, without the
// disk, so a benchmark measures the agent and the runner plus encoding.
type jsonDiscard struct{ buf *[]byte }

func newJSONDiscard() jsonDiscard { return jsonDiscard{buf: new([]byte)} }

func (d jsonDiscard) Write(r *results.Job) error {
	b, err := results.AppendJob((*d.buf)[:0], r)
	*d.buf = b
	return err
}

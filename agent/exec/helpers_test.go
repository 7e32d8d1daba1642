package exec

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/agenttest"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// loadScenario loads testdata/name.
func loadScenario(t testing.TB, name string) *scenario.Scenario {
	t.Helper()
	f, err := agenttest.LoadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return f.Scenario
}

// inputScenario sends "hello" and expects it back, within timeout.
func inputScenario(t *testing.T, timeout string) *scenario.Scenario {
	t.Helper()
	f, err := agenttest.Load("agent.scenario.yaml", []byte(`name: agent
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

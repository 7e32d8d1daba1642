package runner

import (
	"context"
	"errors"
	"slices"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/scenario"
)

// Agent is the system under test. The runner starts one Session per run.
// Implementations must be safe for concurrent use: many runs start sessions
// at once.
type Agent interface {
	NewSession(ctx context.Context, cfg SessionConfig) (Session, error)
}

// Session is one run's conversation with the agent.
type Session interface {
	// Send delivers one user message and returns the agent's reply.
	Send(ctx context.Context, message string) (Reply, error)
	// Close ends the session and frees what it holds.
	Close() error
}

// SessionConfig is what a session starts with.
type SessionConfig struct {
	// JobID identifies the run (scenario/combination/run-N).
	JobID string
	// Scenario is the scenario being run (read-only).
	Scenario *scenario.Scenario
	// Character is the scenario's character, or nil.
	Character *scenario.Character
	// Plugins are the scenario's enabled plugins.
	Plugins []scenario.Plugin
	// Dir is the run's working directory, or "" when the run has none.
	Dir string
	// Mocks answers service calls the scenario mocks; never nil.
	Mocks MockCaller
	// Seed makes any randomness of the agent repeatable.
	Seed int64
}

// Reply is what the agent answered to one message.
type Reply struct {
	// Text is the reply text.
	Text string
	// Actions are the actions (tool calls) made while answering.
	Actions []evaluate.Action
	// Usage counts the tokens spent.
	Usage llm.Usage
}

// MockCaller answers an agent's calls to mocked services: *mockSet in
// process, or the exec protocol's bridge in an external agent (ServeExec).
type MockCaller interface {
	// Call returns the mock's response, a *mockError, or an error wrapping
	// errNoMock when no mock answers service.method.
	Call(ctx context.Context, service, method string, args ...any) (any, error)
}

// AgentFunc turns a function into a stateless Agent: every message of every
// session is answered by f, with the session's configuration.
type AgentFunc func(ctx context.Context, cfg SessionConfig, message string) (Reply, error)

// NewSession implements Agent.
func (f AgentFunc) NewSession(_ context.Context, cfg SessionConfig) (Session, error) {
	return &funcSession{f: f, cfg: cfg}, nil
}

type funcSession struct {
	f   AgentFunc
	cfg SessionConfig
}

func (s *funcSession) Send(ctx context.Context, m string) (Reply, error) { return s.f(ctx, s.cfg, m) }
func (s *funcSession) Close() error                                      { return nil }

// echoAgent is the baseline agent ("echo"): it replies with the message it
// was sent. It measures the pipeline itself and makes deterministic
// examples possible.
type echoAgent struct{}

func (echoAgent) NewSession(context.Context, SessionConfig) (Session, error) {
	return echoSession{}, nil
}

type echoSession struct{}

func (echoSession) Send(_ context.Context, m string) (Reply, error) { return Reply{Text: m}, nil }
func (echoSession) Close() error                                    { return nil }

// AgentType is a kind of agent the CLI's --agent flag (and
// agenteval.Kit.Agent) can build: a plugin value, registered in Registries.Agents
// under its Name, the part of the spec before the first colon ("exec" in
// "exec:./bot").
type AgentType struct {
	// Name is the spec's prefix.
	Name string
	// Doc says what the agent is and what its argument means.
	Doc string
	// New builds the agent from the text after the colon ("./bot").
	New func(arg string, opts AgentOptions) (Agent, error)
	// TakesEnv and TakesInstructions say whether New honours
	// AgentOptions.Env and Instructions (a suite warns about an agent given
	// what its type ignores).
	TakesEnv, TakesInstructions bool
}

// AgentOptions carry what built-in agents may need from the host.
type AgentOptions struct {
	// Getenv reads the environment (API keys, base URLs); nil means none.
	Getenv func(string) string
	// WrapModel, when set, wraps the chat model of a model-backed agent
	// (to record and replay its answers with llm.Recorded, say).
	WrapModel func(m llm.Model, name string) llm.Model
	// Env are further environment variables (KEY=VALUE) of the programs an
	// agent starts (exec: after the process's own; a suite agent's env).
	Env []string
	// Instructions are system instructions for every session (a suite
	// agent's): a model agent's first system message, an exec agent's
	// AGENTEVAL_INSTRUCTIONS.
	Instructions string
}

// newAgents returns a registry holding the built-in agent types: echo,
// exec:COMMAND and openai:MODEL.
func newAgents() *registry.Registry[*AgentType] {
	r := registry.New("agent", func(t *AgentType) string { return t.Name }, func(t *AgentType) error {
		if t.New == nil {
			return errors.New("an agent type needs New")
		}
		return nil
	})
	err := r.Register(
		&AgentType{Name: "echo", Doc: "replies with the input (a pipeline baseline)", New: func(string, AgentOptions) (Agent, error) { return echoAgent{}, nil }},
		&AgentType{Name: "exec", Doc: "exec:COMMAND runs a program speaking the JSON-lines agent protocol", TakesEnv: true, TakesInstructions: true,
			New: func(arg string, opts AgentOptions) (Agent, error) {
				a, err := newExecAgent(arg)
				if err != nil {
					return nil, err
				}
				a.Env = slices.Clone(opts.Env)
				if opts.Instructions != "" {
					a.Env = append(a.Env, "AGENTEVAL_INSTRUCTIONS="+opts.Instructions)
				}
				return a, nil
			}},
		&AgentType{Name: "openai", Doc: "openai:MODEL talks to an OpenAI-compatible chat endpoint (OPENAI_BASE_URL, OPENAI_API_KEY); a scenario's character.llm.model, temperature and max_tokens override MODEL and the sampling",
			TakesInstructions: true, New: newOpenAIAgentFromSpec},
	)
	if err != nil {
		panic(err) // the built-in names are distinct; a clash is a bug in this package
	}
	return r
}

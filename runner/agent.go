package runner

import (
	"context"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/judge"
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
	Usage evaluate.Usage
}

// MockCaller answers an agent's calls to mocked services: *Mocks in
// process, or the exec protocol's bridge in an external agent (ServeExec).
type MockCaller interface {
	// Call returns the mock's response, a *MockError, or an error wrapping
	// ErrNoMock when no mock answers service.method.
	Call(ctx context.Context, service, method string, args ...any) (any, error)
}

// AgentFunc turns a function into a stateless Agent: every message of every
// session is answered by f.
type AgentFunc func(ctx context.Context, cfg *SessionConfig, message string) (Reply, error)

// NewSession implements Agent.
func (f AgentFunc) NewSession(_ context.Context, cfg SessionConfig) (Session, error) {
	return &funcSession{f: f, cfg: cfg}, nil
}

type funcSession struct {
	f   AgentFunc
	cfg SessionConfig
}

func (s *funcSession) Send(ctx context.Context, m string) (Reply, error) { return s.f(ctx, &s.cfg, m) }
func (s *funcSession) Close() error                                      { return nil }

// Echo is the baseline agent: it replies with the message it was sent. It
// measures the pipeline itself and makes deterministic examples possible.
func Echo() Agent { return echoAgent{} }

type echoAgent struct{}

func (echoAgent) NewSession(context.Context, SessionConfig) (Session, error) {
	return echoSession{}, nil
}

type echoSession struct{}

func (echoSession) Send(_ context.Context, m string) (Reply, error) { return Reply{Text: m}, nil }
func (echoSession) Close() error                                    { return nil }

// AgentFactory builds an agent from the text after its prefix in
// --agent (for "exec:./bot", the factory of "exec" gets "./bot").
type AgentFactory func(arg string, opts AgentOptions) (Agent, error)

// AgentOptions carry what built-in agents may need from the host.
type AgentOptions struct {
	// Getenv reads the environment (API keys, base URLs); nil means none.
	Getenv func(string) string
	// WrapModel, when set, wraps the chat model of a model-backed agent
	// (to record and replay its answers with judge.Recorded, say).
	WrapModel func(m judge.Model, name string) judge.Model
}

// Agents is a registry of agent factories by prefix. The CLI's --agent flag
// reads it; hosts add their own exactly as the built-ins are added.
type Agents struct {
	factories map[string]AgentFactory
	docs      map[string]string
}

// NewAgents returns a registry with the built-in agents: echo, exec:COMMAND
// and openai:MODEL.
func NewAgents() *Agents {
	a := &Agents{factories: map[string]AgentFactory{}, docs: map[string]string{}}
	a.Register("echo", "replies with the input (a pipeline baseline)", func(string, AgentOptions) (Agent, error) { return Echo(), nil })
	a.Register("exec", "exec:COMMAND runs a program speaking the JSON-lines agent protocol", func(arg string, _ AgentOptions) (Agent, error) {
		return NewExecAgent(arg)
	})
	a.Register("openai", "openai:MODEL talks to an OpenAI-compatible chat endpoint (OPENAI_BASE_URL, OPENAI_API_KEY); a scenario's character.llm.model, temperature and max_tokens override MODEL and the sampling", NewOpenAIAgentFromSpec)
	return a
}

// Register adds a factory under name, replacing any earlier one.
func (a *Agents) Register(name, doc string, f AgentFactory) {
	a.factories[name] = f
	a.docs[name] = doc
}

// Names returns the registered agent names with their docs.
func (a *Agents) Names() map[string]string { return a.docs }

// Build parses spec ("echo", "exec:./bot --flag", "openai:gpt-4o-mini") and builds the agent.
func (a *Agents) Build(spec string, opts AgentOptions) (Agent, error) {
	name, arg, _ := strings.Cut(spec, ":")
	f, ok := a.factories[name]
	if !ok {
		names := make([]string, 0, len(a.factories))
		for n := range a.factories {
			names = append(names, n)
		}
		msg := fmt.Sprintf("unknown agent %q", name)
		if s := scenario.Suggest(name, names); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		return nil, fmt.Errorf("%s; known agents: %s", msg, strings.Join(names, ", "))
	}
	return f(arg, opts)
}

package runner

import (
	"context"
	"errors"

	"github.com/agenteval/agenteval/internal/mockset"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// Agent is the system under test. The runner starts one Session per run.
// Implementations must be safe for concurrent use: many runs start sessions
// at once.
type Agent interface {
	NewSession(ctx context.Context, cfg SessionConfig) (Session, error)
}

// Cooperative is an optional interface of an Agent. Cooperative reports
// whether the agent's NewSession and its sessions' Send return soon after
// their context ends (its deadline or cancellation). The runner calls a
// cooperative agent on the job's own goroutine. Any other agent's calls run
// on a goroutine the job's worker keeps, so that a call ignoring its
// context cannot hold the job past its deadline: the job goes on at the
// deadline and the call is left to end on its own. The echo agent is
// cooperative; an AgentFunc is not, as the runner cannot know what the
// host's function does, nor are the exec agent (its program may stop
// reading) and the openai agent (a host may give it a model of its own).
type Cooperative interface {
	Cooperative() bool
}

// cooperative reports whether a is a Cooperative agent that says it is.
func cooperative(a Agent) bool {
	c, ok := a.(Cooperative)
	return ok && c.Cooperative()
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
	// Dir is the run's working directory, or "" when the run has none. An
	// agent with a method NeedsDir() bool that returns true (a coding-agent
	// CLI, which works in it) always gets one.
	Dir string
	// Mocks answers service calls the scenario mocks; never nil.
	Mocks MockCaller
	// Seed makes any randomness of the agent repeatable.
	Seed int64
}

// Reply is what the agent answered to one message. An agent reports its
// tool calls and token usage here, when it has them: evaluations of tool
// calls (trajectory_match, action checks) and the efficiency figures read
// Actions, budgets and token reports read Usage; an agent that leaves them
// empty is scored on its text alone. A Cooperative agent's Send that ends
// with its context may return what it had with the error: it is kept.
type Reply struct {
	// Text is the reply text.
	Text string
	// Actions are the actions (tool calls) made while answering, in order.
	Actions []results.Action
	// Usage counts the tokens spent answering (zero: unknown).
	Usage llm.Usage
	// Thought is the reasoning the agent reports for this reply, if any
	// (kept in the transcript's turn), a coding-agent CLI's reasoning too.
	Thought string
	// EndReason is why the reply ended, in the agent's words (kept in the
	// transcript's turn): a CLI's stop reason or status ("end_turn").
	EndReason string
}

// MockCaller answers an agent's calls to mocked services: the scenario's
// mocks in process, or the exec protocol's bridge in an external agent
// (agent/exec.Serve).
type MockCaller interface {
	// Call returns the mock's response, a *scenario.MockError, or an error wrapping
	// ErrNoMock when no mock answers service.method.
	Call(ctx context.Context, service, method string, args ...any) (any, error)
}

// ErrNoMock is wrapped by MockCaller.Call's error when no mock matches the
// call; the agent should then use the real service (or fail, in a sealed
// test).
var ErrNoMock = mockset.ErrNoMock

// RunScopedAgent is an Agent that holds resources for the length of one
// run, such as programs kept for many sessions (agent/exec's pool). Run
// calls ForRun once per run and use the agent it returns for
// every job of the run; it calls end once every job is over, cancelled
// runs included, and add its notes (what had to be replaced or killed) to
// Summary.Notes. An agent that does not implement it is used as it is.
type RunScopedAgent interface {
	Agent
	ForRun(concurrency int) (agent Agent, end func() []string)
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
	// ModelArg says the argument is a model name: a suite gives a spec
	// without one ("opencode") the suite's model.
	ModelArg bool
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
	// Limits are the run's model endpoint limiters, which a model agent
	// shares with the run's other model clients (nil: its own), and
	// EndpointLimits what is known of its endpoint's limits. An exec
	// agent gets EndpointLimits.MaxRequests and TokensPerMinute as
	// AGENTEVAL_MAX_REQUESTS and AGENTEVAL_TOKENS_PER_MINUTE.
	Limits         *llm.Limits
	EndpointLimits llm.EndpointLimits
	// AllowCommands is the run's --allow-commands: an agent that runs
	// commands of its own (a coding-agent CLI's shell tool) runs them only
	// when it is set.
	AllowCommands bool
	// MCPServers are MCP servers, by name, a coding-agent CLI is
	// configured with in every session (a suite's and its agent's).
	MCPServers map[string]scenario.MCPServer
}

// newAgentTypes returns an empty registry of agent types: the agents live
// in their own packages (agent/echo, agent/exec, agent/openai, agent/eliza), which
// agenteval.New registers as a host registers its own.
func newAgentTypes() *registry.Registry[*AgentType] {
	return registry.New("agent", func(t *AgentType) string { return t.Name }, func(t *AgentType) error {
		if t.New == nil {
			return errors.New("an agent type needs New")
		}
		return nil
	})
}

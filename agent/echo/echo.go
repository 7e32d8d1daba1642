// Package echo is the baseline agent: it replies with the message it was
// sent. It measures the pipeline itself and makes deterministic examples
// possible.
package echo

import (
	"context"

	"github.com/agenteval/agenteval/runner"
)

// Type returns the agent type "echo" (it takes no argument), for a registry
// of agent types such as agenteval.Kit's; its New returns the echo agent.
func Type() *runner.AgentType {
	return &runner.AgentType{Name: "echo", Doc: "replies with the input (a pipeline baseline)",
		New: func(string, runner.AgentOptions) (runner.Agent, error) { return agent{}, nil }}
}

type agent struct{}

func (agent) NewSession(context.Context, runner.SessionConfig) (runner.Session, error) {
	return session{}, nil
}

type session struct{}

func (session) Send(_ context.Context, m string) (runner.Reply, error) {
	return runner.Reply{Text: m}, nil
}
func (session) Close() error { return nil }

// Cooperative implements runner.Cooperative: an echo returns at once, so
// the runner calls it on the job's own goroutine.
func (agent) Cooperative() bool { return true }

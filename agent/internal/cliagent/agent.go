package cliagent

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/agenteval/agenteval/runner"
)

// Agent is what every CLI agent takes from its spec and the run's options.
// A CLI agent embeds it: its NeedsDir and Cooperative come with it, so the
// four agents tell the runner the same things.
type Agent struct {
	// Name is the agent type ("codex"): errors start "codex agent: ".
	Name string
	// Path is the CLI's program, Model the spec's model.
	Path, Model string
	// Env is a suite agent's env, then the variables forwarded from the
	// options' Getenv (the CLI reads them from its environment).
	Env []string
	// Instructions are the agent's own (a suite's instructions).
	Instructions string
	// AllowCommands is --allow-commands: the CLI's shell tool is offered.
	AllowCommands bool
	// MCP are the agent's MCP servers (a suite's mcp_servers).
	MCP []MCPServer
}

// NewAgent reads what every CLI agent takes: the model (example is a spec
// naming one, for the error when model is empty), the program (with its
// install command when absent), and the environment: opts.Env, then the
// variables named in forward and the bearer-token variables of the
// agent's MCP servers, as opts.Getenv gives them. It returns the getenv it
// read them with (never nil) for what the agent reads further.
func NewAgent(name, example string, p Program, model string, opts runner.AgentOptions, forward ...string) (Agent, func(string) string, error) {
	a := Agent{Name: name, Model: model, Instructions: opts.Instructions, AllowCommands: opts.AllowCommands, MCP: MCPServers(opts.MCPServers)}
	if model == "" {
		return a, nil, fmt.Errorf("%s agent: name a model, as in %s", name, example)
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	path, err := p.Find(getenv)
	if err != nil {
		return a, nil, a.Err(err)
	}
	a.Path = path
	a.Env = append(slices.Clip(opts.Env), Forward(getenv, ForwardNames(opts.MCPServers, forward...)...)...)
	return a, getenv, nil
}

// NeedsDir tells the runner that the CLI works in the job's directory
// (runner.SessionConfig.Dir) whatever the scenario needs.
func (Agent) NeedsDir() bool { return true }

// Cooperative tells the runner that Send returns soon after its context
// ends (the CLI's process tree killed), so a step's timeout ends the CLI
// before the job goes on, and before agenteval exits.
func (Agent) Cooperative() bool { return true }

// Err is err as this agent's: "codex agent: ...".
func (a *Agent) Err(err error) error {
	return fmt.Errorf("%s agent: %w", a.Name, err)
}

// Session is what every CLI session holds: the job's directory, the
// session's configuration home beside it, its MCP servers (the agent's,
// then the scenario's mocks served as one) and its instructions (the
// agent's and the character's). A CLI session embeds it.
type Session struct {
	Dir, Home    string
	MCP          []MCPServer
	Instructions string
	mocks        io.Closer // the scenario's mocks as an MCP server, or nil
}

// NewSession makes the session's home and serves the scenario's mocks as
// an MCP server (see Mocks). On error nothing is left behind.
func (a *Agent) NewSession(cfg runner.SessionConfig) (*Session, error) {
	home, err := NewHome(cfg.Dir)
	if err != nil {
		return nil, a.Err(err)
	}
	s := &Session{Dir: cfg.Dir, Home: home, MCP: a.MCP, Instructions: Instructions(a.Instructions, cfg.Character)}
	mocks, server, err := Mocks(home, cfg.Scenario, cfg.Mocks)
	if err != nil {
		_ = s.Close()
		return nil, a.Err(err)
	}
	if mocks != nil {
		s.mocks = mocks
	}
	if server != nil {
		s.MCP = append(slices.Clip(s.MCP), *server)
	}
	return s, nil
}

// Close stops serving the mocks and removes the session's home.
func (s *Session) Close() error {
	var err error
	if s.mocks != nil {
		err = s.mocks.Close()
	}
	return errors.Join(err, os.RemoveAll(s.Home))
}

// Outcome is the error of one run of a CLI from how its stream ended
// (err: the process's exit, a killed step) and what its events said failed
// (said: a failed result's or error event's text), both when both, the
// CLI's reason first. ended tells whether the event that closes a run came
// (always true for a CLI that sends none): a run that exited well without
// it is an error naming the program.
func (a *Agent) Outcome(err error, said string, ended bool) error {
	switch {
	case said != "" && err != nil:
		return a.Err(fmt.Errorf("%s (%w)", said, err))
	case said != "":
		return a.Err(errors.New(said))
	case err == nil && !ended:
		return a.Err(fmt.Errorf("%s ended without a result", filepath.Base(a.Path)))
	case err != nil:
		return a.Err(err)
	}
	return nil
}

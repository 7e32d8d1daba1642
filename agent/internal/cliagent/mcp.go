package cliagent

import (
	"maps"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/agent/internal/mockmcp"
	"github.com/agenteval/agenteval/scenario"
)

// MCPServer is an MCP server a CLI session is configured with: a program it
// starts (stdio) or a URL (streamable HTTP).
type MCPServer struct {
	// Name is the server's name in the CLI's configuration; its tools
	// are mcp__NAME__TOOL in transcripts.
	Name string
	// Command and Env are a stdio server's program, arguments and
	// environment.
	Command []string
	Env     map[string]string
	// URL is a remote server's address; BearerTokenEnv names the
	// environment variable whose value the CLI sends as its bearer token
	// (never written to a file), Headers are further headers.
	URL            string
	BearerTokenEnv string
	Headers        map[string]string
}

// MCPServers are the servers of definitions (a suite agent's mcp_servers),
// in name order.
func MCPServers(defs map[string]scenario.MCPServer) []MCPServer {
	var out []MCPServer
	for _, name := range slices.Sorted(maps.Keys(defs)) {
		d := defs[name]
		out = append(out, MCPServer{Name: name, Command: d.Command, Env: d.Env, URL: d.URL, BearerTokenEnv: d.BearerTokenEnv, Headers: d.Headers})
	}
	return out
}

// Mocks serves the scenario's setup.mocks as an MCP server for the session
// whose configuration home is home, answered by caller (the session's
// runner.MockCaller, so every call is recorded as a mock call): it returns
// the server, to close with the session, and its configuration. A scenario
// that mocks nothing gets neither.
func Mocks(home string, sc *scenario.Scenario, caller mockmcp.Caller) (*mockmcp.Server, *MCPServer, error) {
	if sc == nil || sc.Setup == nil || len(sc.Setup.Mocks) == 0 || caller == nil {
		return nil, nil, nil
	}
	srv, err := mockmcp.Start(home, sc.Setup.Mocks, caller)
	if err != nil {
		return nil, nil, err
	}
	path, env, err := srv.Command()
	if err != nil {
		_ = srv.Close()
		return nil, nil, err
	}
	return srv, &MCPServer{Name: mockmcp.Name, Command: []string{path}, Env: env}, nil
}

// MCPToolName is the name of an MCP tool call in a transcript,
// mcp__SERVER__TOOL (ghx's classifier counts it as mcp), for a CLI that
// names the tool SERVER_TOOL (OpenCode, with names sanitised as
// sanitize does); a tool of none of servers keeps its name.
func MCPToolName(tool string, servers []MCPServer) string {
	for _, s := range servers {
		if rest, ok := strings.CutPrefix(tool, sanitize(s.Name)+"_"); ok && rest != "" {
			return "mcp__" + s.Name + "__" + rest
		}
	}
	return tool
}

// sanitize replaces what a tool name may not hold by _ (OpenCode's rule
// for MCP server and tool names).
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			return r
		}
		return '_'
	}, s)
}

// ForwardNames are names and the variables holding the bearer tokens of
// defs, for Forward: a token the agent read through its Getenv reaches the
// CLI, which reads it from its environment.
func ForwardNames(defs map[string]scenario.MCPServer, names ...string) []string {
	for _, name := range slices.Sorted(maps.Keys(defs)) {
		if v := defs[name].BearerTokenEnv; v != "" && !slices.Contains(names, v) {
			names = append(names, v)
		}
	}
	return names
}

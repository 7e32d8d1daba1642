package cliagent

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// TestNewAgentForwards: every CLI agent forwards the variables it names
// and its MCP servers' bearer-token variables from the options' Getenv
// (a host's or a suite's environment need not be the process's), after a
// suite agent's env.
func TestNewAgentForwards(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "tool")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))
	env := map[string]string{"AGENTEVAL_TOOL": bin, "TOOL_BASE_URL": "http://127.0.0.1:9/v1", "GH_MCP_TOKEN": "ghp-secret", "UNNAMED": "x"}
	p := Program{Name: "tool", PathEnv: "AGENTEVAL_TOOL", Install: "npm install -g tool"}
	a, getenv, err := NewAgent("tool", "tool:MODEL", p, "m1", runner.AgentOptions{
		Getenv: func(k string) string { return env[k] }, Env: []string{"SUITE=1"}, Instructions: "Be brief.", AllowCommands: true,
		MCPServers: map[string]scenario.MCPServer{"github": {URL: "http://127.0.0.1:9/mcp", BearerTokenEnv: "GH_MCP_TOKEN"}},
	}, "TOOL_BASE_URL")
	require.NoError(t, err)
	assert.Equal(t, bin, a.Path)
	assert.Equal(t, "m1", a.Model)
	assert.Equal(t, []string{"SUITE=1", "TOOL_BASE_URL=http://127.0.0.1:9/v1", "GH_MCP_TOKEN=ghp-secret"}, a.Env)
	assert.Equal(t, "Be brief.", a.Instructions)
	assert.True(t, a.AllowCommands && a.NeedsDir() && a.Cooperative())
	require.Len(t, a.MCP, 1)
	assert.Equal(t, "github", a.MCP[0].Name)
	assert.Equal(t, "x", getenv("UNNAMED"))

	_, _, err = NewAgent("tool", "tool:MODEL", p, "", runner.AgentOptions{}, "TOOL_BASE_URL")
	assert.EqualError(t, err, "tool agent: name a model, as in tool:MODEL")
}

// TestOutcome: what the CLI said failed comes first, the process's end
// after it; a run that ended well without its closing event names the
// program.
func TestOutcome(t *testing.T) {
	a := Agent{Name: "tool", Path: "/opt/bin/tool"}
	killed := errors.New("step timed out: killed")
	for _, tt := range []struct {
		name  string
		err   error
		said  string
		ended bool
		want  string
	}{
		{"ok", nil, "", true, ""},
		{"both", killed, "rate limited", true, "tool agent: rate limited (step timed out: killed)"},
		{"said only", nil, "model not found", true, "tool agent: model not found"},
		{"stream only", killed, "", false, "tool agent: step timed out: killed"},
		{"no result", nil, "", false, "tool agent: tool ended without a result"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := a.Outcome(tt.err, tt.said, tt.ended)
			if tt.want == "" {
				assert.NoError(t, got)
				return
			}
			assert.EqualError(t, got, tt.want)
			if tt.err != nil {
				assert.ErrorIs(t, got, tt.err)
			}
		})
	}
}

// TestSessionHomeGoesWithIt: a session's home is beside the job's
// directory and removed by Close.
func TestSessionHomeGoesWithIt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "job")
	require.NoError(t, os.Mkdir(dir, 0o755))
	a := Agent{Name: "tool", Instructions: "Be brief."}
	s, err := a.NewSession(runner.SessionConfig{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, filepath.Dir(dir), filepath.Dir(s.Home))
	assert.Equal(t, "Be brief.", s.Instructions)
	require.NoError(t, s.Close())
	assert.NoDirExists(t, s.Home)
	_, err = a.NewSession(runner.SessionConfig{})
	assert.ErrorContains(t, err, "tool agent: the session has no directory")
}

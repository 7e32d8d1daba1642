package mockmcp

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/mockset"
	"github.com/agenteval/agenteval/scenario"
)

func f64(v float64) *float64 { return &v }

// connect starts the relay as a CLI would (this test binary, with
// RelayEnv from s.Command) and opens an MCP client session through it.
func connect(t *testing.T, s *Server) *mcp.ClientSession {
	t.Helper()
	path, env, err := s.Command()
	require.NoError(t, err)
	cmd := exec.Command(path)
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func text(t *testing.T, r *mcp.CallToolResult) string {
	t.Helper()
	var b strings.Builder
	for _, c := range r.Content {
		tc, ok := c.(*mcp.TextContent)
		require.True(t, ok, "%T", c)
		b.WriteString(tc.Text)
	}
	return b.String()
}

// TestToolsAnswerFromTheMocks serves mocks through the relay and calls
// them as an MCP client: one tool per service.method, matching on the
// input, error mocks as error results, a call no mock matches as one, a
// probability drawn from the seed, a delay; every call is recorded by the
// mock set as for any agent.
func TestToolsAnswerFromTheMocks(t *testing.T) {
	mocks := []scenario.Mock{
		{Service: "github", Method: "getIssue", When: &scenario.MockWhen{Input: map[string]any{"number": 7}}, Response: map[string]any{"title": "Crash on start", "state": "open"}},
		{Service: "github", Method: "getIssue", ResponseFn: "no issue ${input.number}"},
		{Service: "github", Method: "closeIssue", Error: &scenario.MockError{Code: "E_FORBIDDEN", Message: "read-only token", Status: 403}},
		{Service: "weather", Method: "today", Metadata: &scenario.MockMetadata{Probability: f64(0)}, Response: "never"},
		{Service: "slow", Method: "ping", Metadata: &scenario.MockMetadata{Delay: 150}, Response: "pong"},
	}
	set := mockset.New(mocks, 1, nil)
	s, err := Start(t.TempDir(), mocks, set)
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	cs := connect(t, s)
	ctx := context.Background()

	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	assert.ElementsMatch(t, []string{"github__getIssue", "github__closeIssue", "weather__today", "slow__ping"}, names)

	tests := []struct {
		tool    string
		args    map[string]any
		want    string
		isError bool
	}{
		{"github__getIssue", map[string]any{"number": 7}, `{"state":"open","title":"Crash on start"}`, false},
		{"github__getIssue", map[string]any{"number": 8}, "no issue 8", false},
		{"github__closeIssue", map[string]any{"number": 7}, "E_FORBIDDEN: read-only token", true},
		{"weather__today", nil, "weather.today: no mock matches the call", true},
		{"slow__ping", map[string]any{}, "pong", false},
	}
	for _, tt := range tests {
		start := time.Now()
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
		require.NoError(t, err, tt.tool)
		assert.Equal(t, tt.want, text(t, r), tt.tool)
		assert.Equal(t, tt.isError, r.IsError, tt.tool)
		if tt.tool == "slow__ping" {
			assert.GreaterOrEqual(t, time.Since(start), 150*time.Millisecond, "the mock's delay")
		}
	}
	calls := set.Calls()
	require.Len(t, calls, 5)
	assert.Equal(t, "github", calls[0].Service)
	assert.Equal(t, "getIssue", calls[0].Method)
	assert.Equal(t, []any{map[string]any{"number": 7.0}}, calls[0].Args)
	assert.Equal(t, 0, calls[0].Mock)
	assert.Equal(t, 1, calls[1].Mock)
	assert.Equal(t, 2, calls[2].Mock)
	assert.Equal(t, "E_FORBIDDEN: read-only token", calls[2].Error)
	assert.Equal(t, -1, calls[3].Mock, "probability 0 never applies")
	assert.Equal(t, 4, calls[4].Mock)
}

// TestRelayRefusesAWrongToken: a connection without the session's token
// gets no MCP session.
func TestRelayRefusesAWrongToken(t *testing.T) {
	dir := t.TempDir()
	mocks := []scenario.Mock{{Service: "a", Method: "b", Response: "c"}}
	s, err := Start(dir, mocks, mockset.New(mocks, 1, nil))
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	b, err := os.ReadFile(s.file)
	require.NoError(t, err)
	addr, _, _ := strings.Cut(string(b), "\n")
	require.NoError(t, os.WriteFile(s.file, []byte(addr+"\nwrong-token\n"), 0o600))
	path, env, err := s.Command()
	require.NoError(t, err)
	cmd := exec.Command(path)
	cmd.Env = append(os.Environ(), RelayEnv+"="+env[RelayEnv])
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}` + "\n")
	out, err := cmd.Output()
	require.NoError(t, err)
	assert.Empty(t, out, "no answer without the token")
}

// TestNoMocksNoServer: a scenario without mocks gets no MCP server; Close
// of none is fine.
func TestNoMocksNoServer(t *testing.T) {
	s, err := Start(t.TempDir(), nil, nil)
	require.NoError(t, err)
	assert.Nil(t, s)
	assert.NoError(t, s.Close())
}

func TestToolName(t *testing.T) {
	for _, tt := range []struct{ service, method, want string }{
		{"github", "getIssue", "github__getIssue"},
		{"", "search", "search"},
		{"my.svc", "do it", "my_svc__do_it"},
	} {
		assert.Equal(t, tt.want, ToolName(tt.service, tt.method))
	}
}

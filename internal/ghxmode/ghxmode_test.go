package ghxmode

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/scenario"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// TestModes: each mode as ghx's EvalModeResolver defines it.
func TestModes(t *testing.T) {
	dir := t.TempDir()
	a, err := Agent("baseline", dir, env(nil))
	require.NoError(t, err)
	assert.Equal(t, scenario.SuiteAgent{Name: "baseline", Agent: "opencode", Instructions: baselineInstructions}, a)

	a, err = Agent("mcp", dir, env(nil))
	require.NoError(t, err)
	assert.Nil(t, a.MCPServers, "ghx configures the GitHub MCP server only with a token")
	assert.Equal(t, mcpInstructions, a.Instructions)
	a, err = Agent("mcp", dir, env(map[string]string{"GITHUB_TOKEN": "t"}))
	require.NoError(t, err)
	assert.Equal(t, map[string]scenario.MCPServer{"github": {URL: GitHubMCPURL, BearerTokenEnv: "GITHUB_TOKEN"}}, a.MCPServers)
	a, err = Agent("mcp", dir, env(map[string]string{"GH_TOKEN": "t", "GITHUB_TOKEN": "u", "AGENTEVAL_GITHUB_MCP_URL": "http://127.0.0.1:8/mcp"}))
	require.NoError(t, err)
	assert.Equal(t, map[string]scenario.MCPServer{"github": {URL: "http://127.0.0.1:8/mcp", BearerTokenEnv: "GH_TOKEN"}}, a.MCPServers)

	a, err = Agent("ghx", dir, env(map[string]string{"PATH": "/usr/bin"}))
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "node_modules", ".bin")+":/usr/bin", a.Env["PATH"])
	assert.Equal(t, skillFallback, a.Instructions, "no SKILL.md anywhere: ghx's fallback")

	// gh's environment reaches every mode, so gh (and ghx) act on the
	// GitHub the run's checkpoints read.
	ghVars := map[string]string{"GH_HOST": "127.0.0.1:8443", "GH_ENTERPRISE_TOKEN": "e", "SSL_CERT_FILE": "/c.pem", "PATH": "/usr/bin", "OTHER": "x"}
	for _, mode := range Modes {
		a, err = Agent(mode, dir, env(ghVars))
		require.NoError(t, err)
		assert.Equal(t, "127.0.0.1:8443", a.Env["GH_HOST"], mode)
		assert.Equal(t, "e", a.Env["GH_ENTERPRISE_TOKEN"], mode)
		assert.Equal(t, "/c.pem", a.Env["SSL_CERT_FILE"], mode)
		assert.NotContains(t, a.Env, "OTHER", mode)
		assert.NotContains(t, a.Env, "GH_TOKEN", mode)
	}

	_, err = Agent("ghz", dir, env(nil))
	assert.ErrorContains(t, err, `unknown ghx mode "ghz"`)
}

// TestSkillFoundAsGhxFindsIt: SKILL.md is looked for in ghx's order.
func TestSkillFoundAsGhxFindsIt(t *testing.T) {
	dir, home, bin := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "prefix", "bin")
	write := func(p, text string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	vars := map[string]string{"HOME": home, "GHX_BIN_DIR": bin}
	// Shipped with @ghx-dev/core beside the ghx binary (npm's global layout).
	write(filepath.Join(bin, "..", "lib", "node_modules", "@ghx-dev", "core", "skills", "github-ghx", "SKILL.md"), "not looked at")
	write(filepath.Join(bin, "..", "node_modules", "@ghx-dev", "core", "skills", "using-ghx", "SKILL.md"), "shipped")
	a, err := Agent("ghx", dir, env(vars))
	require.NoError(t, err)
	assert.Equal(t, "shipped", a.Instructions)
	write(filepath.Join(home, ".agents", "skills", "ghx", "SKILL.md"), "user's")
	a, _ = Agent("ghx", dir, env(vars))
	assert.Equal(t, "user's", a.Instructions)
	write(filepath.Join(dir, "SKILL.md"), "working directory's")
	a, _ = Agent("ghx", dir, env(vars))
	assert.Equal(t, "working directory's", a.Instructions)
	vars["GHX_SKILL_MD"] = filepath.Join(home, "mine.md")
	write(vars["GHX_SKILL_MD"], "named")
	a, _ = Agent("ghx", dir, env(vars))
	assert.Equal(t, "named", a.Instructions)
	assert.Equal(t, bin+":", a.Env["PATH"])
}

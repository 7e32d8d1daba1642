package eliza

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/runner"
)

// TestNewChecksTheProject: a project that is not a directory is refused
// with the spec's form; a good one gives an agent whose programs learn
// the project, the npm folder and the model endpoint.
func TestNewChecksTheProject(t *testing.T) {
	testtool.Need(t, "node")
	cache := t.TempDir()
	env := map[string]string{"XDG_CACHE_HOME": cache, "OPENAI_BASE_URL": "http://127.0.0.1:1/v1"}
	opts := runner.AgentOptions{Getenv: func(k string) string { return env[k] }}
	_, err := Type().New(filepath.Join(cache, "missing"), opts)
	assert.ErrorContains(t, err, "is not a directory (give an ElizaOS project's directory, as in eliza:./my-agent)")
	a, err := Type().New(t.TempDir(), opts)
	require.NoError(t, err)
	require.NotNil(t, a)
	// Nothing is written outside the run: the bridge runs from the
	// binary's bytes, and every job gets a directory in the run's work
	// folder for its session's files.
	entries, err := os.ReadDir(cache)
	require.NoError(t, err)
	assert.Empty(t, entries, "the agent wrote into the cache folder")
	nd, ok := a.(interface{ NeedsDir() bool })
	require.True(t, ok)
	assert.True(t, nd.NeedsDir())
	pooled, end := a.(runner.RunScopedAgent).ForRun(2)
	defer end()
	assert.True(t, pooled.(interface{ NeedsDir() bool }).NeedsDir(), "the run asks the pool it runs")
}

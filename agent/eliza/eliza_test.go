package eliza

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/runner"
)

// TestBridgeIsWrittenOnceUnderItsHash: the embedded bridge lands in the
// cache under a name carrying its hash, a second write finds it in place,
// and a damaged copy is replaced.
func TestBridgeIsWrittenOnceUnderItsHash(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path, err := writeBridge(dir)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(filepath.Base(path), "eliza-bridge-"))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, bridgeSource, b)
	again, err := writeBridge(dir)
	require.NoError(t, err)
	assert.Equal(t, path, again)
	require.NoError(t, os.WriteFile(path, []byte("damaged"), 0o644))
	_, err = writeBridge(dir)
	require.NoError(t, err)
	b, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, bridgeSource, b)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left behind")
}

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
	matches, err := filepath.Glob(filepath.Join(cache, "agenteval", "eliza-bridge", "eliza-bridge-*.mjs"))
	require.NoError(t, err)
	assert.Len(t, matches, 1)
}

package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/examples/plugins"
	"github.com/agenteval/agenteval/internal/githubfake"
)

// runCLIKit runs the CLI in-process on kit, as a host program that builds
// its own command on agenteval's would.
func runCLIKit(t *testing.T, kit *agenteval.Kit, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), getenv: func(string) string { return "" }, kit: kit}
	code = mainWith(context.Background(), env, args)
	return code, out.String(), errb.String()
}

// TestPluginsReachEveryCommand registers a host's evaluation type,
// strategy, condition type and agent once, on the kit the CLI is built on,
// and finds them in `types` and `schema`, accepted by `validate` and run by
// `run` (its checkpoint against a fake GitHub with the real client).
func TestPluginsReachEveryCommand(t *testing.T) {
	t.Parallel()
	kit := agenteval.New()
	require.NoError(t, plugins.Register(kit))
	dir := t.TempDir()
	file := filepath.Join(dir, "host.scenario.yaml")
	require.NoError(t, os.WriteFile(file, plugins.Scenario, 0o644))

	code, stdout, stderr := runCLIKit(t, kit, "types")
	require.Equal(t, exitOK, code, stderr)
	for _, want := range []string{"- `word_limit`: The reply has at most max words.", "- `at_least_two`: Passes when at least two",
		"- `title_mentions`: Holds when the result's title contains value", "- `shout`: replies with the message in capitals"} {
		assert.Contains(t, stdout, want)
	}
	code, stdout, stderr = runCLIKit(t, kit, "schema", "scenario")
	require.Equal(t, exitOK, code, stderr)
	for _, want := range []string{`"word_limit"`, `"at_least_two"`, `"title_mentions"`} {
		assert.Contains(t, stdout, want)
	}
	code, _, stderr = runCLIKit(t, kit, "validate", "--strict", file)
	assert.Equal(t, exitOK, code, stderr)
	code, _, stderr = runCLIKit(t, agenteval.New(), "validate", file)
	assert.Equal(t, exitFail, code, "without the plugins the file is invalid")
	assert.Contains(t, stderr, "3 error(s)")

	gh := githubfake.NewServer(t)
	gh.AddRepo("acme/widgets").AddIssue(githubfake.Issue{Title: "App crashes on start"})
	out := filepath.Join(dir, "out")
	code, _, stderr = runCLIKit(t, kit, "run", "--agent", "shout", "--graphql-url", gh.GraphQLURL(), "--out", out, file)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "1 job(s): 1 passed, 0 failed, 0 incomplete")
	results, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
	require.NoError(t, err)
	assert.Contains(t, string(results), `"strategy":"at_least_two"`)
	assert.Contains(t, string(results), `"expected":"title mentions crash"`)
	assert.Contains(t, string(results), `"type":"word_limit"`)
}

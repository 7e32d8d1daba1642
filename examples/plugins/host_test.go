package plugins_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/examples/plugins"
)

// TestHostBuildsItsOwnCLI builds host/main.go (a host program of under 30
// lines: cli.Main on a kit with the plugins registered) and runs it as a
// user would: validate, schema, types and run accept the host's evaluation
// type, strategy and agent, which the shipped agenteval refuses.
func TestHostBuildsItsOwnCLI(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(filepath.Join("host", "main.go"))
	require.NoError(t, err)
	assert.LessOrEqual(t, strings.Count(string(src), "\n"), 30, "a host's CLI is a few lines")
	dir := t.TempDir()
	bin := filepath.Join(dir, "host")
	build := exec.Command("go", "build", "-o", bin, "./host")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	// The scenario without its checkpoint: this test has no GitHub.
	text := string(plugins.Scenario)
	if i, j := strings.Index(text, "\ncheckpoints:"), strings.Index(text, "\njudgment:"); i >= 0 && j > i {
		text = text[:i+1] + text[j+1:]
	}
	file := filepath.Join(dir, "host.scenario.yaml")
	require.NoError(t, os.WriteFile(file, []byte(text), 0o644))
	run := func(args ...string) (int, string) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		b, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode(), string(b)
		}
		require.NoError(t, err)
		return 0, string(b)
	}
	code, text := run("types")
	require.Equal(t, 0, code, text)
	assert.Contains(t, text, "`word_limit`")
	assert.Contains(t, text, "`shout`")
	code, text = run("schema", "scenario")
	require.Equal(t, 0, code, text)
	assert.Contains(t, text, `"word_limit"`)
	code, text = run("validate", "--strict", file)
	require.Equal(t, 0, code, text)
	code, text = run("run", "--agent", "shout", "--out", filepath.Join(dir, "out"), file)
	require.Equal(t, 0, code, text)
	assert.Contains(t, text, "1 job(s): 1 passed, 0 failed, 0 incomplete")
	results, err := os.ReadFile(filepath.Join(dir, "out", "results.jsonl"))
	require.NoError(t, err)
	assert.Contains(t, string(results), `"type":"word_limit"`)
}

//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shadowInterpreters puts programs named like every interpreter a scenario
// may start first on PATH; each one records that it was started in log.
func shadowInterpreters(t *testing.T, log string) {
	t.Helper()
	bin := t.TempDir()
	for _, name := range []string{"sh", "bash", "python3", "python", "node"} {
		script := "#!/bin/sh\necho \"$0 $*\" >> '" + log + "'\nexit 97\n"
		require.NoError(t, os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755))
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// The bar: `agenteval run --agent echo DIR` over a directory
// mixing e2b files, code steps and judge-needing files exits 0 or 1 (never
// 2), writes one record per job, and executes no command.
func TestRunMixedDirectoryExecutesNothing(t *testing.T) { // not parallel: it sets PATH and the environment
	tmp := t.TempDir()
	witness := filepath.Join(tmp, "witness")
	started := filepath.Join(tmp, "started")
	t.Setenv("AGENTEVAL_WITNESS", witness)
	shadowInterpreters(t, started)
	out := filepath.Join(tmp, "out")

	code, _, stderr := runCLI(t, "run", "--agent", "echo", "--out", out, "testdata/mixed")
	assert.Equal(t, exitFail, code, stderr)
	assert.Contains(t, stderr, "9 job(s): 1 passed, 0 failed, 8 incomplete")
	for _, want := range []string{
		`e2b-code.scenario.yaml: warning: its jobs will be recorded incomplete: environment type "e2b" has no provider registered`,
		"e2b-code.scenario.yaml: warning: its jobs will be recorded incomplete: it runs commands (a python3 code step at run[0])",
		"code.scenario.yaml: warning: its jobs will be recorded incomplete: it runs commands (a sh code step at run[0])",
		"command.scenario.yaml: warning: its jobs will be recorded incomplete: it runs commands (command_exit_code_is at run[0].evaluations[1])",
		"judge.scenario.yaml: warning: its jobs will be recorded incomplete: it needs a judge model (llm_judge at run[0].evaluations[0])",
		"fixture-001.json: warning: its jobs will be recorded incomplete: it needs fixture pr_with_review",
	} {
		assert.Contains(t, stderr, want)
	}
	plans, jobs := readLines(t, filepath.Join(out, "results.jsonl"))
	require.Len(t, plans, 1)
	assert.EqualValues(t, 9, plans[0].TotalJobs)
	require.Len(t, jobs, 9, "one record per job")
	ids := map[string]bool{}
	for _, j := range jobs {
		ids[j.ID] = true
	}
	assert.Len(t, ids, 9)
	assert.NoFileExists(t, witness, "a command ran")
	assert.NoFileExists(t, started, "an interpreter was started")

	// With consent and a fallback the same directory runs its commands:
	// the witness is a real one.
	code, _, stderr = runCLI(t, "run", "--agent", "echo", "--allow-commands", "--env-fallback", "local", "--out", filepath.Join(tmp, "out2"), "testdata/mixed")
	assert.Equal(t, exitFail, code, stderr)
	b, err := os.ReadFile(started)
	require.NoError(t, err, stderr)
	assert.Contains(t, string(b), "python3 -c")
	assert.Contains(t, string(b), "sh -c")
	assert.True(t, strings.Contains(stderr, "9 job(s)"), stderr)
}

// The same bar over ElizaOS's real scenario files (testdata/shared/peer/eliza):
// never exit 2, one record per job, no command started.
func TestRunElizaPeerFilesExecutesNothing(t *testing.T) { // not parallel: it sets PATH
	files, _ := filepath.Glob("../testdata/shared/peer/eliza/*.yaml")
	require.NotEmpty(t, files)
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "eliza")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644))
	}
	started := filepath.Join(tmp, "started")
	shadowInterpreters(t, started)
	code, _, stderr := runCLI(t, "run", "--agent", "echo", "--out", filepath.Join(tmp, "out"), dir)
	assert.Contains(t, []int{exitOK, exitFail}, code, stderr)
	plans, jobs := readLines(t, filepath.Join(tmp, "out", "results.jsonl"))
	require.Len(t, plans, 1)
	assert.Len(t, jobs, int(plans[0].TotalJobs), "one record per job")
	assert.NoFileExists(t, started, "an interpreter was started")
}

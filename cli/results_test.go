package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// slowAgent writes an exec agent in sh that answers each message after a
// pause, so that a run lasts long enough to meet another or be killed.
func slowAgent(t *testing.T, dir string) string {
	t.Helper()
	return writeSlowAgent(t, filepath.Join(dir, "slow-agent.sh"), "")
}

// writeSlowAgent writes slowAgent's script to path, with first as its
// first line of output.
func writeSlowAgent(t *testing.T, path, first string) string {
	t.Helper()
	require.NoError(t, os.WriteFile(path, []byte(`#!/bin/sh
`+first+`
while IFS= read -r line; do
  case "$line" in
    *'"type":"message"'*) sleep 0.05; echo '{"type":"reply","text":"Question 1: what is topic-1?"}' ;;
  esac
done
`), 0o755))
	return path
}

// startRun starts `agenteval run` as a real process (the test binary acting
// as the command) with extra environment variables.
func startRun(t *testing.T, env []string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"run"}, args...)...)
	cmd.Env = append(append(os.Environ(), "AGENTEVAL_TEST_MAIN=1"), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	return cmd, &stderr
}

func countPlans(t *testing.T, path string) int {
	t.Helper()
	b, _ := os.ReadFile(path)
	return strings.Count(string(b), `"record":"plan"`)
}

func waitForJobs(t *testing.T, results string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for countJobs(t, results) < n && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	require.GreaterOrEqual(t, countJobs(t, results), n, "the run did not get going")
}

// TestConcurrentRunsIntoOneFolder: a second run into a folder that a
// running process writes refuses at once (exit 2), naming the folder and
// the process; the first finishes with a complete, valid file.
func TestConcurrentRunsIntoOneFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// The first run's agent answers only once the test has tried the others.
	release := filepath.Join(dir, "release")
	agent := filepath.Join(dir, "held-agent.sh")
	require.NoError(t, os.WriteFile(agent, []byte(`#!/bin/sh
while IFS= read -r line; do
  case "$line" in
    *'"type":"message"'*)
      while [ ! -e '`+release+`' ]; do sleep 0.01; done
      echo '{"type":"reply","text":"Question 1: what is topic-1?"}' ;;
  esac
done
`), 0o755))
	out := filepath.Join(dir, "out")
	results := filepath.Join(out, "results.jsonl")
	const runs = 30
	first, firstErr := startRun(t, nil, "--agent", "exec:"+agent, "--concurrency", "3", "--runs", fmt.Sprint(runs), "--out", out, "testdata/run/echo.scenario.yaml")
	defer func() { _ = os.WriteFile(release, nil, 0o644) }()
	deadline := time.Now().Add(30 * time.Second)
	for countPlans(t, results) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	require.Equal(t, 1, countPlans(t, results), "the first run opened its results")

	for _, extra := range [][]string{nil, {"--resume"}, {"--overwrite"}} {
		args := append([]string{"run", "--agent", "echo", "--runs", fmt.Sprint(runs), "--out", out}, extra...)
		code, _, stderr := runCLI(t, append(args, "testdata/run/echo.scenario.yaml")...)
		assert.Equal(t, exitUsage, code, stderr)
		assert.Contains(t, stderr, fmt.Sprintf("results folder %s is in use by process %d", out, first.Process.Pid), "%v", extra)
	}

	require.NoError(t, os.WriteFile(release, nil, 0o644))
	require.NoError(t, first.Wait(), firstErr.String())
	plans, jobs := readLines(t, results)
	assert.Len(t, plans, 1)
	ids := map[string]int{}
	for _, j := range jobs {
		ids[j.ID]++
	}
	assert.Len(t, ids, runs)
	for id, n := range ids {
		assert.Equal(t, 1, n, id)
	}
	b, err := os.ReadFile(results)
	require.NoError(t, err)
	for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		assert.True(t, json.Valid([]byte(line)), "line %d: %s", i+1, line)
	}
	assert.NoFileExists(t, filepath.Join(out, ".agenteval.lock"))
}

// TestRunDoesNotReplaceResults: a run without --resume into a folder that
// holds results refuses (exit 2) and leaves them; --overwrite replaces
// them; --resume and --overwrite together are a usage error.
func TestRunDoesNotReplaceResults(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	results := filepath.Join(out, "results.jsonl")
	code, _, stderr := runCLI(t, "run", "--runs", "3", "--out", out, "testdata/run/echo.scenario.yaml")
	require.Equal(t, exitOK, code, stderr)
	before, err := os.ReadFile(results)
	require.NoError(t, err)

	code, _, stderr = runCLI(t, "run", "--out", out, "testdata/run/echo.scenario.yaml")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, results+" holds the results of an earlier run; finish that run with --resume, replace it with --overwrite, or choose another --out")
	after, err := os.ReadFile(results)
	require.NoError(t, err)
	assert.Equal(t, before, after)

	code, _, stderr = runCLI(t, "run", "--resume", "--overwrite", "--out", out, "testdata/run/echo.scenario.yaml")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "give one of them")

	code, _, stderr = runCLI(t, "run", "--overwrite", "--out", out, "testdata/run/echo.scenario.yaml")
	require.Equal(t, exitOK, code, stderr)
	_, jobs := readLines(t, results)
	assert.Len(t, jobs, 1, "replaced by the new run")

	_, help, helpErr := runCLI(t, "run", "-h")
	assert.Contains(t, help+helpErr, "-overwrite")
}

// TestResumeWithOtherInputsIsRefused: --resume with another agent, seed or
// file content would append a conflicting plan; it is refused (exit 2),
// saying what differs, and the file is left byte for byte.
func TestResumeWithOtherInputsIsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	scen := filepath.Join(dir, "echo.scenario.yaml")
	orig, err := os.ReadFile("testdata/run/echo.scenario.yaml")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(scen, orig, 0o644))
	out := filepath.Join(dir, "out")
	results := filepath.Join(out, "results.jsonl")
	code, _, stderr := runCLI(t, "run", "--runs", "2", "--out", out, scen)
	require.Equal(t, exitOK, code, stderr)
	before, err := os.ReadFile(results)
	require.NoError(t, err)

	edited := strings.Replace(string(orig), "topic-}", "topic}", 1)
	tests := []struct {
		name   string
		args   []string
		edit   string
		stderr string
	}{
		{"agent", []string{"--agent", "exec:./agent"}, "", `agent: recorded "echo", now "exec:./agent"`},
		{"seed", []string{"--seed", "9"}, "", "seed: recorded 1, now 9"},
		{"runs", []string{"--runs", "3"}, "", "total jobs: recorded 2, now 3"},
		{"judge", []string{"--judge-model", "openai:m"}, "", `judge-model: recorded "", now "openai:m"`},
		{"content", nil, edited, "input " + scen + ": its content changed since it was recorded"},
	}
	for _, tc := range tests {
		if tc.edit != "" {
			require.NoError(t, os.WriteFile(scen, []byte(tc.edit), 0o644))
		}
		args := append([]string{"run", "--resume", "--runs", "2", "--out", out}, tc.args...)
		code, _, stderr := runCLI(t, append(args, scen)...)
		assert.Equal(t, exitUsage, code, tc.name)
		assert.Contains(t, stderr, tc.stderr, tc.name)
		assert.Contains(t, stderr, "nothing was written", tc.name)
		after, err := os.ReadFile(results)
		require.NoError(t, err)
		assert.Equal(t, before, after, tc.name)
		require.NoError(t, os.WriteFile(scen, orig, 0o644))
	}
	code, _, stderr = runCLI(t, "run", "--resume", "--runs", "2", "--out", out, scen)
	assert.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "2 skipped")
}

// TestKilledRunLeavesNothingInTheTempDir: run directories live in the
// results folder; after kill -9 the system temp directory holds none of
// them, and the next run into the folder removes what the killed one left.
func TestKilledRunLeavesNothingInTheTempDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	agent := slowAgent(t, dir)
	scen := filepath.Join(dir, "files.scenario.yaml")
	require.NoError(t, os.WriteFile(scen, []byte(`name: files
description: needs a run directory
environment: {type: local}
setup:
  virtual_fs:
    notes.txt: hello
run:
  - input: "Question 1: what is topic-1?"
    evaluations:
      - {type: string_contains, value: topic-}
      - {type: file_exists, path: notes.txt}
judgment: {strategy: all_pass}
`), 0o644))
	tmp := filepath.Join(dir, "tmp")
	require.NoError(t, os.Mkdir(tmp, 0o755))
	out := filepath.Join(dir, "out")
	results := filepath.Join(out, "results.jsonl")
	args := []string{"--agent", "exec:" + agent, "--concurrency", "3", "--runs", "40", "--out", out, scen}
	cmd, _ := startRun(t, []string{"TMPDIR=" + tmp}, args...)
	waitForJobs(t, results, 3)
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()

	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, left, "nothing in the temp directory")
	stale := filepath.Join(out, "work", "agenteval-stale-from-a-killed-run")
	require.NoError(t, os.MkdirAll(stale, 0o755))

	cmd, stderr := startRun(t, []string{"TMPDIR=" + tmp}, append([]string{"--resume"}, args...)...)
	require.NoError(t, cmd.Wait(), stderr.String())
	assert.NoDirExists(t, filepath.Join(out, "work"), "the killed run's directories are gone, and this run's")
	left, err = os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, left)
	_, jobs := readLines(t, results)
	ids := map[string]bool{}
	for _, j := range jobs {
		ids[j.ID] = true
	}
	assert.Len(t, ids, 40)

	code, _, stderr2 := runCLI(t, "run", "--keep-dirs", "--overwrite", "--agent", "exec:"+agent, "--out", out, scen)
	require.Equal(t, exitOK, code, stderr2)
	kept, err := os.ReadDir(filepath.Join(out, "work"))
	require.NoError(t, err)
	assert.Len(t, kept, 1, "--keep-dirs keeps them in DIR/work")
}

//go:build unix

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/proctest"
)

// `agenteval run --agent exec:yes` used to never finish and leave yes
// running: now the session fails on the first line that is not the
// protocol, the job is recorded incomplete, and yes is killed.
func TestRunExecYesFinishesAndLeavesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	marker := "agenteval-yes-" + proctest.SleepArg()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "hi.scenario.yaml"), []byte(`name: hi
description: one message
environment: {type: local}
run:
  - input: hello
    timeout: 3s
    evaluations: [{type: string_contains, value: hello}]
judgment: {strategy: all_pass}
`), 0o644))
	start := time.Now()
	code, _, stderr := runCLI(t, "run", "--agent", "exec:yes "+marker, "--out", filepath.Join(dir, "out"), dir)
	assert.Less(t, time.Since(start), 20*time.Second)
	assert.Equal(t, exitFail, code, stderr)
	assert.Contains(t, stderr, "1 job(s): 0 passed, 0 failed, 1 incomplete")
	proctest.RequireGone(t, marker, 10*time.Second)
}

// persistentAgent writes slowAgent's script, announcing that it serves
// many sessions.
func persistentAgent(t *testing.T, dir string) string {
	t.Helper()
	return writeSlowAgent(t, filepath.Join(dir, "persistent-agent.sh"), `echo '{"type":"ready","sessions":"many"}'`)
}

// Ctrl-C during a run with persistent agents: the run stops, says so, and
// leaves none of its agent processes behind, the ones serving a session
// and the idle ones alike.
func TestRunInterruptedEndsPersistentAgents(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	marker := "agenteval-int-" + proctest.SleepArg()
	out := filepath.Join(dir, "out")
	cmd, stderr := startRun(t, nil, "--agent", "exec:sh "+persistentAgent(t, dir)+" "+marker, "--concurrency", "3", "--runs", "200",
		"--out", out, "testdata/run/echo.scenario.yaml")
	results := filepath.Join(out, "results.jsonl")
	deadline := time.Now().Add(30 * time.Second)
	for countJobs(t, results) < 5 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	require.NotEmpty(t, proctest.Alive(t, marker), "the agents are running")
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	err := cmd.Wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, stderr.String())
	assert.Equal(t, exitFail, exit.ExitCode())
	assert.Contains(t, stderr.String(), "interrupted")
	assert.Less(t, countJobs(t, results), 200, "the interrupt came before the end")
	assert.Empty(t, proctest.Alive(t, marker), "no agent process outlives the run")
}

// A run with a persistent agent keeps at most --concurrency processes and
// leaves none when it ends.
func TestRunPersistentAgentLeavesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	marker := "agenteval-persist-" + proctest.SleepArg()
	starts := filepath.Join(dir, "starts")
	agent := "exec:echo started >> " + starts + "; exec sh " + persistentAgent(t, dir) + " " + marker
	code, _, stderr := runCLI(t, "run", "--agent", agent, "--concurrency", "2", "--runs", "30", "--out", filepath.Join(dir, "out"), "testdata/run/echo.scenario.yaml")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "30 job(s): 30 passed")
	b, err := os.ReadFile(starts)
	require.NoError(t, err)
	assert.LessOrEqual(t, strings.Count(string(b), "started"), 2, "one process per slot")
	assert.Empty(t, proctest.Alive(t, marker), "no agent process outlives the run")
}

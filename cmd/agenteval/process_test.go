//go:build unix

package main

import (
	"os"
	"path/filepath"
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

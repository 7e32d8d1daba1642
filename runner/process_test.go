//go:build unix

package runner

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/proctest"
	"github.com/agenteval/agenteval/scenario"
)

func codeScenario(t *testing.T, code, timeout string) *scenario.Scenario {
	t.Helper()
	f, err := testLoad("code.scenario.yaml", []byte(`name: code
description: a code step
environment: {type: local}
run:
  - lang: sh
    code: `+quoted(code)+`
    timeout: `+timeout+`
    evaluations: [{type: regex_match, pattern: "started"}]
judgment: {strategy: all_pass}
`))
	require.NoError(t, err)
	return f.Scenario
}

func TestCodeStepLeftoverIsKilled(t *testing.T) {
	t.Parallel()
	marker := proctest.SleepArg()
	start := time.Now()
	res := runOne(t, Config{Agent: echoAgent{}, AllowCommands: true}, codeScenario(t, "sleep "+marker+" & echo started", "10s"))
	assert.Less(t, time.Since(start), 20*time.Second)
	assert.True(t, res.Passed, res.Explain())
	notes := strings.Join(res.Notes, "\n")
	assert.Contains(t, notes, "step 0: code step: killed 1 process ")
	assert.Contains(t, notes, marker)
	proctest.RequireGone(t, marker, 10*time.Second)
}

func TestCodeStepTimeoutSaysWhatWasKilled(t *testing.T) {
	t.Parallel()
	marker := proctest.SleepArg()
	start := time.Now()
	res := runOne(t, Config{Agent: echoAgent{}, AllowCommands: true}, codeScenario(t, "echo started; sleep "+marker, "200ms"))
	assert.Less(t, time.Since(start), 20*time.Second)
	assert.False(t, res.Completed)
	assert.Contains(t, res.Error, "code step timeout of 200ms")
	assert.Contains(t, res.Error, marker)
	proctest.RequireGone(t, marker, 10*time.Second)
}

func TestCommandExitCodeIsLeftoverIsKilled(t *testing.T) {
	t.Parallel()
	marker := proctest.SleepArg()
	f, err := testLoad("cmd.scenario.yaml", []byte(`name: cmd
description: a command check that starts a background process
environment: {type: local}
run:
  - input: hi
    evaluations: [{type: command_exit_code_is, command: `+quoted("sleep "+marker+" & true")+`}]
judgment: {strategy: all_pass}
`))
	require.NoError(t, err)
	start := time.Now()
	res := runOne(t, Config{Agent: echoAgent{}, AllowCommands: true}, f.Scenario)
	assert.Less(t, time.Since(start), 20*time.Second)
	assert.True(t, res.Passed, res.Explain())
	require.Len(t, res.Evaluations, 1)
	assert.Contains(t, res.Evaluations[0].Details["killed"], marker)
	proctest.RequireGone(t, marker, 10*time.Second)
}

func TestCodeStepOutputIsBounded(t *testing.T) {
	t.Parallel()
	res := runOne(t, Config{Agent: echoAgent{}, AllowCommands: true},
		codeScenario(t, "echo started; head -c 3000000 /dev/zero | tr '\\\\0' x", "20s"))
	assert.True(t, res.Passed, res.Explain())
	assert.Contains(t, strings.Join(res.Notes, "\n"), fmt.Sprintf("step 0: code step stdout: kept the first %d bytes of 3000008", 1<<20))
}

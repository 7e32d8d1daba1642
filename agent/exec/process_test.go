//go:build unix

package exec

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/agenttest"
	"github.com/agenteval/agenteval/internal/proctest"
	"github.com/agenteval/agenteval/runner"
)

func testExecAgent(t *testing.T, command string) *execAgent {
	t.Helper()
	a, err := newExecAgent(command)
	require.NoError(t, err)
	return a
}

// `--agent exec:yes` floods stdout with lines that are not the protocol:
// the session fails at once and yes does not outlive it.
func TestExecAgentThatFloodsIsStoppedAndKilled(t *testing.T) {
	t.Parallel()
	marker := "agenteval-flood-" + proctest.SleepArg()
	start := time.Now()
	res := agenttest.RunOne(t, runner.Config{Agent: testExecAgent(t, "yes "+marker)}, inputScenario(t, "5s"))
	assert.Less(t, time.Since(start), 20*time.Second)
	assert.False(t, res.Completed)
	assert.Contains(t, res.Error, "line is not JSON")
	require.NotEmpty(t, res.Notes)
	assert.Contains(t, strings.Join(res.Notes, "\n"), "yes "+marker+" (pid")
	proctest.RequireGone(t, marker, 10*time.Second)
}

// An agent that never answers and leaves a child behind: the step timeout
// holds, and neither the agent nor its child outlives the job.
func TestExecAgentTimeoutKillsItsGroup(t *testing.T) {
	t.Parallel()
	marker := proctest.SleepArg()
	start := time.Now()
	res := agenttest.RunOne(t, runner.Config{Agent: testExecAgent(t, "sleep "+marker+" & cat >/dev/null")}, inputScenario(t, "300ms"))
	assert.Less(t, time.Since(start), 20*time.Second, "the run must not wait for the agent's child")
	assert.False(t, res.Completed)
	assert.Contains(t, res.Error, "timed out")
	notes := strings.Join(res.Notes, "\n")
	assert.Contains(t, notes, marker)
	assert.Contains(t, notes, "the session broke")
	proctest.RequireGone(t, marker, 10*time.Second)
}

// An agent that answers and exits, leaving a child holding its stderr.
func TestExecAgentLeftoverIsKilledAtSessionEnd(t *testing.T) {
	t.Parallel()
	marker := proctest.SleepArg()
	script := `sleep ` + marker + ` & read start; read msg; echo '{"type":"reply","id":1,"text":"hello"}'`
	start := time.Now()
	res := agenttest.RunOne(t, runner.Config{Agent: testExecAgent(t, script)}, inputScenario(t, "5s"))
	assert.Less(t, time.Since(start), 20*time.Second)
	assert.True(t, res.Passed, res.Explain())
	assert.Contains(t, strings.Join(res.Notes, "\n"), "left them running")
	proctest.RequireGone(t, marker, 10*time.Second)
}

// An agent that writes without a newline is stopped at the line bound
// (before its step timeout), the session fails with the reason, and the
// program is killed.
func TestExecAgentLineBound(t *testing.T) {
	t.Parallel()
	marker := proctest.SleepArg()
	agent := testExecAgent(t, "cat /dev/zero; sleep "+marker)
	start := time.Now()
	res := agenttest.RunOne(t, runner.Config{Agent: agent}, inputScenario(t, "30s"))
	assert.Less(t, time.Since(start), 20*time.Second)
	assert.False(t, res.Completed)
	assert.Contains(t, res.Error, fmt.Sprintf("more than %d bytes without a newline (MaxLineBytes)", defaultMaxLineBytes))
	proctest.RequireGone(t, marker, 10*time.Second)
}

// The lines of one reply are bounded together: endless action lines fail
// the session instead of growing the runner.
func TestExecAgentReplyBound(t *testing.T) {
	t.Parallel()
	agent := testExecAgent(t, `read start; read msg; while :; do echo '{"type":"action","name":"A","args":{"pad":"`+strings.Repeat("x", 1000)+`"}}'; done`)
	agent.MaxReplyBytes = 256 << 10
	res := agenttest.RunOne(t, runner.Config{Agent: agent}, inputScenario(t, "30s"))
	assert.False(t, res.Completed)
	assert.Contains(t, res.Error, "reply too long: its lines passed 262144 bytes (MaxReplyBytes)")
}

func TestReadBoundedLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		max  int
		want []string
		err  string
	}{
		{in: "ab\ncd\n", max: 2, want: []string{"ab\n", "cd\n"}},
		{in: "abc\n", max: 2, err: "more than 2 bytes"},
		{in: "ab", max: 2, want: []string{"ab"}},
		{in: strings.Repeat("x", 100) + "\n", max: 100, want: []string{strings.Repeat("x", 100) + "\n"}},
		{in: strings.Repeat("x", 101), max: 100, err: "more than 100 bytes"},
	} {
		r := bufio.NewReaderSize(strings.NewReader(tc.in), 16)
		var got []string
		var err error
		for {
			var line []byte
			line, err = readBoundedLine(r, tc.max)
			if len(line) > 0 {
				got = append(got, string(line))
			}
			if err != nil {
				break
			}
		}
		if tc.err != "" {
			assert.ErrorContains(t, err, tc.err, tc.in)
			continue
		}
		assert.ErrorIs(t, err, io.EOF)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

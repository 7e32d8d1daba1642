//go:build unix

package proc_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/proc"
	"github.com/agenteval/agenteval/internal/proctest"
	"github.com/agenteval/agenteval/internal/testtool"
)

func sh(script string, stdout, stderr io.Writer) proc.Spec {
	return proc.Spec{Path: "sh", Args: []string{"-c", script}, Stdout: stdout, Stderr: stderr}
}

func TestRunExitCodeAndOutput(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	r, err := proc.Run(context.Background(), sh("echo hi; echo oops >&2; exit 3", &out, &errOut))
	require.NoError(t, err)
	assert.Equal(t, 3, r.ExitCode)
	assert.True(t, r.Exited)
	assert.Empty(t, r.Killed)
	assert.Empty(t, r.Message())
	assert.Equal(t, "hi\n", out.String())
	assert.Equal(t, "oops\n", errOut.String())
}

func TestRunStartError(t *testing.T) {
	t.Parallel()
	_, err := proc.Run(context.Background(), proc.Spec{Path: "/nonexistent/agenteval-prog"})
	require.Error(t, err)
}

// A background child that keeps stdout open must neither hold Run nor
// survive it: Run returns as the leader exits and kills what it left.
func TestRunKillsWhatTheCommandLeftBehind(t *testing.T) {
	t.Parallel()
	marker := proctest.SleepArg()
	var out bytes.Buffer
	start := time.Now()
	r, err := proc.Run(context.Background(), sh(fmt.Sprintf("sleep %s & echo started", marker), &out, &out))
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 20*time.Second)
	assert.Equal(t, 0, r.ExitCode)
	assert.True(t, r.Exited)
	require.Len(t, r.Killed, 1, r.Message())
	assert.Contains(t, r.Killed[0].Name, marker)
	assert.Contains(t, r.Message(), "killed 1 process ") // sleep, or the shell it forks before exec
	assert.Contains(t, r.Message(), "the command exited and left it running")
	assert.Equal(t, "started\n", out.String())
	proctest.RequireGone(t, marker, 10*time.Second)
}

func TestRunTimeoutKillsTheGroup(t *testing.T) {
	t.Parallel()
	marker := proctest.SleepArg()
	ctx, cancel := context.WithTimeoutCause(context.Background(), 200*time.Millisecond, errors.New("step timeout of 200ms"))
	defer cancel()
	start := time.Now()
	r, err := proc.Run(ctx, sh(fmt.Sprintf("sleep %s & sleep %s; echo never", marker, marker), io.Discard, nil))
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 20*time.Second)
	assert.False(t, r.Exited)
	assert.Equal(t, -1, r.ExitCode)
	require.Len(t, r.Killed, 3, r.Message()) // sh and both sleeps
	assert.Contains(t, r.Killed[0].Name, "sh -c")
	assert.Contains(t, r.Message(), "step timeout of 200ms")
	proctest.RequireGone(t, marker, 10*time.Second)
}

// An interactive process (the exec agent's shape): End closes stdin, lets
// the leader exit by itself within the grace, and kills the rest.
func TestEndInteractive(t *testing.T) {
	t.Parallel()
	marker := proctest.SleepArg()
	p, err := proc.Start(proc.Spec{Path: "sh", Args: []string{"-c", fmt.Sprintf("sleep %s & read line; echo got $line", marker)}, Stdin: true, StdoutPipe: true})
	require.NoError(t, err)
	_, err = io.WriteString(p.Stdin(), "ping\n")
	require.NoError(t, err)
	buf := make([]byte, 64)
	n, err := p.Stdout().Read(buf)
	require.NoError(t, err)
	assert.Equal(t, "got ping\n", string(buf[:n]))
	proctest.RequireAlive(t, marker, 10*time.Second)
	r := p.End(2*time.Second, "the session ended")
	assert.True(t, r.Exited)
	require.Len(t, r.Killed, 1)
	assert.Contains(t, r.Message(), "the session ended")
	assert.Equal(t, r, p.End(0, "again"), "End twice returns the first report")
	proctest.RequireGone(t, marker, 10*time.Second)
}

// A leader that ignores its closed stdin is killed after the grace, and a
// reader blocked on its stdout wakes up.
func TestEndKillsAStuckLeader(t *testing.T) {
	t.Parallel()
	marker := proctest.SleepArg()
	p, err := proc.Start(proc.Spec{Path: "sh", Args: []string{"-c", "exec sleep " + marker}, Stdin: true, StdoutPipe: true})
	require.NoError(t, err)
	read := make(chan error, 1)
	go func() { _, err := io.ReadAll(p.Stdout()); read <- err }()
	start := time.Now()
	r := p.End(100*time.Millisecond, "the step timed out")
	assert.Less(t, time.Since(start), 20*time.Second)
	assert.False(t, r.Exited)
	require.Len(t, r.Killed, 1)
	assert.Equal(t, p.PID(), r.Killed[0].PID)
	select {
	case <-read:
	case <-time.After(10 * time.Second):
		t.Fatal("a reader of stdout is still blocked after End")
	}
	proctest.RequireGone(t, marker, 10*time.Second)
}

// A process that leaves the group (setsid) and keeps the output pipe open
// does not hold Run beyond the drain grace.
func TestRunDoesNotWaitForAnEscapedHolder(t *testing.T) {
	t.Parallel()
	testtool.Need(t, "setsid")
	marker := proctest.SleepArg()
	t.Cleanup(func() {
		// This one escaped by design; do not leave it behind.
		_, _ = proc.Run(context.Background(), proc.Spec{Path: "pkill", Args: []string{"-f", "sleep " + marker}})
	})
	start := time.Now()
	r, err := proc.Run(context.Background(), sh("setsid sleep "+marker+" & sleep 0.3", io.Discard, nil))
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 20*time.Second)
	assert.True(t, r.Detached)
	assert.Contains(t, r.Message(), "outside the group kept the output open")
}

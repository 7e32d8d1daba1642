package proc_test

import (
	"bytes"
	"context"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/proc"
	"github.com/agenteval/agenteval/internal/proctest"
)

// TestOrphanScanEndsMarkedGroups starts processes marked with one run's
// work directory (one of them with a child that dropped the marker, in the
// same group) and one marked with a longer path that starts the same way:
// EndLeftovers kills the first two groups whole and leaves the other alone.
func TestOrphanScanEndsMarkedGroups(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("leftover processes are found through /proc")
	}
	t.Parallel()
	work := filepath.Join(t.TempDir(), "out", "work")
	marked, unmarkedChild, other := proctest.SleepArg(), proctest.SleepArg(), proctest.SleepArg()
	start := func(script, runWork string) *proc.Process {
		p, err := proc.Start(proc.Spec{Path: "sh", Args: []string{"-c", script}, RunWork: runWork})
		require.NoError(t, err)
		t.Cleanup(func() { p.End(0, "test over") })
		return p
	}
	a := start("sleep "+marked+"; :", work)
	b := start("env -u "+proc.RunWorkEnv+" sleep "+unmarkedChild+" & wait", work)
	c := start("sleep "+other+"; :", work+"2")
	for _, arg := range []string{marked, unmarkedChild, other} {
		proctest.RequireAlive(t, arg, 10*time.Second)
	}

	killed := proc.EndLeftovers(context.Background(), work)
	assert.NotEmpty(t, killed)
	proctest.RequireGone(t, marked, 3*time.Second)
	proctest.RequireGone(t, unmarkedChild, 3*time.Second)
	for _, p := range []*proc.Process{a, b} {
		select {
		case <-p.Exited():
		case <-time.After(3 * time.Second):
			t.Fatal("a marked group leader outlived the scan")
		}
	}
	assert.NotEmpty(t, proctest.Alive(t, other), "another run's process is left alone")
	select {
	case <-c.Exited():
		t.Fatal("another run's process was killed")
	default:
	}
	assert.Empty(t, proc.EndLeftovers(context.Background(), work), "nothing is left to end")
}

// TestOrphanRunMarksProcesses checks that Run gives a process the marker
// of its context's run.
func TestOrphanRunMarksProcesses(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	ctx := proc.WithRunWork(context.Background(), "/abs/out/work")
	_, err := proc.Run(ctx, proc.Spec{Path: "sh", Args: []string{"-c", "printf %s \"$" + proc.RunWorkEnv + "\""}, Stdout: &out})
	require.NoError(t, err)
	assert.Equal(t, "/abs/out/work", out.String())
}

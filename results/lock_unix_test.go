//go:build unix

package results

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestALockHeldPastItsOwnersDeathIsWaitedFor: a run killed while starting
// a program leaves the kernel's lock with that program until it execs, a
// moment; the next run waits for it instead of refusing the folder. A lock
// whose named owner is alive is refused at once.
func TestALockHeldPastItsOwnersDeathIsWaitedFor(t *testing.T) {
	t.Parallel()
	dead := exec.Command("true")
	require.NoError(t, dead.Run())
	host, _ := os.Hostname()
	dir := t.TempDir()
	path := filepath.Join(dir, lockName)
	orphan, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	require.NoError(t, err)
	require.NoError(t, syscall.Flock(int(orphan.Fd()), syscall.LOCK_EX|syscall.LOCK_NB))
	_, err = fmt.Fprintf(orphan, "%d %s 2026-01-01T00:00:00Z\n", dead.Process.Pid, host)
	require.NoError(t, err)
	time.AfterFunc(150*time.Millisecond, func() { orphan.Close() }) // the program execs

	l, err := lockDir(dir)
	require.NoError(t, err, "the run waits for the orphaned lock")
	require.NoError(t, l.unlock())

	other := t.TempDir()
	held, err := lockDir(other)
	require.NoError(t, err)
	defer held.unlock()
	_, err = lockDir(other)
	var locked *LockedError
	require.ErrorAs(t, err, &locked, "a live owner's lock is refused")
	assert.Equal(t, os.Getpid(), locked.PID)
}

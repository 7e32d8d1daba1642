package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/proctest"
)

// TestOrphanedCodeStepEndedByResume kills the runner with SIGKILL while a
// code step sleeps: the sleeper outlives it, and the --resume into the same
// folder ends it before it removes the run directories.
func TestOrphanedCodeStepEndedByResume(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("leftover processes are found through /proc")
	}
	t.Parallel()
	dir := t.TempDir()
	arg := proctest.SleepArg()
	t.Cleanup(func() { killAlive(t, arg) })
	first := filepath.Join(dir, "first-attempt")
	// Only the first attempt sleeps, so the resumed step ends at once.
	scenario := filepath.Join(dir, "sleep.scenario.yaml")
	code := fmt.Sprintf(`if [ -e %[1]s ]; then echo ok; else : > %[1]s; sleep %[2]s; echo ok; fi`, first, arg)
	require.NoError(t, os.WriteFile(scenario, []byte(`name: sleeper
description: a code step that outlives a killed runner
environment: {type: local}
run:
  - lang: sh
    code: '`+code+`'
    evaluations:
      - {type: string_contains, value: ok}
judgment: {strategy: all_pass}
`), 0o644))
	out := filepath.Join(dir, "out")
	args := []string{"run", "--agent", "echo", "--allow-commands", "--out", out, scenario}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "AGENTEVAL_TEST_MAIN=1")
	require.NoError(t, cmd.Start())
	proctest.RequireAlive(t, arg, 60*time.Second)
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	time.Sleep(100 * time.Millisecond)
	require.NotEmpty(t, proctest.Alive(t, arg), "the sleeper outlives the killed runner")

	exit, _, stderr := runCLI(t, append([]string{"run", "--resume"}, args[1:]...)...)
	require.Equal(t, exitOK, exit, stderr)
	require.Contains(t, stderr, "process(es) a killed run left running")
	proctest.RequireGone(t, arg, 5*time.Second)
}

// killAlive kills the processes carrying marker that a failed test left.
func killAlive(t *testing.T, marker string) {
	for _, line := range proctest.Alive(t, marker) {
		if pid, err := strconv.Atoi(strings.Fields(line)[0]); err == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

package cli

import (
	"bufio"
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

func countJobs(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"record":"job"`) {
			n++
		}
	}
	return n
}

// TestKilledRunResumes kills a running `agenteval run` with SIGKILL part-way
// and resumes it: the second run does the rest, and every job is recorded
// exactly once.
func TestKilledRunResumes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	agent := slowAgent(t, dir) // one reply per message, after a pause
	out := filepath.Join(dir, "out")
	results := filepath.Join(out, "results.jsonl")
	const runs = 40
	cmd := exec.Command(os.Args[0], "run", "--agent", "exec:"+agent, "--concurrency", "2", "--runs", "40", "--out", out, "testdata/run/echo.scenario.yaml")
	cmd.Env = append(os.Environ(), "AGENTEVAL_TEST_MAIN=1")
	require.NoError(t, cmd.Start())
	deadline := time.Now().Add(30 * time.Second)
	for countJobs(t, results) < 5 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	first := countJobs(t, results)
	require.GreaterOrEqual(t, first, 5)
	require.Less(t, first, runs, "the kill came before the end")

	code, _, stderr := runCLI(t, "run", "--agent", "exec:"+agent, "--concurrency", "4", "--resume", "--runs", "40", "--out", out, "testdata/run/echo.scenario.yaml")
	require.Equal(t, exitOK, code, stderr)
	_, jobs := readLines(t, results)
	ids := map[string]int{}
	for _, j := range jobs {
		ids[j.ID]++
	}
	assert.Len(t, ids, runs)
	for id, n := range ids {
		assert.Equal(t, 1, n, id)
	}
}

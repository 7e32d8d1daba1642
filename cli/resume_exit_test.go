package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A resumed run reports and exits on the whole run: the failures an
// earlier invocation recorded still fail it (issue 25: before, --resume
// printed "0 job(s) ... 3 skipped" and exited 0 over 3 failed jobs).
func TestResumeExitsOnTheWholeRun(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		file  string
		code  int
		whole string
	}{
		{"recorded failures fail the resume", "testdata/run/fails.scenario.yaml", exitFail, "the whole run: 3 job(s) recorded: 0 passed, 3 failed, 0 incomplete"},
		{"a run that passed passes resumed", "testdata/run/echo.scenario.yaml", exitOK, "the whole run: 3 job(s) recorded: 3 passed, 0 failed, 0 incomplete"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := t.TempDir()
			code, _, stderr := runCLI(t, "run", "--out", out, "--runs", "3", tc.file)
			require.Equal(t, tc.code, code, stderr)
			code, _, stderr = runCLI(t, "run", "--out", out, "--runs", "3", "--resume", tc.file)
			assert.Equal(t, tc.code, code, stderr)
			assert.Contains(t, stderr, "0 job(s): 0 passed, 0 failed, 0 incomplete, 3 skipped (already recorded)")
			assert.Contains(t, stderr, tc.whole)
			code, _, _ = runCLI(t, "run", "--out", out, "--runs", "3", "--resume", "--exit-zero", tc.file)
			assert.Equal(t, exitOK, code, "--exit-zero accepts recorded failures")
		})
	}
}

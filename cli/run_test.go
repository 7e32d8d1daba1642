package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type resultLine struct {
	Record    string `json:"record"`
	ID        string `json:"id"`
	Index     int64  `json:"index"`
	Passed    bool   `json:"passed"`
	TotalJobs int64  `json:"total_jobs"`
	Shard     string `json:"shard"`
	ShardJobs int64  `json:"shard_jobs"`
	RunID     string `json:"run_id"`
}

func readLines(t *testing.T, path string) (plans, jobs []resultLine) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var l resultLine
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l))
		if l.Record == "plan" {
			plans = append(plans, l)
		} else {
			jobs = append(jobs, l)
		}
	}
	return plans, jobs
}

func TestRunEchoScenarioAndMatrix(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	code, _, stderr := runCLI(t, "run", "--agent", "echo", "--out", out, "--runs", "2", "testdata/run/echo.scenario.yaml", "testdata/run/sweep.matrix.yaml")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "14 job(s): 14 passed, 0 failed, 0 incomplete")
	plans, jobs := readLines(t, filepath.Join(out, "results.jsonl"))
	require.Len(t, plans, 1)
	assert.EqualValues(t, 14, plans[0].TotalJobs)
	require.Len(t, jobs, 14)
	ids := map[string]bool{}
	for _, j := range jobs {
		ids[j.ID] = true
		assert.True(t, j.Passed, j.ID)
	}
	assert.Len(t, ids, 14)
	assert.True(t, ids["echo/-/run-2"])
}

func TestRunExitCodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"a failing check", []string{"testdata/run/fails.scenario.yaml"}, exitFail, "1 failed"},
		{"invalid input is reported and nothing runs", []string{"testdata/run-bad/bad.scenario.yaml"}, exitUsage, `did you mean "string_contains"?`},
		{"an environment without provider is an incomplete job, not bad input", []string{"testdata/run-bad/e2b.scenario.yaml"}, exitFail,
			"e2b.scenario.yaml: warning: its jobs will be recorded incomplete: environment type \"e2b\" has no provider registered"},
		{"an environment fallback runs it locally", []string{"--env-fallback", "local", "testdata/run-bad/e2b.scenario.yaml"}, exitOK, "1 passed"},
		{"an unknown environment fallback", []string{"--env-fallback", "moon", "testdata/run-bad/e2b.scenario.yaml"}, exitUsage, `--env-fallback "moon": unknown environment type "moon"`},
		{"an unknown agent", []string{"--agent", "ecoh", "testdata/run/echo.scenario.yaml"}, exitUsage, `did you mean "echo"?`},
		{"a bad shard", []string{"--shard", "3/2", "testdata/run/echo.scenario.yaml"}, exitUsage, `shard "3/2": the shard number must be between 1 and 2 (shards count from 1)`},
		{"no paths", nil, exitUsage, "usage: agenteval run"},
		{"no concurrency", []string{"--concurrency", "0", "testdata/run/echo.scenario.yaml"}, exitUsage, "--concurrency 0: want at least 1 job at once"},
		{"a negative concurrency", []string{"--concurrency", "-1", "testdata/run/echo.scenario.yaml"}, exitUsage, "--concurrency -1: want at least 1"},
		{"no runs", []string{"--runs", "0", "testdata/run/echo.scenario.yaml"}, exitUsage, "--runs 0: want at least 1 run per scenario"},
		{"negative runs", []string{"--runs", "-5", "testdata/run/echo.scenario.yaml"}, exitUsage, "--runs -5: want at least 1"},
		{"a huge concurrency on one job", []string{"--concurrency", "100000000", "testdata/run/echo.scenario.yaml"}, exitOK, "1 passed"},
		{"a missing path", []string{"testdata/run/nope.scenario.yaml"}, exitUsage, "no such file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"run", "--out", t.TempDir()}, tc.args...)
			code, _, stderr := runCLI(t, args...)
			assert.Equal(t, tc.code, code, stderr)
			assert.Contains(t, stderr, tc.stderr)
		})
	}
}

// TestRunShardsThenResume runs one shard, then resumes it in the same
// directory: the second run skips what the first recorded and keeps its
// run id. Resuming it as the whole run is another plan: refused, with the
// file left as it was (the report could not merge the two plans).
func TestRunShardsThenResume(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	results := filepath.Join(out, "results.jsonl")
	code, _, stderr := runCLI(t, "run", "--out", out, "--shard", "1/3", "testdata/run/sweep.matrix.yaml")
	require.Equal(t, exitOK, code, stderr)
	plans, jobs := readLines(t, results)
	require.Len(t, plans, 1)
	assert.Equal(t, "1/3", plans[0].Shard)
	assert.EqualValues(t, 4, plans[0].ShardJobs)
	require.Len(t, jobs, 4)
	for _, j := range jobs {
		assert.Zero(t, j.Index%3, "shard 1/3 owns indexes 0, 3, 6, 9")
	}
	code, _, stderr = runCLI(t, "run", "--out", out, "--resume", "--shard", "1/3", "testdata/run/sweep.matrix.yaml")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "0 job(s)")
	assert.Contains(t, stderr, "4 skipped")
	plans2, jobs := readLines(t, results)
	require.Len(t, plans2, 2)
	assert.Equal(t, plans[0].RunID, plans2[1].RunID, "a resumed run keeps its run id")
	assert.Len(t, jobs, 4)

	before, err := os.ReadFile(results)
	require.NoError(t, err)
	code, _, stderr = runCLI(t, "run", "--out", out, "--resume", "testdata/run/sweep.matrix.yaml")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `shard: recorded "1/3", now ""`)
	after, err := os.ReadFile(results)
	require.NoError(t, err)
	assert.Equal(t, before, after, "a refused resume leaves the file byte for byte")
}

// TestMatrixShowPrintsAJobsScenario: --show prints the scenario a job runs
// as YAML, and that YAML loads back as a valid scenario with the job's value.
func TestMatrixShowPrintsAJobsScenario(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runCLI(t, "matrix", "--show", "4", "testdata/run/sweep.matrix.yaml")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "input: 'Question 2: what is topic-2?'")
	assert.Contains(t, stdout, "strategy: majority_pass")
	path := filepath.Join(t.TempDir(), "job4.scenario.yaml")
	require.NoError(t, os.WriteFile(path, []byte(stdout), 0o644))
	code, _, stderr = runCLI(t, "validate", path)
	assert.Equal(t, exitOK, code, stderr)
	code, _, stderr = runCLI(t, "matrix", "--show", "99", "testdata/run/sweep.matrix.yaml")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--show")
}

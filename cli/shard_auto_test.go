package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenteval/agenteval/matrix"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAutoShardReadsTheEngine: `--shard auto` takes this copy's index from
// the engine that started it and the count from --shards, AGENTEVAL_SHARDS
// or the engine; every shortfall is an error saying what to set.
func TestAutoShardReadsTheEngine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		shards  int
		env     map[string]string
		spec    string
		from    string
		wantErr []string
	}{
		{name: "indexed job with the count in the environment", env: map[string]string{"JOB_COMPLETION_INDEX": "0", "AGENTEVAL_SHARDS": "4"},
			spec: "1/4", from: "JOB_COMPLETION_INDEX=0, AGENTEVAL_SHARDS=4"},
		{name: "indexed job, last index", env: map[string]string{"JOB_COMPLETION_INDEX": "3", "AGENTEVAL_SHARDS": "4"}, spec: "4/4"},
		{name: "the flag wins over the variable", shards: 5, env: map[string]string{"JOB_COMPLETION_INDEX": "4", "AGENTEVAL_SHARDS": "4"},
			spec: "5/5", from: "JOB_COMPLETION_INDEX=4, --shards 5"},
		{name: "spaces around numbers", env: map[string]string{"JOB_COMPLETION_INDEX": " 2\n", "AGENTEVAL_SHARDS": " 3 "}, spec: "3/3"},
		{name: "gitlab counts from 1 and says how many", env: map[string]string{"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"},
			spec: "1/3", from: "CI_NODE_INDEX=1, CI_NODE_TOTAL=3"},
		{name: "gitlab's last node", env: map[string]string{"CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "3"}, spec: "3/3"},
		{name: "circleci", env: map[string]string{"CIRCLE_NODE_INDEX": "2", "CIRCLE_NODE_TOTAL": "3"}, spec: "3/3"},
		{name: "buildkite", env: map[string]string{"BUILDKITE_PARALLEL_JOB": "0", "BUILDKITE_PARALLEL_JOB_COUNT": "2"}, spec: "1/2"},
		{name: "cloud run", env: map[string]string{"CLOUD_RUN_TASK_INDEX": "9", "CLOUD_RUN_TASK_COUNT": "10"}, spec: "10/10"},
		{name: "aws batch with the count given", shards: 2, env: map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "1"}, spec: "2/2"},
		{name: "an agreeing count", shards: 3, env: map[string]string{"CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"}, spec: "2/3"},

		{name: "no engine", env: map[string]string{"AGENTEVAL_SHARDS": "4"},
			wantErr: []string{"--shard auto: no shard index in the environment", "JOB_COMPLETION_INDEX (Kubernetes Indexed Job)", "CI_NODE_INDEX (GitLab CI parallel)", "give --shard i/n"}},
		{name: "an empty index is no index", env: map[string]string{"JOB_COMPLETION_INDEX": " "},
			wantErr: []string{"no shard index in the environment"}},
		{name: "no count", env: map[string]string{"JOB_COMPLETION_INDEX": "1"},
			wantErr: []string{"JOB_COMPLETION_INDEX=1 (Kubernetes Indexed Job) gives this copy's index but not how many shards there are", "give --shards N or set AGENTEVAL_SHARDS"}},
		{name: "index beyond the count", env: map[string]string{"JOB_COMPLETION_INDEX": "4", "AGENTEVAL_SHARDS": "4"},
			wantErr: []string{"JOB_COMPLETION_INDEX=4 (Kubernetes Indexed Job) is beyond the 4 shard(s) of AGENTEVAL_SHARDS=4", "indexes run from 0 to 3", "completions"}},
		{name: "gitlab index beyond", shards: 2, env: map[string]string{"CI_NODE_INDEX": "3"},
			wantErr: []string{"CI_NODE_INDEX=3 (GitLab CI parallel) is beyond the 2 shard(s) of --shards 2", "from 1 to 2"}},
		{name: "gitlab index 0", env: map[string]string{"CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "2"},
			wantErr: []string{`CI_NODE_INDEX="0" (GitLab CI parallel) is not a shard index: want a whole number from 1`}},
		{name: "negative index", env: map[string]string{"JOB_COMPLETION_INDEX": "-1", "AGENTEVAL_SHARDS": "2"},
			wantErr: []string{`JOB_COMPLETION_INDEX="-1" (Kubernetes Indexed Job) is not a shard index: want a whole number from 0`}},
		{name: "not a number", env: map[string]string{"JOB_COMPLETION_INDEX": "two", "AGENTEVAL_SHARDS": "4"},
			wantErr: []string{`JOB_COMPLETION_INDEX="two"`, "not a shard index"}},
		{name: "a bad count variable", env: map[string]string{"JOB_COMPLETION_INDEX": "0", "AGENTEVAL_SHARDS": "0"},
			wantErr: []string{`AGENTEVAL_SHARDS="0": want the number of shards, a whole number of at least 1`}},
		{name: "a count variable that is not a number", env: map[string]string{"JOB_COMPLETION_INDEX": "0", "AGENTEVAL_SHARDS": "4x"},
			wantErr: []string{`AGENTEVAL_SHARDS="4x"`}},
		{name: "a negative flag", shards: -2, env: map[string]string{"JOB_COMPLETION_INDEX": "0"},
			wantErr: []string{"--shards -2: want at least 1 shard"}},
		{name: "a bad engine count", env: map[string]string{"CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "none"},
			wantErr: []string{`CIRCLE_NODE_TOTAL="none" (CircleCI parallelism): want the number of copies`}},
		{name: "a count that contradicts the engine", shards: 3, env: map[string]string{"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "4"},
			wantErr: []string{"--shards 3 but CI_NODE_TOTAL=4: GitLab CI parallel runs 4 copies"}},
		{name: "two engines", env: map[string]string{"JOB_COMPLETION_INDEX": "0", "CI_NODE_INDEX": "2", "AGENTEVAL_SHARDS": "2"},
			wantErr: []string{"more than one engine sets a shard index: JOB_COMPLETION_INDEX=0 (Kubernetes Indexed Job), CI_NODE_INDEX=2 (GitLab CI parallel)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			spec, from, err := autoShard(tt.shards, func(k string) string { return tt.env[k] })
			if tt.wantErr != nil {
				require.Error(t, err)
				for _, w := range tt.wantErr {
					assert.Contains(t, err.Error(), w)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.spec, spec)
			if tt.from != "" {
				assert.Equal(t, tt.from, from)
			}
		})
	}
}

// TestRunShardAuto: the CLI runs the shard the environment names, records
// it as i/n (so a restarted pod resumes it and the report merges it), and
// refuses with the reason when it cannot tell which shard it is.
func TestRunShardAuto(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "index-1")
	vars := map[string]string{"JOB_COMPLETION_INDEX": "1", "AGENTEVAL_SHARDS": "3"}
	code, _, stderr := runCLIEnv(t, vars, "run", "--out", out, "--shard", "auto", "testdata/run/sweep.matrix.yaml")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "shard 2/3 (from JOB_COMPLETION_INDEX=1, AGENTEVAL_SHARDS=3)")
	plans, jobs := readLines(t, filepath.Join(out, "results.jsonl"))
	require.Len(t, plans, 1)
	assert.Equal(t, "2/3", plans[0].Shard)
	require.Len(t, jobs, 4)
	for _, j := range jobs {
		assert.EqualValues(t, 1, j.Index%3, "shard 2/3 owns indexes 1, 4, 7, 10")
	}
	// A restarted pod runs the same command with --resume: nothing again.
	code, _, stderr = runCLIEnv(t, vars, "run", "--out", out, "--resume", "--shard", "auto", "testdata/run/sweep.matrix.yaml")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "0 job(s): 0 passed, 0 failed, 0 incomplete, 4 skipped")
	// The same shard given as i/n is the same run.
	code, _, stderr = runCLI(t, "run", "--out", out, "--resume", "--shard", "2/3", "testdata/run/sweep.matrix.yaml")
	require.Equal(t, exitOK, code, stderr)

	for _, tt := range []struct {
		name string
		vars map[string]string
		args []string
		want string
	}{
		{"no index", map[string]string{"AGENTEVAL_SHARDS": "3"}, []string{"--shard", "auto"}, "agenteval run: --shard auto: no shard index in the environment"},
		{"no count", map[string]string{"JOB_COMPLETION_INDEX": "1"}, []string{"--shard", "auto"}, "give --shards N or set AGENTEVAL_SHARDS"},
		{"index beyond the flag's count", map[string]string{"JOB_COMPLETION_INDEX": "3"}, []string{"--shard", "auto", "--shards", "3"}, "is beyond the 3 shard(s) of --shards 3"},
		{"--shards without auto", nil, []string{"--shard", "1/3", "--shards", "3"}, "--shards 3 counts the shards of --shard auto; with --shard i/n, n is the count"},
		{"--shards alone", nil, []string{"--shards", "3"}, "--shards 3 counts the shards of --shard auto"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := append(append([]string{"run", "--out", out}, tt.args...), "testdata/run/sweep.matrix.yaml")
			code, _, stderr := runCLIEnv(t, tt.vars, args...)
			assert.Equal(t, exitUsage, code, stderr)
			assert.Contains(t, stderr, tt.want)
			_, err := os.Stat(out)
			assert.ErrorIs(t, err, os.ErrNotExist, "nothing was written")
		})
	}
}

// TestRunExitZero: --exit-zero turns "some jobs failed" into 0 once every
// job is recorded; bad input is still 2.
func TestRunExitZero(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, _, stderr := runCLI(t, "run", "--out", filepath.Join(dir, "a"), "testdata/run/fails.scenario.yaml")
	require.Equal(t, exitFail, code, stderr)
	code, _, stderr = runCLI(t, "run", "--exit-zero", "--out", filepath.Join(dir, "b"), "testdata/run/fails.scenario.yaml")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "1 job(s): 0 passed, 1 failed")
	_, jobs := readLines(t, filepath.Join(dir, "b", "results.jsonl"))
	require.Len(t, jobs, 1)
	assert.False(t, jobs[0].Passed)
	code, _, stderr = runCLI(t, "run", "--exit-zero", "--out", filepath.Join(dir, "c"), "--shard", "4/3", "testdata/run/fails.scenario.yaml")
	assert.Equal(t, exitUsage, code, stderr)
}

// TestReportReadsShardFolders: report and report compare take a directory
// for the results folders under it (the shards of a run, as artifacts or a
// shared volume hold them); --fail-missing fails when one is absent.
func TestReportReadsShardFolders(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	shards := filepath.Join(dir, "shards")
	for i := 1; i <= 3; i++ {
		out := filepath.Join(shards, "shard-"+string(rune('0'+i)))
		code, _, stderr := runCLI(t, "run", "--out", out, "--shard", string(rune('0'+i))+"/3", "testdata/run/sweep.matrix.yaml")
		require.Equal(t, exitOK, code, stderr)
		// A results folder's own subfolders are not searched: a
		// results.jsonl a scenario left in a kept run directory is not a shard.
		require.NoError(t, os.MkdirAll(filepath.Join(out, "work", "job"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(out, "work", "job", "results.jsonl"), []byte("not results\n"), 0o644))
	}
	whole := filepath.Join(dir, "whole")
	code, _, stderr := runCLI(t, "run", "--out", whole, "testdata/run/sweep.matrix.yaml")
	require.Equal(t, exitOK, code, stderr)

	code, stdout, stderr := runCLI(t, "report", "--format", "json", "--fail-missing", shards)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, `"missing_jobs": 0`)
	assert.Contains(t, stdout, `"shards": [
    "1/3",
    "2/3",
    "3/3"
  ]`)
	assert.Contains(t, stderr, "12 job(s): 12 passed, 0 failed, 0 incomplete\n")
	_, wholeJSON, _ := runCLI(t, "report", "--format", "json", filepath.Join(whole, "results.jsonl"))
	assert.Equal(t, totalsOf(t, wholeJSON), totalsOf(t, stdout))

	code, stdout, stderr = runCLI(t, "report", "compare", whole, shards)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "No significant regression")
	assert.Contains(t, stdout, "| Pass rate (matched) | 100.0% (12/12) [75.8%, 100.0%] | 100.0% (12/12) [75.8%, 100.0%] |")

	// One shard gone: the report is still written, and --fail-missing fails.
	require.NoError(t, os.RemoveAll(filepath.Join(shards, "shard-2")))
	code, stdout, stderr = runCLI(t, "report", "--fail-missing", shards)
	assert.Equal(t, exitFail, code, stderr)
	assert.Contains(t, stdout, "job(s) have no record: indexes 1, 4, 7, 10")
	assert.Contains(t, stderr, "agenteval report: 4 of the run's 12 job(s) have no record in 2 file(s): a shard is missing or was cut short (--fail-missing)")
	code, _, stderr = runCLI(t, "report", shards)
	assert.Equal(t, exitOK, code, "without --fail-missing a partial report is no failure: %s", stderr)

	empty := filepath.Join(dir, "empty")
	require.NoError(t, os.MkdirAll(filepath.Join(empty, "sub"), 0o755))
	for _, args := range [][]string{{"report", empty}, {"report", "compare", whole, empty}} {
		code, _, stderr = runCLI(t, args...)
		assert.Equal(t, exitUsage, code, stderr)
		assert.Contains(t, stderr, empty+" holds no results.jsonl: a directory stands for the results.jsonl of every results folder under it")
	}
}

// totalsOf returns the "totals" object of a report's JSON, as text.
func totalsOf(t *testing.T, reportJSON string) string {
	t.Helper()
	i := strings.Index(reportJSON, `"totals"`)
	require.GreaterOrEqual(t, i, 0, reportJSON)
	j := strings.Index(reportJSON[i:], "}")
	require.GreaterOrEqual(t, j, 0)
	return reportJSON[i : i+j]
}

// FuzzAutoShard: whatever the environment holds, --shard auto never panics,
// and what it accepts is a shard run accepts, inside the count.
func FuzzAutoShard(f *testing.F) {
	f.Add(0, "1", "4", "", "")
	f.Add(0, "", "", "3", "3")
	f.Add(2, "9999999999999999999", "x", "-1", "0")
	f.Add(-1, " 0 ", "\n2", "1", "")
	f.Fuzz(func(t *testing.T, shards int, jobIndex, count, gitlabIndex, gitlabTotal string) {
		env := map[string]string{"JOB_COMPLETION_INDEX": jobIndex, "AGENTEVAL_SHARDS": count, "CI_NODE_INDEX": gitlabIndex, "CI_NODE_TOTAL": gitlabTotal}
		spec, from, err := autoShard(shards, func(k string) string { return env[k] })
		if err != nil {
			if !strings.HasPrefix(err.Error(), "--shard") {
				t.Fatalf("error without the flag it is about: %v", err)
			}
			return
		}
		sh, err := matrix.ParseShard(spec)
		if err != nil {
			t.Fatalf("autoShard gave %q (from %s), which run refuses: %v", spec, from, err)
		}
		if sh.Index < 1 || sh.Index > sh.Count {
			t.Fatalf("shard %q out of range", spec)
		}
	})
}

// BenchmarkResultsPaths measures finding the results folders of 1000 shards
// (each with a work/ and judge-cache/ folder the walk must not enter).
func BenchmarkResultsPaths(b *testing.B) {
	dir := b.TempDir()
	for i := range 1000 {
		shard := filepath.Join(dir, fmt.Sprintf("index-%d", i))
		for _, sub := range []string{"work/job-1", "judge-cache"} {
			require.NoError(b, os.MkdirAll(filepath.Join(shard, sub), 0o755))
		}
		require.NoError(b, os.WriteFile(filepath.Join(shard, "results.jsonl"), []byte("{}\n"), 0o644))
	}
	b.ReportAllocs()
	for b.Loop() {
		paths, err := resultsPaths([]string{dir})
		if err != nil || len(paths) != 1000 {
			b.Fatal(err, len(paths))
		}
	}
}

// BenchmarkAutoShard measures --shard auto's reading of the environment.
func BenchmarkAutoShard(b *testing.B) {
	env := map[string]string{"JOB_COMPLETION_INDEX": "17", "AGENTEVAL_SHARDS": "64"}
	getenv := func(k string) string { return env[k] }
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := autoShard(0, getenv); err != nil {
			b.Fatal(err)
		}
	}
}

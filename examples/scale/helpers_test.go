package scale

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repoRoot is the repository's root, two levels up from this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(root, "go.mod"))
	return root
}

// makeSuite copies the bundled examples and this package's extra matrix
// into one folder: 84 jobs that pass, fail and are incomplete (a code step
// without --allow-commands) with the demo agent.
func makeSuite(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "suite")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for _, src := range []string{filepath.Join(repoRoot(t), "examples", "scenarios"), filepath.Join("testdata", "suite")} {
		entries, err := os.ReadDir(src)
		require.NoError(t, err)
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(src, e.Name()))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644))
		}
	}
	return dir
}

// jobRecord is what a merge must reproduce of each job: its identity and
// its verdict.
type jobRecord struct {
	Index     int64   `json:"index"`
	Passed    bool    `json:"passed"`
	Completed bool    `json:"completed"`
	Score     float64 `json:"score"`
	Reason    string  `json:"reason"`
	Strategy  string  `json:"strategy"`
}

// planRecord is the part of a plan record the tests look at.
type planRecord struct {
	TotalJobs int64  `json:"total_jobs"`
	Shard     string `json:"shard"`
	ShardJobs int64  `json:"shard_jobs"`
	Agent     string `json:"agent"`
}

// readRuns reads results files: every job by id (an id recorded twice fails
// the test: resume must never repeat a job) and every plan record.
func readRuns(t *testing.T, files ...string) (map[string]jobRecord, []planRecord) {
	t.Helper()
	jobs := map[string]jobRecord{}
	var plans []planRecord
	for _, file := range files {
		f, err := os.Open(file)
		require.NoError(t, err)
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		for sc.Scan() {
			var head struct {
				Record string `json:"record"`
				ID     string `json:"id"`
			}
			require.NoError(t, json.Unmarshal(sc.Bytes(), &head), "%s: %s", file, sc.Text())
			switch head.Record {
			case "plan":
				var p planRecord
				require.NoError(t, json.Unmarshal(sc.Bytes(), &p))
				plans = append(plans, p)
			case "job":
				var j jobRecord
				require.NoError(t, json.Unmarshal(sc.Bytes(), &j))
				_, dup := jobs[head.ID]
				require.False(t, dup, "%s: job %s recorded twice", file, head.ID)
				jobs[head.ID] = j
			default:
				t.Fatalf("%s: unknown record %q", file, head.Record)
			}
		}
		require.NoError(t, sc.Err())
		require.NoError(t, f.Close())
	}
	return jobs, plans
}

// findResults lists the results.jsonl files under dir.
func findResults(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "results.jsonl" {
			files = append(files, path)
		}
		return err
	}))
	sort.Strings(files)
	return files
}

// requireShardsEqualWhole checks that n shards' results files hold exactly
// the jobs of the unsharded run: the same ids, each once, with the same
// verdicts, and that their plans are the n shards of that run.
func requireShardsEqualWhole(t *testing.T, whole string, n int, shardFiles []string) {
	t.Helper()
	wantJobs, wantPlans := readRuns(t, whole)
	require.Len(t, wantPlans, 1)
	gotJobs, gotPlans := readRuns(t, shardFiles...)
	require.Len(t, gotJobs, len(wantJobs), "the merged shards hold as many jobs as the whole run")
	assert.Equal(t, wantJobs, gotJobs, "ids and verdicts")
	var shards []string
	for _, p := range gotPlans {
		assert.Equal(t, wantPlans[0].TotalJobs, p.TotalJobs, "every shard numbers the whole run")
		if !slices.Contains(shards, p.Shard) {
			shards = append(shards, p.Shard)
		}
	}
	sort.Strings(shards)
	var want []string
	for i := 1; i <= n; i++ {
		want = append(want, shardName(i, n))
	}
	sort.Strings(want)
	assert.Equal(t, want, shards)
	var passed, completed int
	for _, j := range gotJobs {
		if j.Passed {
			passed++
		}
		if j.Completed {
			completed++
		}
	}
	// The suite is chosen to hold every kind of verdict; a merge that only
	// had passes would prove less.
	assert.Positive(t, passed)
	assert.Less(t, passed, completed, "some jobs failed")
	assert.Less(t, completed, len(gotJobs), "some jobs were incomplete")
}

func shardName(i, n int) string { return fmt.Sprintf("%d/%d", i, n) }

// reportTotals runs `agenteval report --format json` over paths and returns
// its totals, missing and duplicate counts.
func reportTotals(t *testing.T, agenteval string, paths ...string) map[string]any {
	t.Helper()
	cmd := exec.Command(agenteval, append([]string{"report", "--format", "json"}, paths...)...)
	cmd.Env = cleanEnv(nil)
	out, err := cmd.Output()
	require.NoError(t, err, "report %v", paths)
	var s struct {
		Totals      map[string]any `json:"totals"`
		MissingJobs int64          `json:"missing_jobs"`
		Duplicates  int64          `json:"duplicates"`
	}
	require.NoError(t, json.Unmarshal(out, &s))
	s.Totals["missing_jobs"] = s.MissingJobs
	s.Totals["duplicates"] = s.Duplicates
	for _, k := range []string{"p50_ms", "p90_ms", "p99_ms", "duration_ms", "mean_ms"} {
		delete(s.Totals, k) // durations differ from run to run
	}
	return s.Totals
}

// cleanEnv is the environment the tests give the processes they start: what
// Go and the shell need, none of the caller's tokens, keys or shard
// variables (a developer's GITHUB_TOKEN must not send checkpoints to
// GitHub), and extra on top.
func cleanEnv(extra map[string]string) []string {
	keep := []string{"PATH", "HOME", "TMPDIR", "LANG", "GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "GOPROXY",
		"GOSUMDB", "GONOSUMDB", "GOPRIVATE", "GONOPROXY", "GOTOOLCHAIN", "GOROOT"}
	var env []string
	for _, k := range keep {
		if v, ok := os.LookupEnv(k); ok {
			if _, override := extra[k]; !override {
				env = append(env, k+"="+v)
			}
		}
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+extra[k])
	}
	return env
}

// waitForJobs waits until results holds at least n job records.
func waitForJobs(t *testing.T, results string, n int) int {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		b, _ := os.ReadFile(results)
		got := strings.Count(string(b), `"record":"job"`)
		if got >= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(5 * time.Millisecond)
	}
}

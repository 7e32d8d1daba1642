package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// TestCancelDuringResumeStopsSkippingAndJoins is Ctrl-C during --resume:
// 10^4 jobs are recorded, with the holes a killed concurrent run leaves,
// and the run is cancelled while it skips them. Run must stop skipping at
// once and return only after its feeder has stopped: no Skip call (nor
// write to the skip count, which -race would see) after Run returns.
// Run it as `go test -race -count=20 -run TestCancelDuringResume ./runner/`.
func TestCancelDuringResumeStopsSkippingAndJoins(t *testing.T) {
	t.Parallel()
	const recorded, total = 10_000, 11_000
	s := loadScenario(t, "echo.scenario.yaml")
	path := filepath.Join(t.TempDir(), "results.jsonl")
	w, err := results.Open(path, &results.Plan{RunID: "t"}, results.Options{Overwrite: true})
	require.NoError(t, err)
	isRecorded := func(i int) bool { return i%11 != 10 } // one hole in eleven
	for i := range total {
		if isRecorded(i) {
			require.NoError(t, w.Write(&results.Job{ID: sources.JobID(s.ID, "", i+1), Index: int64(i), Scenario: s.ID, Run: i + 1, Completed: true, Passed: true}))
		}
	}
	require.NoError(t, w.Close())
	done, _, err := recordedIDs(t, path)
	require.NoError(t, err)
	require.Len(t, done, recorded)

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	const cancelAt = 3_000
	var calls atomic.Int64
	var returned atomic.Bool
	var lateCalls atomic.Int64
	skip := func(id string) bool {
		if returned.Load() {
			lateCalls.Add(1)
		}
		if calls.Add(1) == cancelAt {
			cancel() // Ctrl-C, while skipping
		}
		return done[id]
	}
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario(s.ID, s, total)}, matrix.Shard{})
	require.NoError(t, err)
	sum, err := Run(ctx, Config{Agent: echoAgent{}, Concurrency: 2, Skip: skip}, jobs)
	returned.Store(true)
	atEnd := calls.Load()
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, int64(cancelAt), atEnd, "skipping stops at the cancellation")
	assert.LessOrEqual(t, sum.Skipped, int64(cancelAt))
	time.Sleep(20 * time.Millisecond) // a feeder still running would skip on meanwhile
	assert.Zero(t, lateCalls.Load(), "Skip called after Run returned")
	assert.Equal(t, atEnd, calls.Load())
}

// shardCostMatrix is a matrix of 100 × 100 × 100 = 10^6 jobs.
func shardCostMatrix(t testing.TB) *scenario.File {
	var b strings.Builder
	b.WriteString("name: big\nbase_scenario: echo.scenario.yaml\nmatrix:\n")
	for _, p := range []string{"name", "description", "run[0].input"} {
		fmt.Fprintf(&b, "  - parameter: %s\n    values: [", p)
		for i := range 100 {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "'v%d topic-%d'", i, i)
		}
		b.WriteString("]\n")
	}
	echo, err := os.ReadFile(filepath.Join("testdata", "echo.scenario.yaml"))
	require.NoError(t, err)
	fsys := fstest.MapFS{"m/big.matrix.yaml": {Data: []byte(b.String())}, "m/echo.scenario.yaml": {Data: echo}}
	f, err := scenario.NewLoader(NewRegistries(), scenario.Options{}).LoadFS(fsys, "m/big.matrix.yaml")
	require.NoError(t, err)
	return f
}

// TestShardCostsTheShardNotTheRun: --shard 1/10000 of a run of 10^6
// matrix jobs and 10^6 plain runs reaches its 200 jobs by arithmetic.
// Measured in allocations, not time: expanding and dropping the other
// jobs would allocate millions of times. (Not parallel: AllocsPerRun
// counts the whole process's allocations.)
func TestShardCostsTheShardNotTheRun(t *testing.T) {
	src, err := sources.Matrix(shardCostMatrix(t), sources.Options{MaxJobs: -1})
	require.NoError(t, err)
	require.EqualValues(t, 1_000_000, src.Count)
	s := loadScenario(t, "echo.scenario.yaml")
	srcs := []sources.Source{sources.Scenario("plain", s, 1_000_000), src}
	sh := matrix.Shard{Index: 1, Count: 10_000}
	var n int64
	allocs := testing.AllocsPerRun(1, func() {
		n = 0
		jobs, _, err := sources.Combine(srcs, sh)
		require.NoError(t, err)
		for j, err := range jobs {
			require.NoError(t, err)
			require.True(t, sh.Owns(j.Index))
			n++
		}
	})
	assert.EqualValues(t, 200, n)
	assert.Less(t, allocs, 50_000.0, "the shard's 200 jobs, not the run's 2·10^6")
}

// TestShardedSourcesMatchTheWholeRun: for every shard of runs whose
// sources start at every phase, the jobs a shard reaches by arithmetic are
// exactly the jobs of the whole run that it owns, with the same ids and
// indexes (filters included).
func TestShardedSourcesMatchTheWholeRun(t *testing.T) {
	t.Parallel()
	s := loadScenario(t, "echo.scenario.yaml")
	f := shardCostMatrix(t)
	filtered, err := sources.Matrix(f, sources.Options{Filters: []string{"name=v3 topic-3"}, MaxJobs: -1})
	require.NoError(t, err)
	require.EqualValues(t, 10_000, filtered.Count)
	small := []sources.Source{sources.Scenario("a", s, 7), filtered, sources.Scenario("b", s, 5)}
	whole, total, err := sources.Combine(small, matrix.Shard{})
	require.NoError(t, err)
	type key struct {
		id    string
		index int64
	}
	var all []key
	for j, err := range whole {
		require.NoError(t, err)
		all = append(all, key{j.ID, j.Index})
	}
	require.EqualValues(t, total, len(all))
	for _, n := range []int64{2, 3, 7, 10, 997, 20_000} {
		for _, i := range []int64{1, 2, n / 2, n - 1, n} {
			if i < 1 {
				continue
			}
			sh := matrix.Shard{Index: int(i), Count: int(n)}
			var want, got []key
			for _, k := range all {
				if sh.Owns(k.index) {
					want = append(want, k)
				}
			}
			jobs, _, err := sources.Combine(small, sh)
			require.NoError(t, err)
			for j, err := range jobs {
				require.NoError(t, err)
				got = append(got, key{j.ID, j.Index})
			}
			require.Equal(t, want, got, "shard %s", sh)
		}
	}
}

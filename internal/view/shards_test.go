package view

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/results"
)

// writeShard writes shard i/n of a 12-job run into dir, as `run --shard`
// does: a plan with a run id of its own, and the jobs whose index is i-1
// modulo n.
func writeShard(t *testing.T, dir, runID string, i, n int, seed int64) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	p := results.Plan{Record: results.RecordPlan, RunID: runID, Started: t0, TotalJobs: 12,
		Shard: fmt.Sprintf("%d/%d", i, n), ShardJobs: int64(12 / n), Agent: "echo", Sources: []string{"a.scenario.yaml"}, Seed: seed, Version: 2,
		Inputs: []results.Input{{Path: "a.scenario.yaml", SHA256: "ab"}}, Settings: map[string]string{"runs": "1"}}
	b, err := json.Marshal(p)
	require.NoError(t, err)
	b = append(b, '\n')
	for k := i - 1; k < 12; k += n {
		line, err := results.AppendJob(nil, jobOf(k))
		require.NoError(t, err)
		b = append(append(b, line...), '\n')
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "results.jsonl"), b, 0o644))
}

// The shards of one run, each with a run id of its own as every
// invocation has, are shown as one run; a shard of another run (another
// seed) or the same shard run twice is a run of its own.
func TestShardsOfOneRunAreOneRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeShard(t, filepath.Join(dir, "s1"), "r1", 1, 3, 7)
	writeShard(t, filepath.Join(dir, "s2"), "r2", 2, 3, 7)
	writeShard(t, filepath.Join(dir, "s3"), "r3", 3, 3, 7)
	writeShard(t, filepath.Join(dir, "t2"), "r4", 2, 3, 8) // another seed: another run
	writeShard(t, filepath.Join(dir, "u1"), "r5", 1, 3, 7) // shard 1/3 again
	s := open(t, dir)
	require.Len(t, s.runs, 3)
	byID := map[string]summary{}
	for _, r := range s.runs {
		byID[r.id] = r.summary()
	}
	one := byID["r1"]
	assert.Len(t, one.Files, 3, "the three shards")
	assert.Equal(t, 12, one.Recorded)
	assert.EqualValues(t, 12, one.TotalJobs)
	assert.Equal(t, open(t, dir).runs[0].summary().Recorded, 12)
	assert.Equal(t, 4, byID["r4"].Recorded)
	assert.Equal(t, 4, byID["r5"].Recorded)

	// The whole run's jobs table pages over every shard's jobs in index order.
	p, err := s.runs[0].query(query{Limit: 12})
	require.NoError(t, err)
	require.Len(t, p.Rows, 12)
	for i, row := range p.Rows {
		assert.EqualValues(t, i, row.Index)
	}
}

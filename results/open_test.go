package results

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testPlan() *Plan {
	return &Plan{RunID: "r1", TotalJobs: 3, ShardJobs: 3, Agent: "echo", Sources: []string{"a.scenario.yaml"}, Seed: 1,
		Inputs:   []Input{{Path: "a.scenario.yaml", SHA256: "aa"}},
		Settings: map[string]string{"runs": "3", "judge-model": ""}}
}

func writeJobs(t *testing.T, w *Writer, ids ...string) {
	t.Helper()
	for i, id := range ids {
		require.NoError(t, w.Write(&Job{ID: id, Index: int64(i), Scenario: "a", Run: i + 1, Completed: true, Passed: true}))
	}
}

// TestOneWriterPerFolder: while a writer holds a results folder, another
// is refused at once with the folder and the holder's pid; once it closes,
// the folder is free.
func TestOneWriterPerFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "results.jsonl")
	w, err := Open(path, testPlan(), Options{})
	require.NoError(t, err)
	_, err = Open(path, testPlan(), Options{Resume: true})
	var locked *LockedError
	require.ErrorAs(t, err, &locked)
	host, _ := os.Hostname()
	assert.Equal(t, &LockedError{Dir: dir, PID: os.Getpid(), Host: host}, locked)
	assert.Contains(t, err.Error(), fmt.Sprintf("results folder %s is in use by process %d on %s", dir, os.Getpid(), host))
	_, err = Open(filepath.Join(dir, "other.jsonl"), testPlan(), Options{})
	require.ErrorAs(t, err, &locked, "the lock is the folder's, whatever the file")
	writeJobs(t, w, "a/-/run-1")
	require.NoError(t, w.Close())
	assert.NoFileExists(t, filepath.Join(dir, lockName), "Close removes the lock")

	w, err = Open(path, testPlan(), Options{Resume: true})
	require.NoError(t, err)
	o, ok := w.Outcome("a/-/run-1")
	assert.True(t, ok)
	assert.Equal(t, Outcome{Completed: true, Passed: true}, o)
	_, ok = w.Outcome("a/-/run-2")
	assert.False(t, ok, "a job the file never held")
	require.NoError(t, w.Close())
}

// TestALockLeftByAKilledProcessIsTakenOver: with flock, the kernel frees the
// lock of a dead process, so a lock file it left means nothing; without
// flock, a lock file whose process is gone from this host is stale, while
// one of a live process holds.
func TestALockLeftByAKilledProcessIsTakenOver(t *testing.T) {
	t.Parallel()
	dead := exec.Command("true")
	require.NoError(t, dead.Run())
	host, _ := os.Hostname()
	leftover := fmt.Sprintf("%d %s 2026-01-01T00:00:00Z\n", dead.Process.Pid, host)

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, lockName), []byte(leftover), 0o644))
	w, err := Open(filepath.Join(dir, "results.jsonl"), testPlan(), Options{})
	require.NoError(t, err, "a lock file nobody holds does not block")
	require.NoError(t, w.Close())

	// The same without flock (network file systems, systems without it).
	dir = t.TempDir()
	path := filepath.Join(dir, lockName)
	require.NoError(t, os.WriteFile(path, []byte(leftover), 0o644))
	l, retry, err := lockByFile(dir, path)
	require.NoError(t, err)
	require.True(t, retry, "a stale lock is removed and taken on the next try")
	require.Nil(t, l)
	l, retry, err = lockByFile(dir, path)
	require.NoError(t, err)
	require.False(t, retry)
	require.NotNil(t, l)
	_, _, err = lockByFile(dir, path)
	var locked *LockedError
	require.ErrorAs(t, err, &locked, "a live holder's lock holds")
	assert.Equal(t, os.Getpid(), locked.PID)
	require.NoError(t, l.unlock())
	assert.NoFileExists(t, path)
}

// TestExistingResultsAreNotReplacedByAccident: without Resume or Overwrite
// an existing file is refused and left as it was; Overwrite replaces it.
func TestExistingResultsAreNotReplacedByAccident(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "results.jsonl")
	w, err := Open(path, testPlan(), Options{})
	require.NoError(t, err)
	writeJobs(t, w, "a/-/run-1", "a/-/run-2")
	require.NoError(t, w.Close())
	before, err := os.ReadFile(path)
	require.NoError(t, err)

	_, err = Open(path, testPlan(), Options{})
	require.ErrorIs(t, err, ErrExist)
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, before, after)

	_, err = Open(path, testPlan(), Options{Resume: true, Overwrite: true})
	require.Error(t, err)

	w, err = Open(path, testPlan(), Options{Overwrite: true})
	require.NoError(t, err)
	require.NoError(t, w.Close())
	first, ids, err := readResults(path)
	require.NoError(t, err)
	assert.Empty(t, ids, "replaced")
	assert.Equal(t, "r1", first.RunID)
}

// TestResumeRefusesAnotherPlan: resuming with other inputs, agent, seed,
// shard or settings would append a conflicting plan; it is refused, saying
// what differs, and the file, torn last line included, stays byte for byte.
func TestResumeRefusesAnotherPlan(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(p *Plan)
		want   string
	}{
		{"agent", func(p *Plan) { p.Agent = "exec:./other" }, `agent: recorded "echo", now "exec:./other"`},
		{"seed", func(p *Plan) { p.Seed = 7 }, "seed: recorded 1, now 7"},
		{"shard", func(p *Plan) { p.Shard = "1/2" }, `shard: recorded "", now "1/2"`},
		{"sources", func(p *Plan) { p.Sources = []string{"b.scenario.yaml"} }, `sources: recorded "a.scenario.yaml", now "b.scenario.yaml"`},
		{"content", func(p *Plan) { p.Inputs = []Input{{Path: "a.scenario.yaml", SHA256: "bb"}} }, "input a.scenario.yaml: its content changed since it was recorded"},
		{"input added", func(p *Plan) { p.Inputs = append(p.Inputs, Input{Path: "base.yaml", SHA256: "cc"}) }, "input base.yaml: not read by the recorded run"},
		{"total", func(p *Plan) { p.TotalJobs = 4 }, "total jobs: recorded 3, now 4"},
		{"setting", func(p *Plan) { p.Settings = map[string]string{"runs": "3", "judge-model": "openai:x"} }, `judge-model: recorded "", now "openai:x"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "results.jsonl")
			w, err := Open(path, testPlan(), Options{})
			require.NoError(t, err)
			writeJobs(t, w, "a/-/run-1")
			require.NoError(t, w.Close())
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			require.NoError(t, err)
			_, _ = f.WriteString(`{"record":"job","id":"a/-/ru`) // killed mid-write
			require.NoError(t, f.Close())
			before, err := os.ReadFile(path)
			require.NoError(t, err)

			p := testPlan()
			tc.change(p)
			_, err = Open(path, p, Options{Resume: true})
			require.ErrorIs(t, err, ErrPlanMismatch)
			assert.Contains(t, err.Error(), tc.want)
			after, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, before, after)

			w, err = Open(path, testPlan(), Options{Resume: true})
			require.NoError(t, err, "the same plan resumes")
			require.NoError(t, w.Close())
		})
	}
}

// TestResumeKeepsTheRunAndRefusesAnOlderFormat: a resumed run takes the
// file's run id and its recorded jobs; a file an earlier agenteval wrote
// (other job ids) is refused.
func TestResumeKeepsTheRunAndRefusesAnOlderFormat(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "results.jsonl")
	w, err := Open(path, testPlan(), Options{})
	require.NoError(t, err)
	writeJobs(t, w, "a/-/run-1", "a/-/run-2")
	require.NoError(t, w.Close())
	p := testPlan()
	p.RunID = "fresh"
	w, err = Open(path, p, Options{Resume: true})
	require.NoError(t, err)
	assert.Equal(t, "r1", p.RunID)
	assert.Equal(t, Tally{Jobs: 2, Passed: 2}, w.Tally())
	require.NoError(t, w.Close())

	old := filepath.Join(t.TempDir(), "results.jsonl")
	require.NoError(t, os.WriteFile(old, []byte(`{"record":"plan","run_id":"r0","total_jobs":3,"agent":"echo","sources":["a.scenario.yaml"],"seed":1}`+"\n"), 0o644))
	_, err = Open(old, testPlan(), Options{Resume: true})
	require.ErrorIs(t, err, ErrPlanMismatch)
	assert.Contains(t, err.Error(), "results version 0, this one writes 2")

	notOurs := filepath.Join(t.TempDir(), "results.jsonl")
	require.NoError(t, os.WriteFile(notOurs, []byte("name: a scenario\n"), 0o644))
	_, err = Open(notOurs, testPlan(), Options{Resume: true})
	require.Error(t, err)
	assert.False(t, errors.Is(err, ErrPlanMismatch))
	assert.Contains(t, err.Error(), "results.jsonl:1")
}

// TestTallyCountsLatestRecordWithoutReadingBack: a writer's tally is the
// file's jobs by latest record: a resumed file's jobs, a retried job
// replaced by its new record, a new job added; and it agrees with what
// reading the file back says.
func TestTallyCountsLatestRecordWithoutReadingBack(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "results.jsonl")
	w, err := Open(path, testPlan(), Options{})
	require.NoError(t, err)
	require.NoError(t, w.Write(&Job{ID: "a/-/run-1", Scenario: "a", Run: 1, Completed: true, Passed: true}))
	require.NoError(t, w.Write(&Job{ID: "a/-/run-2", Scenario: "a", Run: 2, Completed: true}))
	require.NoError(t, w.Write(&Job{ID: "a/-/run-3", Scenario: "a", Run: 3}))
	assert.Equal(t, Tally{Jobs: 3, Passed: 1, Failed: 1, Incomplete: 1}, w.Tally())
	require.NoError(t, w.Close())

	w, err = Open(path, testPlan(), Options{Resume: true})
	require.NoError(t, err)
	assert.Equal(t, Tally{Jobs: 3, Passed: 1, Failed: 1, Incomplete: 1}, w.Tally(), "a resumed file's jobs")
	require.NoError(t, w.Write(&Job{ID: "a/-/run-3", Scenario: "a", Run: 3, Completed: true, Passed: true}))
	require.NoError(t, w.Write(&Job{ID: "a/-/run-4", Scenario: "a", Run: 4, Completed: true}))
	got := w.Tally()
	assert.Equal(t, Tally{Jobs: 4, Passed: 2, Failed: 2}, got, "run-3 retried and passed, run-4 new and failed")
	require.NoError(t, w.Close())

	_, latest, err := readResults(path)
	require.NoError(t, err)
	var read Tally
	for _, o := range latest {
		read.add(o, 1)
	}
	assert.Equal(t, read, got, "the tally is what reading the file back counts")
}

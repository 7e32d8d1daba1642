package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenteval/agenteval/redact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Close is safe twice (defer after a checked Close) and on a nil writer;
// writing after Close is an error, not a panic.
func TestWriterCloseIsSafe(t *testing.T) {
	t.Parallel()
	w, err := Open(filepath.Join(t.TempDir(), "r.jsonl"), &Plan{RunID: "r"}, Options{})
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.NoError(t, w.Close())
	assert.ErrorContains(t, w.Write(&Job{ID: "a"}), "closed")
	assert.ErrorContains(t, w.writePlan(&Plan{}), "closed")
	assert.ErrorContains(t, w.Sync(), "closed")

	var none *Writer
	assert.NoError(t, none.Close())
	var sink interface{ Write(*Job) error } = none
	assert.Error(t, sink.Write(&Job{}))
}

// BenchmarkWrite is the cost of recording one job: encoding, masking
// the secrets of a typical CI environment, and the write to the file
// (fsync in groups, on its own goroutine).
func BenchmarkWrite(b *testing.B) {
	red := redact.FromEnvironment([]string{"GITHUB_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", "OPENAI_API_KEY=sk-bench-key-0123456789abcdef",
		"OPENAI_BASE_URL=https://user:bench-password@llm.example/v1", "NPM_TOKEN=npm_0123456789abcdefghij"})
	w, err := Open(filepath.Join(b.TempDir(), "results.jsonl"), &Plan{RunID: "bench"}, Options{Redactor: red})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	res := &Job{ID: "examples/simple-test/c-44b05dbc1c5d0f7e/run-1", Scenario: "examples/test-github-issues", Run: 1, Attempts: 1,
		Completed: true, Passed: true, Score: 1, Reason: "all 3 evaluations passed", Strategy: "all_pass",
		Evaluations: []Evaluation{{Type: "string_contains", Passed: true, Score: 1, Message: `found "topic-"`},
			{Type: "regex_match", Passed: true, Score: 1, Message: "matched"}, {Type: "string_contains", Passed: true, Score: 1, Message: `found "Question"`}}}
	b.ReportAllocs()
	for b.Loop() {
		if err := w.Write(res); err != nil {
			b.Fatal(err)
		}
	}
}

// TestWriterMasksSecrets: a secret of the environment in a job's
// reply, error or transcript never reaches the results file, and the line
// stays valid JSON. (Not parallel: it sets the environment.)
func TestWriterMasksSecrets(t *testing.T) {
	const secret = "ghp_EnvTokenForTheWriter0123456789abcdef"
	t.Setenv("AGENTEVAL_TEST_TOKEN", secret)
	path := filepath.Join(t.TempDir(), "results.jsonl")
	w, err := Open(path, &Plan{RunID: "t"}, Options{Overwrite: true})
	require.NoError(t, err)
	require.NoError(t, w.Write(&Job{ID: "s/-/run-1", Scenario: "s", Run: 1, Reason: "the agent said " + secret,
		Error: `auth "` + secret + `" refused`, Transcript: []Turn{{Role: "assistant", Text: secret}}}))
	require.NoError(t, w.Close())
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.NotContains(t, string(b), secret)
	assert.Contains(t, string(b), redact.Mask)
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		assert.True(t, json.Valid(line), "%s", line)
	}
}

// TestWriterGroupCommit: records given faster than the disk takes them are
// written in groups and all reach the file, in order, by Sync and by
// Close; Sync writes what is pending before it syncs.
func TestWriterGroupCommit(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "results.jsonl")
	w, err := Open(path, &Plan{RunID: "g"}, Options{})
	require.NoError(t, err)
	w.setSyncInterval(0) // an fsync after every group, while Writes go on
	count := func() int {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		return bytes.Count(b, []byte("\n"))
	}
	for i := range 500 {
		require.NoError(t, w.Write(&Job{ID: fmt.Sprintf("s/-/run-%d", i+1), Scenario: "s", Run: i + 1}))
	}
	require.NoError(t, w.Sync())
	assert.Equal(t, 501, count(), "the plan and every record, once Sync returns")
	for i := 500; i < 1000; i++ {
		require.NoError(t, w.Write(&Job{ID: fmt.Sprintf("s/-/run-%d", i+1), Scenario: "s", Run: i + 1}))
	}
	require.NoError(t, w.Close())
	require.Equal(t, 1001, count())
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	for i, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n"))[1:] {
		var j Job
		require.NoError(t, json.Unmarshal(line, &j))
		assert.Equal(t, i+1, j.Run, "records keep the order they were given in")
	}
}

// TestWriterReportsAFailedWrite: a write that fails on the flusher comes
// back from the next Write, or from Sync or Close.
func TestWriterReportsAFailedWrite(t *testing.T) {
	t.Parallel()
	w, err := Open(filepath.Join(t.TempDir(), "results.jsonl"), &Plan{RunID: "f"}, Options{})
	require.NoError(t, err)
	require.NoError(t, w.drain())
	require.NoError(t, w.f.Close()) // the disk goes away
	_ = w.Write(&Job{ID: "s/-/run-1", Scenario: "s", Run: 1})
	assert.ErrorIs(t, w.Sync(), os.ErrClosed)
	assert.ErrorIs(t, w.Write(&Job{ID: "s/-/run-2", Scenario: "s", Run: 2}), os.ErrClosed)
	assert.ErrorIs(t, w.Close(), os.ErrClosed)
}

// TestWriterConcurrentWrites: Write is safe for concurrent use (runner.Run
// calls it from its workers): every record reaches the file once, whole,
// on its own line, with its secrets masked.
func TestWriterConcurrentWrites(t *testing.T) {
	t.Parallel()
	const secret = "ghp_ConcurrentWriterToken0123456789abcdefgh"
	path := filepath.Join(t.TempDir(), "results.jsonl")
	w, err := Open(path, &Plan{RunID: "c"}, Options{Redactor: redact.New(secret)})
	require.NoError(t, err)
	w.setSyncInterval(0)
	const writers, each = 8, 250
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for i := range each {
				id := fmt.Sprintf("s/-/run-%d", g*each+i+1)
				assert.NoError(t, w.Write(&Job{ID: id, Scenario: "s", Run: g*each + i + 1, Reason: "said " + secret,
					Evaluations: []Evaluation{{Type: "t", Details: map[string]any{"match": strings.Repeat("x", i)}}}}))
			}
		})
	}
	wg.Wait()
	require.NoError(t, w.Close())
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.NotContains(t, string(b), secret)
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	require.Len(t, lines, 1+writers*each)
	seen := map[int]bool{}
	for _, line := range lines[1:] {
		var j Job
		require.NoError(t, json.Unmarshal(line, &j), "%s", line)
		assert.False(t, seen[j.Run], "run %d written twice", j.Run)
		seen[j.Run] = true
		assert.Equal(t, "said "+redact.Mask, j.Reason)
	}
	assert.Len(t, seen, writers*each)
}

// setSyncInterval changes how long a written record may wait for its fsync.
func (w *Writer) setSyncInterval(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.syncInterval = d
}

// TestWriterSyncsWithinTheInterval: a record no later write follows still
// reaches stable storage within the interval (the flusher's timer).
func TestWriterSyncsWithinTheInterval(t *testing.T) {
	t.Parallel()
	w, err := Open(filepath.Join(t.TempDir(), "results.jsonl"), &Plan{RunID: "i"}, Options{})
	require.NoError(t, err)
	w.setSyncInterval(20 * time.Millisecond)
	require.NoError(t, w.Write(&Job{ID: "s/-/run-1", Scenario: "s", Run: 1}))
	require.Eventually(t, func() bool { return w.syncs.Load() >= 1 }, 5*time.Second, 5*time.Millisecond,
		"the plan and the record are synced without another write")
	synced := w.syncs.Load()
	time.Sleep(60 * time.Millisecond)
	assert.Equal(t, synced, w.syncs.Load(), "nothing new written: no more fsyncs")
	require.NoError(t, w.Close())
}

// TestWriterCloseSyncsPastTheInterval: Close leaves a writer open for less
// than the interval to the OS and syncs one open for longer.
func TestWriterCloseSyncsPastTheInterval(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		openFor  time.Duration
		wantSync int64
	}{
		{"short run: left to the OS", 0, 0},
		{"long run: synced at Close", 2 * time.Hour, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "results.jsonl")
			w, err := Open(path, &Plan{RunID: "c"}, Options{})
			require.NoError(t, err)
			w.setSyncInterval(time.Hour) // no periodic fsync in this test
			w.opened = w.opened.Add(-tc.openFor)
			require.NoError(t, w.Write(&Job{ID: "s/-/run-1", Scenario: "s", Run: 1}))
			require.NoError(t, w.Close())
			assert.Equal(t, tc.wantSync, w.syncs.Load())
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, 2, bytes.Count(b, []byte("\n")), "both records are in the file either way")
		})
	}
}

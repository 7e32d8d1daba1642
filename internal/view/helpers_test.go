package view

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/results"
)

var t0 = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)

// planLine is a plan record.
func planLine(t testing.TB, runID string, total int64) []byte {
	t.Helper()
	b := []byte(fmt.Sprintf(`{"record":"plan","run_id":%q,"started":%q,"total_jobs":%d,"shard_jobs":%d,"agent":"echo","sources":["a.scenario.yaml"],"seed":1,"version":2}`,
		runID, t0.Format(time.RFC3339), total, total))
	return append(b, '\n')
}

// jobOf makes job i: every third fails the same check, every seventh is
// incomplete, the rest pass.
func jobOf(i int) *results.Job {
	j := &results.Job{Record: "job", ID: fmt.Sprintf("greet/c%d/run-1", i), Index: int64(i), Scenario: "greet", Run: 1, Attempts: 1,
		Params: map[string]any{"run[0].input": fmt.Sprintf("hello %d", i)}, Strategy: "all_pass", Started: t0, DurationMS: float64(i%100) + 0.5,
		Completed: true, Passed: true, Score: 1, Reason: "all passed"}
	j.Transcript = []results.Turn{{Role: "user", Text: fmt.Sprintf("hello %d", i), At: t0},
		{Role: "assistant", Text: fmt.Sprintf("reply number %d", i), At: t0, Actions: []results.Action{{Name: "lookup", Args: map[string]any{"q": i}, Result: "found", Start: t0, End: t0.Add(3 * time.Millisecond)}}}}
	ev := results.Evaluation{Type: "string_contains", Scope: results.ScopeStep, Passed: true, Score: 1, Message: "reply contains \"reply\"", Weight: 1}
	switch {
	case i%7 == 6:
		j.Completed, j.Passed, j.Score, j.Cause = false, false, 0, results.CauseAgentCrash
		j.Error = "step 0 (input): agent panicked: boom"
		j.Reason = "not completed: " + j.Error
		j.Crash = "panic: boom\n\ngoroutine 7 [running]:\nmain.reply()"
	case i%3 == 2:
		j.Passed, j.Score, j.Reason = false, 0, "1 of 1 evaluations failed"
		ev.Passed, ev.Score, ev.Message = false, 0, "reply does not contain \"bye\""
	}
	j.Evaluations = []results.Evaluation{ev}
	return j
}

// writeResults writes a results file of n jobs (jobOf) into dir.
func writeResults(t testing.TB, dir, runID string, n int, mod func(*results.Job)) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	path := filepath.Join(dir, "results.jsonl")
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	_, err = f.Write(planLine(t, runID, int64(n)))
	require.NoError(t, err)
	var buf []byte
	for i := range n {
		j := jobOf(i)
		if mod != nil {
			mod(j)
		}
		buf, err = results.AppendJob(buf[:0], j)
		require.NoError(t, err)
		_, err = f.Write(append(buf, '\n'))
		require.NoError(t, err)
	}
	return path
}

// serve starts a Server over paths on a loopback port and returns its URL.
func serve(t testing.TB, paths ...string) (*Server, string) {
	t.Helper()
	s, err := New(Options{Paths: paths, Poll: 50 * time.Millisecond})
	require.NoError(t, err)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, l) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
		s.Close()
	})
	return s, "http://" + l.Addr().String()
}

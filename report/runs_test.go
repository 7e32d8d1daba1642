package report

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/agent/echo"
	"github.com/agenteval/agenteval/conversation"
	"github.com/agenteval/agenteval/examples"
	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// Real runs behind the renderers' tests: the bundled examples, and a
// matrix over three parameters (testdata/matrix3) run with the echo agent
// and the scripted user. This package imports none of them; only its tests
// do, which keeps imports flowing one way.

// examplesResults runs every bundled example and returns its results file.
func examplesResults(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	_, err := examples.Run(context.Background(), examples.Options{Out: dir})
	require.NoError(t, err)
	return filepath.Join(dir, "results.jsonl")
}

// matrix3Results runs testdata/matrix3 (3 × 3 × 2 combinations, 2 runs
// each) and returns its results file.
func matrix3Results(t testing.TB) string {
	t.Helper()
	regs := runner.NewRegistries()
	f, err := scenario.NewLoader(regs, scenario.Options{}).LoadFile(filepath.Join("testdata", "matrix3", "triage.matrix.yaml"))
	require.NoError(t, err)
	srcs, err := sources.Files([]*scenario.File{f}, sources.Options{})
	require.NoError(t, err)
	jobs, total, err := sources.Combine(srcs, matrix.Shard{})
	require.NoError(t, err)
	dir := t.TempDir()
	path := filepath.Join(dir, "results.jsonl")
	w, err := results.Open(path, &results.Plan{RunID: "matrix3", Started: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC),
		TotalJobs: total, ShardJobs: total, Agent: "echo", Sources: []string{"triage.matrix.yaml"}}, results.Options{})
	require.NoError(t, err)
	agent, err := echo.Type().New("", runner.AgentOptions{})
	require.NoError(t, err)
	_, err = runner.Run(context.Background(), runner.Config{Agent: agent, Registries: regs,
		UserModel: conversation.ScriptedUser(2), Results: w, Concurrency: 2, Total: total}, jobs)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return path
}

// readResults reads results files for a test; they stay open until it ends.
func readResults(t testing.TB, paths ...string) *Results {
	t.Helper()
	r, err := ReadFiles(paths, Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// writeFile writes a rendered output beside a test's other files.
func writeFile(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

package view_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/internal/view"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
)

// TestARunSavesTheViewersIndex: a run (whole, in shards, stopped by its
// budget and then resumed) leaves the viewer's index beside its results,
// and the viewer opens every file from it, reading no record and writing
// nothing (the index file is the same file, unchanged), with the counts a
// viewer that reads the records finds. A file changed by hand after the
// run is read afresh.
func TestARunSavesTheViewersIndex(t *testing.T) {
	t.Parallel()
	kit := agenteval.New()
	files, err := kit.Load("../../examples/scenarios/weather.scenario.yaml")
	require.NoError(t, err)
	// Runs 2 and 5 fail; every job uses 100 tokens.
	agent := runner.AgentFunc(func(ctx context.Context, cfg runner.SessionConfig, _ string) (runner.Reply, error) {
		u := llm.Usage{PromptTokens: 70, CompletionTokens: 30, TotalTokens: 100}
		if strings.HasSuffix(cfg.JobID, "run-2") || strings.HasSuffix(cfg.JobID, "run-5") {
			return runner.Reply{Text: "no idea", Usage: u}, nil
		}
		_, err := cfg.Mocks.Call(ctx, "weather", "forecast", map[string]any{"city": "Paris"})
		return runner.Reply{Text: "The weather in Paris is sunny", Actions: []results.Action{{Name: "GET_WEATHER"}}, Usage: u}, err
	})
	root := t.TempDir()
	run := func(cfg agenteval.RunConfig) {
		t.Helper()
		cfg.Agent, cfg.Runs = agent, 6
		_, err := kit.Run(t.Context(), cfg, files...)
		require.NoError(t, err)
		st, err := os.Stat(filepath.Join(cfg.Out, "results.jsonl.view-index"))
		require.NoError(t, err, "the run saved the viewer's index")
		rs, err := os.Stat(filepath.Join(cfg.Out, "results.jsonl"))
		require.NoError(t, err)
		assert.Equal(t, rs.Mode().Perm(), st.Mode().Perm(), "as readable as the results")
	}
	whole, shards, resumed := filepath.Join(root, "whole"), filepath.Join(root, "shards"), filepath.Join(root, "resumed")
	run(agenteval.RunConfig{Out: whole})
	run(agenteval.RunConfig{Out: filepath.Join(shards, "1"), Shard: matrix.Shard{Index: 1, Count: 2}})
	run(agenteval.RunConfig{Out: filepath.Join(shards, "2"), Shard: matrix.Shard{Index: 2, Count: 2}})
	run(agenteval.RunConfig{Out: resumed, Concurrency: 1, Budget: &runner.Budget{Tokens: 300}})
	run(agenteval.RunConfig{Out: resumed, Resume: true})

	// The two shards, each with a run id of its own, are one run.
	cases := []struct {
		dir    string
		files  int
		counts [][3]int
	}{{whole, 1, [][3]int{{6, 4, 2}}}, {shards, 2, [][3]int{{6, 4, 2}}}, {resumed, 1, [][3]int{{6, 4, 2}}}}
	for _, c := range cases {
		idx, err := filepath.Glob(filepath.Join(c.dir, "*", "results.jsonl.view-index"))
		require.NoError(t, err)
		if c.files == 1 {
			idx = []string{filepath.Join(c.dir, "results.jsonl.view-index")}
		}
		require.Len(t, idx, c.files)
		before := make([]os.FileInfo, len(idx))
		data := make([][]byte, len(idx))
		for i, p := range idx {
			before[i], err = os.Stat(p)
			require.NoError(t, err)
			data[i], err = os.ReadFile(p)
			require.NoError(t, err)
		}
		s, err := view.New(view.Options{Paths: []string{c.dir}})
		require.NoError(t, err)
		saved := view.FromSaved(s)
		counts := view.Counts(s)
		s.Close()
		assert.Equal(t, slicesOf(true, c.files), saved, "%s: every file opened from its saved index", c.dir)
		assert.Equal(t, c.counts, counts, c.dir)
		for i, p := range idx {
			after, err := os.Stat(p)
			require.NoError(t, err)
			assert.True(t, os.SameFile(before[i], after), "%s: the viewer wrote no new index", p)
			assert.Equal(t, before[i].ModTime(), after.ModTime())
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			assert.Equal(t, data[i], b)
		}
		// What a viewer that reads the records finds is the same.
		for _, p := range idx {
			require.NoError(t, os.Remove(p))
		}
		s, err = view.New(view.Options{Paths: []string{c.dir}})
		require.NoError(t, err)
		assert.Equal(t, slicesOf(false, c.files), view.FromSaved(s))
		assert.Equal(t, counts, view.Counts(s))
		s.Close()
	}

	// The results changed by hand after the run (its last job cut off):
	// the saved index no longer holds and the viewer reads the records.
	run(agenteval.RunConfig{Out: whole, Overwrite: true})
	path := filepath.Join(whole, "results.jsonl")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	cut := strings.LastIndex(strings.TrimSuffix(string(b), "\n"), "\n") + 1
	require.NoError(t, os.WriteFile(path, b[:cut], 0o644))
	s, err := view.New(view.Options{Paths: []string{whole}})
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, []bool{false}, view.FromSaved(s), "a stale index is rebuilt")
	assert.Equal(t, 5, view.Counts(s)[0][0])
}

func slicesOf(v bool, n int) []bool {
	out := make([]bool, n)
	for i := range out {
		out[i] = v
	}
	return out
}

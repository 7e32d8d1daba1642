package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// TestFixturesWithVariables binds run-level variables (run_id, as ghx's
// scenarios use it) besides the manifest's, in what the agent receives.
func TestFixturesWithVariables(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []string
	agent := AgentFunc(func(_ context.Context, _ SessionConfig, in string) (Reply, error) {
		mu.Lock()
		got = append(got, in)
		mu.Unlock()
		return Reply{Text: "done"}, nil
	})
	m := &scenario.Manifest{SeedID: "s", Repo: "acme/demo", Fixtures: map[string]scenario.FixtureResource{
		"pr": {Type: "pr", Number: 7, Repo: "acme/demo"}}}
	s := &scenario.Scenario{ID: "x", Environment: scenario.Environment{Type: "local"}, Judgment: scenario.Judgment{Strategy: "all_pass"},
		Run: []scenario.RunStep{{Input: "Review PR #{{pr_number}}; include the run ID '{{run_id}}'.",
			Evaluations: []scenario.Evaluation{{Type: "string_contains", Params: &evalparams.StringContains{Value: "done"}}}}},
		Fixture: &scenario.Fixture{Requires: []string{"pr"}, Bindings: map[string]string{"pr_number": "pr.number"}}}
	res := runOne(t, Config{Agent: agent, Fixtures: &fixture.Binder{Manifest: m,
		Variables: map[string]any{fixture.VarRunID: "run-42"}}}, s)
	require.True(t, res.Passed, res.Error)
	assert.Equal(t, []string{"Review PR #7; include the run ID 'run-42'."}, got)

	res = runOne(t, Config{Agent: agent, Fixtures: &fixture.Binder{Manifest: m}}, s)
	assert.False(t, res.Completed)
	assert.Contains(t, res.Error, "unbound placeholder {{run_id}}")
}

// scorerFunc adapts a function to CheckpointScorer.
type scorerFunc func(ctx context.Context, s *scenario.Scenario) ([]results.Checkpoint, error)

func (f scorerFunc) ScoreCheckpoints(ctx context.Context, s *scenario.Scenario) ([]results.Checkpoint, error) {
	return f(ctx, s)
}

// TestSeedPerIteration creates fresh fixtures for every attempt (a retry
// too), binds the attempt to them, scores its checkpoints on them and only
// then releases them; reseedPerIteration resets first, as ghx's hooks do.
func TestSeedPerIteration(t *testing.T) {
	t.Parallel()
	m := &scenario.Manifest{SeedID: "s", Repo: "acme/demo", Fixtures: map[string]scenario.FixtureResource{
		"pr": {Type: "pr", Number: 7, Repo: "acme/demo"}, "other": {Type: "issue", Number: 3, Repo: "acme/demo"}}}
	var mu sync.Mutex
	var events []string
	log := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, fmt.Sprintf(format, args...))
	}
	next := 100
	cfg := &fixture.Binder{Manifest: m,
		Reset: func(context.Context, *scenario.Scenario) error { log("reset"); return nil },
		SeedFresh: func(_ context.Context, s *scenario.Scenario) (*scenario.Manifest, func(context.Context) error, error) {
			mu.Lock()
			next++
			n := next
			mu.Unlock()
			log("seed #%d", n)
			fresh := *m
			fresh.Fixtures = map[string]scenario.FixtureResource{"pr": {Type: "pr", Number: float64(n), Repo: "acme/demo"}, "other": m.Fixtures["other"]}
			return &fresh, func(ctx context.Context) error {
				require.NoError(t, ctx.Err(), "released with a live context")
				log("release #%d", n)
				if n == 102 {
					return errors.New("close pull request #102: 502")
				}
				return nil
			}, nil
		}}
	agent := AgentFunc(func(_ context.Context, _ SessionConfig, in string) (Reply, error) {
		log("agent: %s", in)
		return Reply{Text: "done"}, nil
	})
	scorer := scorerFunc(func(_ context.Context, s *scenario.Scenario) ([]results.Checkpoint, error) {
		log("checkpoint on #%v", s.Checkpoints[0].Input["prNumber"])
		return []results.Checkpoint{{ID: "c", Passed: false, Error: "no review"}}, nil
	})
	s := &scenario.Scenario{ID: "x", Environment: scenario.Environment{Type: "local"}, Judgment: scenario.Judgment{Strategy: "all_pass"}, AllowedRetries: 1,
		Run: []scenario.RunStep{{Input: "Review PR #{{pr_number}} (issue #{{issue}})"}},
		Checkpoints: []scenario.Checkpoint{{ID: "c", Task: "pr.reviews.list", Input: map[string]any{"prNumber": "{{pr_number}}"},
			Condition: scenario.Condition{Type: "non_empty"}}},
		Fixture: &scenario.Fixture{Requires: []string{"pr"}, Bindings: map[string]string{"pr_number": "pr.number", "issue": "other.number"},
			ReseedPerIteration: true, SeedPerIteration: true}}
	res := runOne(t, Config{Agent: agent, Fixtures: cfg, Checkpoints: scorer}, s)
	assert.Equal(t, 2, res.Attempts, "a failed attempt is retried, with fixtures of its own")
	assert.Equal(t, []string{
		"reset", "seed #101", "agent: Review PR #101 (issue #3)", "checkpoint on #101", "release #101",
		"reset", "seed #102", "agent: Review PR #102 (issue #3)", "checkpoint on #102", "release #102",
	}, events)
	assert.Contains(t, res.Notes, "close pull request #102: 502", "a failed release is noted, not hidden")

	// Without a way to seed, such a scenario cannot run, and says why.
	cfg.SeedFresh = nil
	reasons := Config{Fixtures: cfg, Checkpoints: scorer}.Unrunnable(s)
	require.Len(t, reasons, 1)
	assert.Contains(t, reasons[0], "seed_per_iteration (fresh pr for each run) and nothing can create them; pass --seed-file")
	cfg.Reset = nil
	assert.Len(t, Config{Fixtures: cfg, Checkpoints: scorer}.Unrunnable(s), 2)
}

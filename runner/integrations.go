package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// Checkpoints returns a CheckpointScorer that runs checkpoints through
// checker (an Executor such as github.NewExecutor's, and the condition types).
func Checkpoints(checker checkpoint.Checker) CheckpointScorer { return checkpointScorer{checker} }

type checkpointScorer struct{ c checkpoint.Checker }

func (c checkpointScorer) ScoreCheckpoints(ctx context.Context, s *scenario.Scenario) ([]results.Checkpoint, error) {
	rep := c.c.Score(ctx, s.Checkpoints)
	out := make([]results.Checkpoint, len(rep.Results))
	var undecided []string
	for i, r := range rep.Results {
		cr := results.Checkpoint{ID: r.ID, Description: r.Description, Task: r.Task, Passed: r.Passed, Expected: r.Expected, Error: r.Error}
		if r.Message != "" && !r.Passed && cr.Error == "" {
			cr.Error = r.Message
		}
		if r.Actual != nil {
			if b, err := json.Marshal(r.Actual); err == nil {
				cr.Actual = b
			}
		}
		out[i] = cr
		if r.Err != nil {
			undecided = append(undecided, fmt.Sprintf("%s (%v)", r.ID, r.Err))
		}
	}
	if len(undecided) > 0 {
		// A task that failed (GitHub refused, the network broke, a scorer
		// erred) says nothing about the state: no verdict, not a failure.
		return out, fmt.Errorf("%d of %d checkpoint(s) could not be decided: %s", len(undecided), len(out), strings.Join(undecided, "; "))
	}
	return out, nil
}

// FixtureConfig configures the FixtureBinder of Fixtures.
type FixtureConfig struct {
	// Manifest holds the fixtures placeholders bind to.
	Manifest *scenario.Manifest
	// Reset returns a scenario's fixtures to their seeded state; it is
	// called before each attempt of a scenario with reseed_per_iteration
	// (see fixture.ResetScenario). Nil makes such a scenario fail, saying why.
	Reset func(ctx context.Context, s *scenario.Scenario) error
	// SeedFresh creates fresh fixtures for one attempt of a scenario with
	// seed_per_iteration (ghx's seedPerIteration) and returns the manifest
	// to bind it to and release, which removes them; release is called once
	// the attempt's checkpoints are scored (see fixture.SeedScenario). Nil
	// makes such a scenario fail, saying why.
	SeedFresh func(ctx context.Context, s *scenario.Scenario) (*scenario.Manifest, func(context.Context) error, error)
	// Variables are further placeholder values, such as fixture.VarRunID
	// (run_id, which ghx's scenarios ask agents to write into what they
	// post); they win over the manifest's, as in ghx.
	Variables map[string]any
}

// Fixtures returns a FixtureBinder configured by c: for each attempt it
// resets (reseed_per_iteration) and then seeds fresh fixtures
// (seed_per_iteration), as ghx's hooks do, and binds the scenario's
// {{placeholders}} from the manifest. A scenario that needs what c lacks
// (a manifest, Reset, SeedFresh) fails with a message saying why.
func Fixtures(c FixtureConfig) FixtureBinder { return fixtureBinder{c: c} }

type fixtureBinder struct{ c FixtureConfig }

func (f fixtureBinder) Prepare(ctx context.Context, s *scenario.Scenario) (*scenario.Scenario, func(context.Context) error, error) {
	if reasons := f.unrunnable(s); len(reasons) > 0 {
		return nil, nil, errors.New(strings.Join(reasons, "; "))
	}
	if s.Fixture != nil && s.Fixture.ReseedPerIteration {
		if err := f.c.Reset(ctx, s); err != nil {
			return nil, nil, fmt.Errorf("resetting the fixture: %w", err)
		}
	}
	m, release := f.c.Manifest, func(context.Context) error { return nil }
	if s.Fixture != nil && s.Fixture.SeedPerIteration {
		fresh, rel, err := f.c.SeedFresh(ctx, s)
		if rel != nil {
			release = rel
		}
		if err != nil {
			return nil, release, fmt.Errorf("seeding fresh fixtures: %w", err)
		}
		m = fresh
	}
	bound, err := fixture.Bind(s, m, f.c.Variables)
	return bound, release, err
}

// unrunnable says what this binder cannot do for s.
func (f fixtureBinder) unrunnable(s *scenario.Scenario) []string {
	var reasons []string
	if s.Fixture != nil && !s.Fixture.SeedPerIteration && f.c.Manifest == nil {
		reasons = append(reasons, fmt.Sprintf("it needs fixture %s and no fixture manifest is configured; pass --manifest (FixtureConfig.Manifest)", strings.Join(s.Fixture.Requires, ", ")))
	}
	if s.Fixture != nil && s.Fixture.ReseedPerIteration && f.c.Reset == nil {
		reasons = append(reasons, "it asks for reseed_per_iteration and no fixture manager can reset its fixtures; set GITHUB_TOKEN or pass --graphql-url (FixtureConfig.Reset)")
	}
	if s.Fixture != nil && s.Fixture.SeedPerIteration && f.c.SeedFresh == nil {
		reasons = append(reasons, fmt.Sprintf("it asks for seed_per_iteration (fresh %s for each run) and nothing can create them; pass --seed-file with a GitHub token or --graphql-url (FixtureConfig.SeedFresh)",
			strings.Join(s.Fixture.Requires, ", ")))
	}
	return reasons
}

package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/scenario"
)

// Checkpoints returns a CheckpointScorer that runs checkpoints through
// checker (an Executor such as checkpoint/github's, and a condition registry).
func Checkpoints(checker checkpoint.Checker) CheckpointScorer { return checkpointScorer{checker} }

type checkpointScorer struct{ c checkpoint.Checker }

func (c checkpointScorer) ScoreCheckpoints(ctx context.Context, s *scenario.Scenario) ([]CheckpointResult, error) {
	rep := c.c.Score(ctx, s.Checkpoints)
	out := make([]CheckpointResult, len(rep.Results))
	var undecided []string
	for i, r := range rep.Results {
		cr := CheckpointResult{ID: r.ID, Description: r.Description, Task: r.Task, Passed: r.Passed, Expected: r.Expected, Error: r.Error}
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

// Fixtures returns a FixtureBinder that binds {{placeholders}} from the
// manifest and, for scenarios with reseed_per_iteration, calls reset first
// (a failed reset fails that run only). With reset nil, such a scenario
// fails with a message saying why. It is FixturesWith(FixtureConfig{Manifest:
// m, Reset: reset}).
func Fixtures(m *scenario.Manifest, reset func(ctx context.Context, s *scenario.Scenario) error) FixtureBinder {
	return FixturesWith(FixtureConfig{Manifest: m, Reset: reset})
}

// FixtureConfig configures the FixtureBinder of FixturesWith.
type FixtureConfig struct {
	// Manifest holds the fixtures placeholders bind to.
	Manifest *scenario.Manifest
	// Reset returns a scenario's fixtures to their seeded state; it is
	// called before each attempt of a scenario with reseed_per_iteration
	// (see fixture.ResetScenario). Nil makes such a scenario fail, saying why.
	Reset func(ctx context.Context, s *scenario.Scenario) error
	// Variables are further placeholder values, such as fixture.VarRunID
	// (run_id, which ghx's scenarios ask agents to write into what they
	// post); they win over the manifest's, as in ghx.
	Variables map[string]any
}

// FixturesWith returns a FixtureBinder configured by c.
func FixturesWith(c FixtureConfig) FixtureBinder { return fixtureBinder{c: c} }

type fixtureBinder struct{ c FixtureConfig }

func (f fixtureBinder) Prepare(ctx context.Context, s *scenario.Scenario, reseed bool) (*scenario.Scenario, error) {
	if reseed {
		if f.c.Reset == nil {
			return nil, errors.New("the scenario asks for reseed_per_iteration but no fixture manager can reset its fixtures (give a GitHub token)")
		}
		if err := f.c.Reset(ctx, s); err != nil {
			return nil, fmt.Errorf("resetting the fixture: %w", err)
		}
	}
	return fixture.BindWith(s, f.c.Manifest, f.c.Variables)
}
